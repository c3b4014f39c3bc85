package dev.shuttle.scheduler.jdk;

import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.MethodModel;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;

/**
 * This JDK's own class files, read from the run-time image, and the members of a parsed class the rewrite tests
 * look at: each rewrite is checked against the very bytes it will meet under the agent.
 */
final class JdkClassFiles {
    private JdkClassFiles() {
    }

    /** The bytes of a {@code java.base} class, such as {@code sun/nio/ch/Poller$Pollers}. */
    static byte[] of(String internalName) throws Exception {
        return Files.readAllBytes(FileSystems.getFileSystem(URI.create("jrt:/"))
                .getPath("modules", "java.base", internalName + ".class"));
    }

    static FieldModel field(ClassModel model, String name) {
        return model.fields().stream().filter(f -> f.fieldName().equalsString(name)).findFirst().orElseThrow();
    }

    static MethodModel method(ClassModel model, String name) {
        return model.methods().stream().filter(m -> m.methodName().equalsString(name)).findFirst().orElseThrow();
    }
}
