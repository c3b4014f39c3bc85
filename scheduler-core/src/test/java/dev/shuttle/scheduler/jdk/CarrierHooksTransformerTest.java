package dev.shuttle.scheduler.jdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.Instruction;
import java.lang.classfile.MethodModel;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.ConstantInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.TypeCheckInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * The rewrites of {@code ForkJoinWorkerThread.hasKnownQueuedWork} and {@code Blocker.begin}/{@code end}, on the
 * running JDK's own class files: each method starts with the {@code instanceof IntPredicate} test and the question
 * code, the JDK's code follows unchanged, and the class still verifies. What the hooks do at run time is tested
 * end to end under the agent ({@code ShuttleAgentIT}).
 */
class CarrierHooksTransformerTest {
    static final String INT_PREDICATE = IntPredicate.class.getName().replace('.', '/');

    @Test
    void hasKnownQueuedWorkAsksTheCarrier() throws Exception {
        checkRewrite(CarrierHooksTransformer.FJWT, "hasKnownQueuedWork", "()Z",
                CarrierHooksTransformer.QUEUED_WORK);
    }

    @Test
    void blockerBeginAndEndAskTheCarrier() throws Exception {
        checkRewrite(CarrierHooksTransformer.BLOCKER, "begin", "()Z", CarrierHooksTransformer.BEGIN_BLOCKING);
        checkRewrite(CarrierHooksTransformer.BLOCKER, "end", "(Z)V", CarrierHooksTransformer.END_BLOCKING);
    }

    static void checkRewrite(String owner, String method, String descriptor, int question) throws Exception {
        byte[] original = JdkClassFiles.of(owner);
        byte[] rewritten = new CarrierHooksTransformer().rewrite(owner, original);
        List<Instruction> before = instructions(ClassFile.of().parse(original), method, descriptor);
        List<Instruction> after = instructions(ClassFile.of().parse(rewritten), method, descriptor);

        int prologue = after.size() - before.size();
        assertTrue(prologue > 0, method + " gained no code");
        List<Instruction> added = after.subList(0, prologue);
        assertTrue(added.stream().anyMatch(i -> i instanceof TypeCheckInstruction t && t.opcode() == Opcode.INSTANCEOF
                && t.type().asInternalName().equals(INT_PREDICATE)), method + " lacks instanceof IntPredicate: " + added);
        assertTrue(added.stream().anyMatch(i -> i instanceof InvokeInstruction inv
                && inv.owner().asInternalName().equals(INT_PREDICATE) && inv.name().equalsString("test")),
                method + " does not call IntPredicate.test: " + added);
        assertTrue(added.stream().anyMatch(i -> i instanceof ConstantInstruction c
                && Integer.valueOf(question).equals(c.constantValue())), method + " does not ask " + question);
        assertEquals(opcodes(before), opcodes(after.subList(prologue, after.size())),
                "the JDK's code of " + method + " must follow unchanged");

        List<VerifyError> errors = ClassFile.of().verify(rewritten);
        assertTrue(errors.isEmpty(), owner + " does not verify after the rewrite: " + errors);
    }

    static List<Instruction> instructions(ClassModel cls, String method, String descriptor) {
        MethodModel m = cls.methods().stream().filter(x -> x.methodName().equalsString(method)
                && x.methodType().equalsString(descriptor)).findFirst().orElseThrow();
        CodeModel code = m.code().orElseThrow();
        return code.elementStream().filter(e -> e instanceof Instruction).map(e -> (Instruction) e).toList();
    }

    static List<Opcode> opcodes(List<Instruction> code) {
        return code.stream().map(Instruction::opcode).toList();
    }

    @Test
    void aClassWithoutTheTargetMethodIsRejected() {
        byte[] without = ClassFile.of().build(ClassDesc.ofInternalName(CarrierHooksTransformer.FJWT), cb -> cb
                .withMethodBody("somethingElse", MethodTypeDesc.of(ConstantDescs.CD_boolean),
                        ClassFile.ACC_STATIC, code -> code.iconst_0().ireturn()));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new CarrierHooksTransformer().rewrite(CarrierHooksTransformer.FJWT, without));
        assertEquals("java/util/concurrent/ForkJoinWorkerThread has no static method hasKnownQueuedWork()Z",
                e.getMessage());
    }

    @Test
    void anInstanceMethodOfTheSameNameIsRejected() {
        byte[] instance = ClassFile.of().build(ClassDesc.ofInternalName(CarrierHooksTransformer.BLOCKER), cb -> cb
                .withMethodBody("begin", MethodTypeDesc.of(ConstantDescs.CD_boolean), ClassFile.ACC_PUBLIC,
                        code -> code.iconst_0().ireturn()));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new CarrierHooksTransformer().rewrite(CarrierHooksTransformer.BLOCKER, instance));
        assertEquals("jdk/internal/misc/Blocker has no static method begin()Z", e.getMessage());
        assertTrue(!ClassFile.of().parse(instance).methods().get(0).flags().has(AccessFlag.STATIC));
    }

    @Test
    void otherClassesAreLeftAlone() {
        assertEquals(null, new CarrierHooksTransformer().transform(null, null, "java/lang/String", null, null,
                new byte[0]));
        assertEquals(null, new CarrierHooksTransformer().transform(null, ClassLoader.getSystemClassLoader(),
                CarrierHooksTransformer.FJWT, null, null, new byte[0]));
    }
}
