package dev.shuttle.scheduler.jdk;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.constant.ClassDesc;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.Executor;

/**
 * Makes the JDK report Shuttle as its default virtual-thread scheduler once the agent installed it: rewrites
 * {@code java.lang.VirtualThread.defaultScheduler()}, by retransformation (the class is loaded at VM start), to
 *
 * <pre>{@code
 * static Executor defaultScheduler() {
 *     Executor shuttle = ThreadBuilders.shuttle$defaultScheduler;   // ThreadBuildersTransformer's field
 *     if (shuttle != null) return shuttle;
 *     return DEFAULT_SCHEDULER;                                      // the JDK's code
 * }
 * }</pre>
 *
 * In JDK 25 only management reads that method (through {@code JavaLangAccess.virtualThreadDefaultScheduler}): the
 * {@code jdk.management.VirtualThreadSchedulerMXBean} and {@code jcmd <pid> Thread.vthread_scheduler}. Scheduling
 * itself uses the field {@code DEFAULT_SCHEDULER} directly and is not affected. The MXBean casts the scheduler to
 * {@code ForkJoinPool} and asks it for its parallelism, pool size, active threads and queued tasks, which
 * {@code CarrierPool} answers for Shuttle.
 */
public final class DefaultSchedulerTransformer extends JdkClassRewrite.OfClass {
    static final String INTERNAL_NAME = "java/lang/VirtualThread";
    private static final ClassDesc CD_EXECUTOR = ClassDesc.of(Executor.class.getName());
    private static final ClassDesc CD_THREAD_BUILDERS = ClassDesc.of(ThreadBuildersTransformer.CLASS_NAME);
    private static final String METHOD = "defaultScheduler";
    private static final String DESCRIPTOR = "()Ljava/util/concurrent/Executor;";

    DefaultSchedulerTransformer() {
        super(INTERNAL_NAME, DefaultSchedulerTransformer::rewrite);
    }

    /** Rewrites the loaded {@code VirtualThread}; returns null when done, else why not. */
    public static String install(Instrumentation inst) {
        return new DefaultSchedulerTransformer().retransformLoaded(inst,
                "cannot rewrite java.lang.VirtualThread." + METHOD);
    }

    /** The rewritten class file; throws if the JDK's method is not the one this rewrite was written against. */
    static byte[] rewrite(byte[] classfile) {
        ClassFile cf = ClassFile.of();
        ClassModel model = cf.parse(classfile);
        if (model.methods().stream().noneMatch(m -> isTarget(m) && m.code().isPresent())) {
            throw new IllegalStateException("java.lang.VirtualThread has no method " + METHOD + DESCRIPTOR);
        }
        return cf.transformClass(model, ClassTransform.transformingMethodBodies(
                DefaultSchedulerTransformer::isTarget, new CodeTransform() {
                    @Override
                    public void atStart(CodeBuilder cb) {
                        Label jdk = cb.newLabel();
                        cb.getstatic(CD_THREAD_BUILDERS, ThreadBuildersTransformer.FIELD, CD_EXECUTOR)
                          .dup()
                          .ifnull(jdk)
                          .areturn()
                          .labelBinding(jdk)
                          .pop();
                    }

                    @Override
                    public void accept(CodeBuilder cb, CodeElement element) {
                        cb.with(element);
                    }
                }));
    }

    private static boolean isTarget(MethodModel m) {
        return m.methodName().equalsString(METHOD) && m.methodType().equalsString(DESCRIPTOR);
    }
}
