package dev.shuttle.scheduler.jdk;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.MethodTransform;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.ObjIntConsumer;

/**
 * The JDK-default measuring mode ({@code -Dshuttle.measure=true}): rewrites {@code java.lang.VirtualThread}, by
 * retransformation, so that the JDK's own scheduler reports every hand-off and every start of its virtual threads to
 * {@code JdkSchedulingDelays}, through {@code ThreadBuilders.shuttle$delays} ({@link ThreadBuildersTransformer}'s
 * second field). Before each of the five calls that hand a thread's continuation to a scheduler
 * ({@code Executor.execute}, {@code ForkJoinPool.lazySubmit} and {@code ForkJoinPool.externalSubmit}, in
 * {@code submitRunContinuation}, {@code lazySubmitRunContinuation}, {@code externalSubmitRunContinuation} and
 * {@code externalSubmitRunContinuationOrThrow}), and at the start of {@code runContinuation}, it inserts
 *
 * <pre>{@code
 * ObjIntConsumer d = ThreadBuilders.shuttle$delays;
 * if (d != null && this.scheduler == DEFAULT_SCHEDULER) d.accept(this, HAND_OFF);   // STARTING in runContinuation
 * }</pre>
 *
 * Nothing else changes: the same pool, the same submission calls with the same arguments, in the same order; the
 * inserted code leaves the operand stack as it found it and calls nothing of the JDK's. Hooking the calls rather
 * than the methods counts each hand-off once (a lazy submit that falls back to {@code submitRunContinuation} passes
 * through two of those methods). Threads of other schedulers (Shuttle's, which measure themselves) are skipped by the
 * {@code DEFAULT_SCHEDULER} test. Like {@link CarrierHooksTransformer}, it adds no field or method, as a
 * retransformation must not.
 */
public final class DelayHooksTransformer extends JdkClassRewrite.OfClass {
    static final String INTERNAL_NAME = "java/lang/VirtualThread";
    private static final ClassDesc CD_VIRTUAL_THREAD = ClassDesc.ofInternalName(INTERNAL_NAME);
    private static final ClassDesc CD_THREAD_BUILDERS = ClassDesc.of(ThreadBuildersTransformer.CLASS_NAME);
    private static final ClassDesc CD_EXECUTOR = ClassDesc.of(Executor.class.getName());
    private static final ClassDesc CD_POOL = ClassDesc.of(ForkJoinPool.class.getName());
    private static final ClassDesc CD_CONSUMER = ClassDesc.of(ObjIntConsumer.class.getName());
    private static final MethodTypeDesc ACCEPT = MethodTypeDesc.of(CD_void, CD_Object, CD_int);
    /** The code the hook passes just before a thread of the default scheduler is handed to the pool. */
    public static final int HAND_OFF = 0;
    /** The code the hook passes as a carrier enters {@code runContinuation}. */
    public static final int STARTING = 1;
    /** The hand-off calls of JDK 25's {@code VirtualThread}. */
    static final int EXPECTED_HAND_OFFS = 5;

    DelayHooksTransformer() {
        super(INTERNAL_NAME, DelayHooksTransformer::rewrite);
    }

    /** Rewrites the loaded {@code VirtualThread}; returns null when done, else why not. */
    public static String install(Instrumentation inst) {
        return new DelayHooksTransformer().retransformLoaded(inst,
                "cannot add the scheduling-delay hooks to java.lang.VirtualThread");
    }

    /** The rewritten class file; throws if the JDK's code is not the one this rewrite was written against. */
    static byte[] rewrite(byte[] classfile) {
        ClassFile cf = ClassFile.of();
        ClassModel model = cf.parse(classfile);
        if (model.methods().stream().noneMatch(DelayHooksTransformer::isRunContinuation)) {
            throw new IllegalStateException("java.lang.VirtualThread has no method runContinuation()V");
        }
        int[] handOffs = new int[1];
        // One pass over each instance method: two chained method-body transforms saw no instructions in the second.
        ClassTransform hooks = (clb, element) -> {
            if (element instanceof MethodModel m && m.code().isPresent()
                    && !m.flags().has(java.lang.reflect.AccessFlag.STATIC)) {
                boolean start = isRunContinuation(m);
                clb.transformMethod(m, MethodTransform.transformingCode(new CodeTransform() {
                    @Override
                    public void atStart(CodeBuilder cb) {
                        if (start) {
                            hook(cb, STARTING);
                        }
                    }

                    @Override
                    public void accept(CodeBuilder cb, CodeElement e) {
                        if (e instanceof InvokeInstruction call && isHandOff(call)) {
                            hook(cb, HAND_OFF);
                            handOffs[0]++;
                        }
                        cb.with(e);
                    }
                }));
            } else {
                clb.with(element);
            }
        };
        byte[] rewritten = cf.transformClass(model, hooks);
        if (handOffs[0] != EXPECTED_HAND_OFFS) {
            throw new IllegalStateException("java.lang.VirtualThread hands its continuation to a scheduler in "
                    + handOffs[0] + " places, not the " + EXPECTED_HAND_OFFS + " of JDK 25");
        }
        return rewritten;
    }

    private static boolean isRunContinuation(MethodModel m) {
        return m.methodName().equalsString("runContinuation") && m.methodType().equalsString("()V")
                && m.code().isPresent();
    }

    private static boolean isHandOff(InvokeInstruction call) {
        String owner = call.owner().asInternalName();
        String name = call.name().stringValue();
        return owner.equals("java/util/concurrent/Executor") && name.equals("execute")
                || owner.equals("java/util/concurrent/ForkJoinPool")
                        && (name.equals("lazySubmit") || name.equals("externalSubmit"));
    }

    /** The stack-neutral call of {@code ThreadBuilders.shuttle$delays.accept(this, op)}; see the class comment. */
    private static void hook(CodeBuilder cb, int op) {
        Label skip = cb.newLabel();
        Label done = cb.newLabel();
        cb.getstatic(CD_THREAD_BUILDERS, ThreadBuildersTransformer.DELAYS_FIELD, CD_CONSUMER)
          .dup()
          .ifnull(skip)
          .aload(0)
          .getfield(CD_VIRTUAL_THREAD, "scheduler", CD_EXECUTOR)
          .getstatic(CD_VIRTUAL_THREAD, "DEFAULT_SCHEDULER", CD_POOL)
          .if_acmpne(skip)
          .aload(0)
          .loadConstant(op)
          .invokeinterface(CD_CONSUMER, "accept", ACCEPT)
          .goto_(done)
          .labelBinding(skip)
          .pop()
          .labelBinding(done);
    }
}
