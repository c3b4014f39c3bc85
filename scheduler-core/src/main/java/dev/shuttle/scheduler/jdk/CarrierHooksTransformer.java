package dev.shuttle.scheduler.jdk;

import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;

/**
 * Rewrites the three places where {@code java.base} asks about the carrier of the current virtual thread and only
 * understands its own {@code ForkJoinPool}'s carriers, so that they ask a Shuttle {@code Carrier} too. Each rewrite
 * prepends one test to the JDK's method and leaves the JDK's code unchanged behind it:
 *
 * <pre>{@code
 * // ForkJoinWorkerThread: LinkedTransferQueue, SynchronousQueue and Exchanger spin before parking unless this is true
 * static boolean hasKnownQueuedWork() {
 *     if (JLA.currentCarrierThread() instanceof IntPredicate c) return c.test(QUEUED_WORK);
 *     ... JDK code ...
 * }
 * // jdk.internal.misc.Blocker: brackets the blocking calls the JDK knows (process pipes, InetAddress, fsync, ...)
 * public static boolean begin() {
 *     if (Thread.currentThread().isVirtual() && currentCarrierThread() instanceof IntPredicate c) return c.test(BEGIN_BLOCKING);
 *     ... JDK code ...
 * }
 * public static void end(boolean attempted) {
 *     if (attempted && currentCarrierThread() instanceof IntPredicate c) { c.test(END_BLOCKING); return; }
 *     ... JDK code ...
 * }
 * }</pre>
 *
 * <p>Code in {@code java.base} cannot name Shuttle's classes (they live in the application class loader), so the
 * carrier answers through an interface of {@code java.base}; no JDK carrier implements {@link IntPredicate}, so the
 * JDK's own pool takes the JDK's path as before. The rewrites add no field or method, so they work as retransforms
 * of classes already loaded as well as on first load. Without the agent (the explicit API alone) nothing is
 * rewritten: queued-work answers "no" on Shuttle's carriers and marked blocking calls hold their carrier until the
 * {@code Monitor} hands its processor off.

 */
public final class CarrierHooksTransformer extends JdkClassRewrite {
    /** The question codes a {@code Carrier} answers in {@code Carrier#test}. */
    public static final int QUEUED_WORK = 0;
    public static final int BEGIN_BLOCKING = 1;
    public static final int END_BLOCKING = 2;

    static final String FJWT = "java/util/concurrent/ForkJoinWorkerThread";
    static final String BLOCKER = "jdk/internal/misc/Blocker";

    private static final ClassDesc CD_Thread = ClassDesc.of(Thread.class.getName());
    private static final ClassDesc CD_FJWT = ClassDesc.ofInternalName(FJWT);
    private static final ClassDesc CD_BLOCKER = ClassDesc.ofInternalName(BLOCKER);
    private static final ClassDesc CD_JLA = ClassDesc.of("jdk.internal.access.JavaLangAccess");
    private static final ClassDesc CD_INT_PREDICATE = ClassDesc.of(IntPredicate.class.getName());
    private static final MethodTypeDesc RETURNS_THREAD = MethodTypeDesc.of(CD_Thread);
    private static final MethodTypeDesc RETURNS_BOOLEAN = MethodTypeDesc.of(CD_boolean);
    private static final MethodTypeDesc TEST = MethodTypeDesc.of(CD_boolean, CD_int);

    private record Target(String owner, String method, String descriptor, Consumer<CodeBuilder> prologue) {
    }

