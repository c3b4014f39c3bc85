package dev.shuttle.scheduler.jdk;

import static java.lang.constant.ConstantDescs.CD_Object;
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
import java.util.function.Predicate;

/**
 * Rewrites {@code sun.nio.ch.Poller$Pollers} on its first load so that Shuttle, not the JDK's poller threads, drives
 * the JDK's pollers (the scheduler's {@code Netpoll}). In JDK 25 {@code Poller}'s static initializer builds one {@code Pollers} and
 * calls its {@code start()}, which in the default mode starts the {@code MasterPoller} platform thread and one
 * sub-poller virtual thread per read and write poller. The rewrite adds one field and prepends two lines:
 *
 * <pre>{@code
 * static volatile Predicate shuttle$driver;   // set by the agent, reflectively, before Poller is initialised
 *
 * void start() {
 *     Predicate d = shuttle$driver;
 *     if (d != null && d.test(this)) return;   // Shuttle adopted the pollers: start no thread
 *     ... unchanged JDK code ...
 * }
 * }</pre>
 *
 * The driver answers false when it does not adopt them (another poller mode, another platform), and the JDK's threads
 * start as before. As for {@link ThreadBuildersTransformer}, the field is a {@code java.base} type because code in
 * {@code java.base} cannot name Shuttle's classes, and adding a field is allowed only on the class's first load:
 * the scheduler's {@code NetpollInstall} loads the class (without initialising {@code Poller}) under this transformer and fails
 * clearly if something loaded it before.
 */
public final class PollersTransformer extends JdkClassRewrite.OfClass {
    static final String INTERNAL_NAME = "sun/nio/ch/Poller$Pollers";
    public static final String CLASS_NAME = "sun.nio.ch.Poller$Pollers";
    public static final String FIELD = "shuttle$driver";
    static final String METHOD = "start";

    private static final ClassDesc CD_POLLERS = ClassDesc.ofInternalName(INTERNAL_NAME);
    private static final ClassDesc CD_PREDICATE = ClassDesc.of(Predicate.class.getName());
    private static final MethodTypeDesc START = MethodTypeDesc.ofDescriptor("()V");

    public PollersTransformer() {
        super(INTERNAL_NAME, PollersTransformer::rewrite);
    }

    @Override
    boolean appliesTo(String internalName, boolean redefining) {
        return !redefining && super.appliesTo(internalName, redefining);
    }

    /** The rewritten class file; throws if the JDK's class is not the one this rewrite was written against. */
    static byte[] rewrite(byte[] classfile) {
        ClassFile cf = ClassFile.of();
        ClassModel model = cf.parse(classfile);
        boolean found = model.methods().stream().anyMatch(m -> isTarget(m) && !m.flags().has(AccessFlag.STATIC)
                && m.code().isPresent());
        if (!found) {
            throw new IllegalStateException(CLASS_NAME + " has no instance method " + METHOD + START.descriptorString());
        }
        ClassTransform prepend = ClassTransform.transformingMethodBodies(PollersTransformer::isTarget,
                new Prepend(PollersTransformer::callDriver));
        return cf.transformClass(model, prepend.andThen(addStaticFields(model, CLASS_NAME, Map.of(FIELD, CD_PREDICATE))));
    }

    private static boolean isTarget(MethodModel m) {
        return m.methodName().equalsString(METHOD) && m.methodType().equalsString(START.descriptorString());
    }

    /** The {@code if} at the start of {@code start()}. */
    private static void callDriver(CodeBuilder cb) {
        Label jdkCode = cb.newLabel();
        // The field is read twice rather than kept on the stack across the branch: it is set once, before the class
        // is initialised, and never cleared.
        cb.getstatic(CD_POLLERS, FIELD, CD_PREDICATE)
          .ifnull(jdkCode)
          .getstatic(CD_POLLERS, FIELD, CD_PREDICATE)
          .aload(0)
          .invokeinterface(CD_PREDICATE, "test", MethodTypeDesc.of(CD_boolean, CD_Object))
          .ifeq(jdkCode)
          .return_()
          .labelBinding(jdkCode);
    }
}
