package dev.shuttle.scheduler.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.FieldModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.reflect.AccessFlag;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rewrite of this JDK's own {@code java.lang.ThreadBuilders}, checked without an agent. */
class ThreadBuildersTransformerTest {
    static byte[] jdkThreadBuilders() throws Exception {
        return JdkClassFiles.of("java/lang/ThreadBuilders");
    }

    @Test
    void addsTheFieldAndPrependsTheDefaultSchedulerCheck() throws Exception {
        byte[] original = jdkThreadBuilders();
        byte[] rewritten = ThreadBuildersTransformer.rewrite(original);
        ClassModel before = ClassFile.of().parse(original);
        ClassModel after = ClassFile.of().parse(rewritten);

        FieldModel field = JdkClassFiles.field(after, ThreadBuildersTransformer.FIELD);
        assertEquals("Ljava/util/concurrent/Executor;", field.fieldType().stringValue());
        // Package-private: VirtualThread.defaultScheduler() reads it (DefaultSchedulerTransformer).
        assertTrue(field.flags().has(AccessFlag.STATIC) && field.flags().has(AccessFlag.VOLATILE)
                && !field.flags().has(AccessFlag.PRIVATE) && !field.flags().has(AccessFlag.PUBLIC));
        assertEquals(before.fields().size() + 2, after.fields().size());
        assertTrue(after.fields().stream().anyMatch(f -> f.fieldName().equalsString(
                ThreadBuildersTransformer.DELAYS_FIELD) && f.fieldType().stringValue().equals("Ljava/util/function/ObjIntConsumer;")));
        assertEquals(before.methods().size(), after.methods().size());

        List<String> prefix = instructions(method(after)).subList(0, 7);
        assertEquals(List.of("ALOAD_0", "IFNONNULL", "INVOKESTATIC Thread.currentThread", "INVOKEVIRTUAL Thread.isVirtual",
                "IFNE", "GETSTATIC ThreadBuilders." + ThreadBuildersTransformer.FIELD, "ASTORE_0"), prefix);
        List<String> rest = instructions(method(after));
        assertEquals(instructions(method(before)), rest.subList(7, rest.size()), "the JDK's code follows unchanged");

        assertEquals(List.of(), ClassFile.of().verify(rewritten), "the rewritten class verifies");
    }

    @Test
    void refusesAClassWithoutTheMethod() throws Exception {
        byte[] other = ClassFile.of().build(java.lang.constant.ClassDesc.of("x.Y"), cb -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ThreadBuildersTransformer.rewrite(other));
        assertTrue(e.getMessage().contains("has no method newVirtualThread"), e.getMessage());
    }

    @Test
    void ignoresEveryOtherClassAndRecordsFailures() throws Exception {
        ThreadBuildersTransformer t = new ThreadBuildersTransformer();
        assertNull(t.transform(null, null, "java/lang/Thread", null, null, new byte[0]));
        assertNull(t.transform(null, ClassLoader.getSystemClassLoader(), "java/lang/ThreadBuilders", null, null,
                jdkThreadBuilders()), "only the boot loader's ThreadBuilders");
        assertNull(t.failure());
        assertNull(t.transform(null, null, "java/lang/ThreadBuilders", null, null, new byte[] {1, 2, 3}));
        assertTrue(t.failure() != null, "a failure is kept for the agent to report");
    }

    private static MethodModel method(ClassModel model) {
        return JdkClassFiles.method(model, "newVirtualThread");
    }

    private static List<String> instructions(MethodModel m) {
        return m.code().orElseThrow().elementStream().filter(e -> e instanceof Instruction)
                .map(ThreadBuildersTransformerTest::describe).toList();
    }

    private static String describe(CodeElement e) {
        Instruction i = (Instruction) e;
        String s = i.opcode().name();
        if (i instanceof java.lang.classfile.instruction.InvokeInstruction inv) {
            s += " " + inv.owner().asSymbol().displayName() + "." + inv.name().stringValue();
        } else if (i instanceof java.lang.classfile.instruction.FieldInstruction f) {
            s += " " + f.owner().asSymbol().displayName() + "." + f.name().stringValue();
        }
        return s;
    }
}
