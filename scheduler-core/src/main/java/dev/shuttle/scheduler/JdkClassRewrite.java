package dev.shuttle.scheduler;

import java.lang.instrument.ClassFileTransformer;
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

    /** Why the rewrite failed, or null. */
    final Throwable failure() {
        return failure;
    }
}