    private static final List<Target> TARGETS = List.of(
            new Target(FJWT, "hasKnownQueuedWork", "()Z", cb -> {
                cb.getstatic(CD_FJWT, "JLA", CD_JLA)
                  .invokeinterface(CD_JLA, "currentCarrierThread", RETURNS_THREAD);
                askAndReturn(cb, QUEUED_WORK, true);
            }),
            new Target(BLOCKER, "begin", "()Z", cb -> {
                Label jdk = cb.newLabel();
                cb.invokestatic(CD_Thread, "currentThread", RETURNS_THREAD)
                  .invokevirtual(CD_Thread, "isVirtual", RETURNS_BOOLEAN)
                  .ifeq(jdk)
                  .invokestatic(CD_BLOCKER, "currentCarrierThread", RETURNS_THREAD);
                askAndReturn(cb, BEGIN_BLOCKING, true);
                cb.labelBinding(jdk);
            }),
            new Target(BLOCKER, "end", "(Z)V", cb -> {
                Label jdk = cb.newLabel();
                cb.iload(0)
                  .ifeq(jdk)
                  .invokestatic(CD_BLOCKER, "currentCarrierThread", RETURNS_THREAD);
                askAndReturn(cb, END_BLOCKING, false);
                cb.labelBinding(jdk);
            }));

    /**
     * With the carrier thread on the stack: if it is an {@link IntPredicate}, ask it {@code question} and return
     * (its answer, or nothing); else drop it and fall through to the JDK's code.
     */
    private static void askAndReturn(CodeBuilder cb, int question, boolean returnsAnswer) {
        Label notOurs = cb.newLabel();
        Label jdk = cb.newLabel();
        cb.dup()
          .instanceOf(CD_INT_PREDICATE)
          .ifeq(notOurs)
          .checkcast(CD_INT_PREDICATE)
          .loadConstant(question)
          .invokeinterface(CD_INT_PREDICATE, "test", TEST);
        if (returnsAnswer) {
            cb.ireturn();
        } else {
            cb.pop().return_();
        }
        cb.labelBinding(notOurs)
          .pop()
          .labelBinding(jdk);
    }

    /**
     * Adds the hooks to the JDK, retransforming whichever target class is loaded already. Returns null when done,
     * else why not.
     */
    public static String install(Instrumentation inst) {
        CarrierHooksTransformer transformer = new CarrierHooksTransformer();
        inst.addTransformer(transformer, true);
        try {
            for (String owner : List.of(FJWT, BLOCKER)) {
                String name = owner.replace('/', '.');
                Class<?> loaded = null;
                for (Class<?> c : inst.getAllLoadedClasses()) {
                    if (c.getName().equals(name) && c.getClassLoader() == null) {
                        loaded = c;
                    }
                }
                if (loaded != null) {
                    inst.retransformClasses(loaded);
                } else {
                    Class.forName(name, false, null);
                }
                if (transformer.failure() != null) {
                    return "cannot rewrite " + name + ": " + transformer.failure();
                }
            }
            return null;
        } catch (UnmodifiableClassException | ClassNotFoundException | RuntimeException e) {
            return "cannot rewrite the JDK's carrier hooks: " + e;
        } finally {
            inst.removeTransformer(transformer);
        }
    }

    @Override
    boolean appliesTo(String internalName, boolean redefining) {
        return FJWT.equals(internalName) || BLOCKER.equals(internalName);
    }

    /** The rewritten class file; throws if a target method is not the one these rewrites were written against. */
    @Override
    byte[] rewrite(String className, byte[] classfile) {
        ClassFile cf = ClassFile.of();
        ClassModel model = cf.parse(classfile);
        ClassTransform all = ClassTransform.ACCEPT_ALL;
        for (Target t : TARGETS) {
            if (!t.owner().equals(className)) {
                continue;
            }
            boolean found = model.methods().stream().anyMatch(m -> matches(m, t)
                    && m.flags().has(java.lang.reflect.AccessFlag.STATIC) && m.code().isPresent());
            if (!found) {
                throw new IllegalStateException(className + " has no static method " + t.method() + t.descriptor());
            }
            all = all.andThen(ClassTransform.transformingMethodBodies(m -> matches(m, t), new Prepend(t.prologue())));
        }
        return cf.transformClass(model, all);
    }

    private static boolean matches(MethodModel m, Target t) {
        return m.methodName().equalsString(t.method()) && m.methodType().equalsString(t.descriptor());
    }
}
