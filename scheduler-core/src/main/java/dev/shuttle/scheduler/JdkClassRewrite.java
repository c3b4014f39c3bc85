package dev.shuttle.scheduler;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;

/**
 * What Shuttle's rewrites of JDK classes share: they touch only classes of the boot loader, and they never throw,
 * since the JVM would silently keep the original bytes; the failure is kept for the agent to report.
 */
abstract class JdkClassRewrite implements ClassFileTransformer {
    private volatile Throwable failure;

    /** Whether this rewrite applies to {@code internalName}; {@code redefining} is true on a retransformation. */
    abstract boolean appliesTo(String internalName, boolean redefining);

    /** The rewritten class file; throws if the JDK's code is not what the rewrite was written against. */
    abstract byte[] rewrite(String internalName, byte[] classfile);

    @Override
    public final byte[] transform(Module module, ClassLoader loader, String className, Class<?> classBeingRedefined,
                                  ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        if (loader != null || className == null || !appliesTo(className, classBeingRedefined != null)) {
            return null;
        }
        try {
            return rewrite(className, classfileBuffer);
        } catch (Throwable e) {
            failure = e;
            return null;
        }
    }

    /**
     * Retransforms {@code className}, a class of the boot loader already loaded, with {@code rewrite}. Returns null
     * when done, else why not, starting with {@code what} (the change, as "cannot rewrite X").
     */
    static String retransform(Instrumentation inst, JdkClassRewrite rewrite, String className, String what) {
        inst.addTransformer(rewrite, true);
        try {
            Class<?> loaded = Class.forName(className, false, null);
            if (!inst.isModifiableClass(loaded)) {
                return className + " cannot be retransformed in this JVM";
            }
            inst.retransformClasses(loaded);
            Throwable why = rewrite.failure();
            return why == null ? null : what + ": " + why;
        } catch (ClassNotFoundException | UnmodifiableClassException | RuntimeException e) {
            return what + ": " + e;
        } finally {
            inst.removeTransformer(rewrite);
        }
    }

    /** Why the rewrite failed, or null. */
    final Throwable failure() {
        return failure;
    }
}
