package dev.shuttle.scheduler.jdk;

import static java.lang.constant.ConstantDescs.CD_boolean;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Rewrites {@code java.lang.ThreadBuilders} on its first load, with the JDK's own ClassFile API, so that virtual
 * threads created without a scheduler go to a scheduler the agent chooses.
 *
 * <p>In JDK 25 every virtual thread is created by one static method,
 * {@code ThreadBuilders.newVirtualThread(Executor scheduler, String name, int characteristics, Runnable task)}, called
 * with {@code scheduler == null} by {@code Thread.ofVirtual()}, {@code Thread.startVirtualThread}, the builder's
 * factory and so {@code Executors.newVirtualThreadPerTaskExecutor()}. The {@code VirtualThread} constructor then picks
 * the parent's scheduler if the creating thread is virtual, and the JDK's {@code ForkJoinPool} otherwise. The rewrite
 * adds one field and prepends four lines to that method:
 *
 * <pre>{@code
 * static volatile Executor shuttle$defaultScheduler;   // set by the agent, reflectively; read by VirtualThread
 *
 * static Thread newVirtualThread(Executor scheduler, String name, int characteristics, Runnable task) {
 *     if (scheduler == null && !Thread.currentThread().isVirtual()) {
 *         scheduler = shuttle$defaultScheduler;                 // may still be null: then the JDK default
 *     }
 *     ... unchanged JDK code ...
 * }
 * }</pre>
 *
 * So only the "platform parent, no scheduler" case changes: an explicit scheduler is kept, and a virtual parent's
 * scheduler is still inherited by the constructor. Code in {@code java.base} cannot name Shuttle's classes (they
 * live in the application class loader), hence a plain {@link Executor} field that the agent fills in. The field is
 * package-private so that {@link DefaultSchedulerTransformer}'s rewrite of {@code VirtualThread.defaultScheduler()}
 * can read it.
 * {@code Thread.currentThread()} and {@code Thread.isVirtual()} (an {@code instanceof BaseVirtualThread}) are
 * intrinsic or trivial, allocate nothing and take no lock, so they are safe at that point.
 *
 * <p>Adding a field is allowed only on a class's first load, not on a retransformation. {@code ThreadBuilders} is
 * loaded lazily, on the first virtual-thread creation, which comes after {@code premain} unless another agent created
 * a virtual thread first; {@code SystemScheduler} checks that the field exists after loading the class.

 */
public final class ThreadBuildersTransformer extends JdkClassRewrite.OfClass {
    static final String INTERNAL_NAME = "java/lang/ThreadBuilders";
    public static final String CLASS_NAME = "java.lang.ThreadBuilders";
    public static final String FIELD = "shuttle$defaultScheduler";
    /**
     * The second field: {@code static volatile ObjIntConsumer shuttle$delays}, the JDK-default measuring mode's
     * receiver of hand-offs and starts ({@link DelayHooksTransformer}, {@code JdkSchedulingDelays}); null otherwise.
     */
    public static final String DELAYS_FIELD = "shuttle$delays";
    static final String METHOD = "newVirtualThread";

    private static final ClassDesc CD_Thread = ClassDesc.of(Thread.class.getName());
    private static final ClassDesc CD_THREAD_BUILDERS = ClassDesc.of(CLASS_NAME);
    private static final ClassDesc CD_EXECUTOR = ClassDesc.of(Executor.class.getName());
    private static final MethodTypeDesc METHOD_TYPE = MethodTypeDesc.of(CD_Thread, CD_EXECUTOR,
            ClassDesc.of(String.class.getName()), ClassDesc.ofDescriptor("I"), ClassDesc.of(Runnable.class.getName()));

    public ThreadBuildersTransformer() {
        super(INTERNAL_NAME, ThreadBuildersTransformer::rewrite);
    }

    @Override
    boolean appliesTo(String internalName, boolean redefining) {
        // Adding a field is allowed only on a class's first load.
        return !redefining && super.appliesTo(internalName, redefining);
    }

    /** The rewritten class file; throws if the JDK's method is not the one this rewrite was written against. */
    static byte[] rewrite(byte[] classfile) {
        ClassFile cf = ClassFile.of();
        ClassModel model = cf.parse(classfile);
        boolean found = false;
        for (MethodModel m : model.methods()) {
            if (isTarget(m)) {
                if (!m.flags().has(AccessFlag.STATIC) || m.code().isEmpty()) {
                    throw new IllegalStateException(CLASS_NAME + "." + METHOD + " is not a static method with code");
                }
                found = true;
            }
        }
        if (!found) {
            throw new IllegalStateException(CLASS_NAME + " has no method " + METHOD + METHOD_TYPE.descriptorString());
        }
        ClassTransform prepend = ClassTransform.transformingMethodBodies(ThreadBuildersTransformer::isTarget,
                new Prepend(ThreadBuildersTransformer::defaultScheduler));
        return cf.transformClass(model, prepend.andThen(addStaticFields(model, CLASS_NAME, Map.of(FIELD, CD_EXECUTOR,
                DELAYS_FIELD, ClassDesc.of(java.util.function.ObjIntConsumer.class.getName())))));
    }

    private static boolean isTarget(MethodModel m) {
        return m.methodName().equalsString(METHOD) && m.methodType().equalsString(METHOD_TYPE.descriptorString());
    }

    /** The {@code if} at the start of {@code newVirtualThread}. */
    private static void defaultScheduler(CodeBuilder cb) {
        Label jdkCode = cb.newLabel();
        cb.aload(0)                                     // scheduler (slot 0: the method is static)
          .ifnonnull(jdkCode)
          .invokestatic(CD_Thread, "currentThread", MethodTypeDesc.of(CD_Thread))
          .invokevirtual(CD_Thread, "isVirtual", MethodTypeDesc.of(CD_boolean))
          .ifne(jdkCode)
          .getstatic(CD_THREAD_BUILDERS, FIELD, CD_EXECUTOR)
          .astore(0)
          .labelBinding(jdkCode);
    }
}
