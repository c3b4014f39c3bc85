package dev.shuttle.scheduler.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.reflect.AccessFlag;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rewrite of this JDK's own {@code sun.nio.ch.Poller$Pollers}, checked without an agent. */
class PollersTransformerTest {
    @Test
    void addsTheDriverAndAsksItBeforeStartingAnyThread() throws Exception {
        byte[] original = JdkClassFiles.of(PollersTransformer.INTERNAL_NAME);
        byte[] rewritten = PollersTransformer.rewrite(original);
        ClassModel before = ClassFile.of().parse(original);
        ClassModel after = ClassFile.of().parse(rewritten);

        FieldModel field = JdkClassFiles.field(after, PollersTransformer.FIELD);
        assertEquals("Ljava/util/function/Predicate;", field.fieldType().stringValue());
        assertTrue(field.flags().has(AccessFlag.STATIC) && field.flags().has(AccessFlag.VOLATILE));
        assertEquals(before.fields().size() + 1, after.fields().size());

        List<String> prefix = instructions(start(after)).subList(0, 7);
        assertEquals(List.of("GETSTATIC", "IFNULL", "GETSTATIC", "ALOAD_0", "INVOKEINTERFACE", "IFEQ", "RETURN"), prefix);
        List<String> rest = instructions(start(after));
        assertEquals(instructions(start(before)), rest.subList(7, rest.size()), "the JDK's code follows unchanged");
        assertEquals(List.of(), ClassFile.of().verify(rewritten), "the rewritten class verifies");
    }

    @Test
    void refusesAClassWithoutStart() {
        byte[] other = ClassFile.of().build(java.lang.constant.ClassDesc.of("x.Y"), cb -> { });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> PollersTransformer.rewrite(other));
        assertTrue(e.getMessage().contains("has no instance method start"), e.getMessage());
    }

    @Test
    void onlyOnFirstLoad() {
        PollersTransformer t = new PollersTransformer();
        assertTrue(t.appliesTo(PollersTransformer.INTERNAL_NAME, false));
        assertTrue(!t.appliesTo(PollersTransformer.INTERNAL_NAME, true), "a retransformation cannot add a field");
        assertTrue(!t.appliesTo("sun/nio/ch/Poller", false));
    }

    private static MethodModel start(ClassModel model) {
        return JdkClassFiles.method(model, "start");
    }

    private static List<String> instructions(MethodModel m) {
        return m.code().orElseThrow().elementStream().filter(e -> e instanceof Instruction)
                .map(e -> ((Instruction) e).opcode().name()).toList();
    }
}
