package dev.shuttle.scheduler.jdk;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeTransform;
import java.lang.constant.ClassDesc;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.function.Consumer;
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

    /**
     * Adds a {@code static volatile} field of each name and type in {@code fields} to {@code model}, the class
     * {@code className}, through which the agent hands code in {@code java.base} an object of a {@code java.base} type
     * (Shuttle's classes are not visible there). Allowed only on the class's first load; throws if a field exists.
     */
    static ClassTransform addStaticFields(ClassModel model, String className, Map<String, ClassDesc> fields) {
        for (String name : fields.keySet()) {
            if (model.fields().stream().anyMatch(f -> f.fieldName().equalsString(name))) {
                throw new IllegalStateException(className + " already has a field " + name);
            }
        }
        return ClassTransform.endHandler(cb -> fields.forEach((name, type) ->
                cb.withField(name, type, ClassFile.ACC_STATIC | ClassFile.ACC_VOLATILE)));
    }

    /** A method body transform that emits {@code prologue} at the start; the JDK's code follows unchanged. */
    record Prepend(Consumer<CodeBuilder> prologue) implements CodeTransform {
        @Override
        public void atStart(CodeBuilder cb) {
            prologue.accept(cb);
        }

        @Override
        public void accept(CodeBuilder cb, CodeElement element) {
            cb.with(element);
        }
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
