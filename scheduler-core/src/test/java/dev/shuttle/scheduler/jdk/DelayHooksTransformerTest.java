package dev.shuttle.scheduler.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JDK-default measuring mode's rewrite of {@code VirtualThread}, on the running JDK's own class file: a hook
 * before each of the five hand-off calls and one at the start of {@code runContinuation}, and nothing else: with
 * the hooks taken out, every method's instructions are the JDK's. What the hooks record is tested end to end under
 * the agent ({@code ShuttleAgentIT}).
 */
class DelayHooksTransformerTest {
    /** getstatic, dup, ifnull, aload, getfield, getstatic, if_acmpne, aload, iconst, invokeinterface, goto, pop. */
    static final int HOOK_LENGTH = 12;

    @Test
    void hooksEveryHandOffAndTheStartAndChangesNothingElse() throws Exception {
        byte[] original = JdkClassFiles.of(DelayHooksTransformer.INTERNAL_NAME);
        byte[] rewritten = DelayHooksTransformer.rewrite(original);
        ClassModel before = ClassFile.of().parse(original);
        ClassModel after = ClassFile.of().parse(rewritten);
        assertEquals(before.fields().size(), after.fields().size());
        assertEquals(before.methods().size(), after.methods().size());
        int handOffHooks = 0;
        int startHooks = 0;
        for (MethodModel m : after.methods()) {
            if (m.code().isEmpty()) {
                continue;
            }
            List<Instruction> code = instructions(m);
            List<Instruction> jdk = new ArrayList<>();
            for (int i = 0; i < code.size(); i++) {
                if (isHookStart(code.get(i))) {
                    int op = ((java.lang.classfile.instruction.ConstantInstruction) code.get(i + 8)).constantValue()
                            .hashCode();
                    if (op == DelayHooksTransformer.STARTING) {
                        assertEquals(0, i, "the start hook must open runContinuation");
                        assertTrue(m.methodName().equalsString("runContinuation"));
                        startHooks++;
                    } else {
                        Instruction next = code.get(i + HOOK_LENGTH);
                        assertTrue(next instanceof InvokeInstruction call && (call.name().equalsString("execute")
                                || call.name().equalsString("lazySubmit")
                                || call.name().equalsString("externalSubmit")), "hook before " + next);
                        handOffHooks++;
                    }
                    assertEquals(Opcode.POP, code.get(i + HOOK_LENGTH - 1).opcode());
                    i += HOOK_LENGTH - 1;
                } else {
                    jdk.add(code.get(i));
                }
            }
            MethodModel original1 = before.methods().stream().filter(o -> o.methodName().equals(m.methodName())
                    && o.methodType().equals(m.methodType())).findFirst().orElseThrow();
            assertEquals(opcodes(instructions(original1)), opcodes(jdk), "the JDK's code of " + m.methodName());
        }
        assertEquals(DelayHooksTransformer.EXPECTED_HAND_OFFS, handOffHooks);
        assertEquals(1, startHooks);
        assertTrue(ClassFile.of().verify(rewritten).isEmpty(), () -> "does not verify: "
                + ClassFile.of().verify(rewritten));
    }

    private static boolean isHookStart(Instruction i) {
        return i instanceof FieldInstruction f && f.opcode() == Opcode.GETSTATIC
                && f.name().equalsString(ThreadBuildersTransformer.DELAYS_FIELD);
    }

    private static List<Instruction> instructions(MethodModel m) {
        return m.code().orElseThrow().elementStream().filter(e -> e instanceof Instruction)
                .map(e -> (Instruction) e).toList();
    }

    private static List<Opcode> opcodes(List<Instruction> code) {
        return code.stream().map(Instruction::opcode).toList();
    }
}
