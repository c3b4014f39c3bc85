package dev.shuttle.scheduler.jdk;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;
import java.util.function.UnaryOperator;

/**
 * What Shuttle's rewrites of JDK classes share: they touch only classes of the boot loader, and they never throw,
 * since the JVM would silently keep the original bytes; the failure is kept for the agent to report. Most rewrite one
 * class with one function ({@link OfClass}); each subclass states only its class, its function and its message.
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
    public final Throwable failure() {
        return failure;
    }

    /** A rewrite of the one class {@code internalName} by a function of its class file alone. */
    abstract static class OfClass extends JdkClassRewrite {
        private final String internalName;
        private final UnaryOperator<byte[]> rewrite;

        OfClass(String internalName, UnaryOperator<byte[]> rewrite) {
            this.internalName = internalName;
            this.rewrite = rewrite;
        }

        @Override
        boolean appliesTo(String internalName, boolean redefining) {
            return this.internalName.equals(internalName);
        }

        @Override
        final byte[] rewrite(String internalName, byte[] classfile) {
            return rewrite.apply(classfile);
        }

        /**
         * Retransforms the class, already loaded by the boot loader. Returns null when done, else why not, starting
         * with {@code what} (the change, as "cannot rewrite X").
         */
        final String retransformLoaded(Instrumentation inst, String what) {
            String className = internalName.replace('/', '.');
            inst.addTransformer(this, true);
            try {
                Class<?> loaded = Class.forName(className, false, null);
                if (!inst.isModifiableClass(loaded)) {
                    return className + " cannot be retransformed in this JVM";
                }
                inst.retransformClasses(loaded);
                Throwable why = failure();
                return why == null ? null : what + ": " + why;
            } catch (ClassNotFoundException | UnmodifiableClassException | RuntimeException e) {
                return what + ": " + e;
            } finally {
                inst.removeTransformer(this);
            }
        }
    }
}
