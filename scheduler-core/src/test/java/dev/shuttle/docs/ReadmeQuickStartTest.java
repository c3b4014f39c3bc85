package dev.shuttle.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java quick start, as written: extracted from the README, compiled against Shuttle's classes and its
 * dependencies (this test's class path), and run in a JVM of its own with the flag the README gives for the explicit
 * API. A snippet that stops compiling or running, or a JVM that warns about {@code sun.misc.Unsafe}, fails the build;
 * so does an examples/quickstart that is not the same program.
 */
class ReadmeQuickStartTest {
    private static final String SECTION = "Quick start";
    private static final Pattern PUBLIC_CLASS = Pattern.compile("public\\s+(?:final\\s+)?class\\s+(\\w+)");

    /** The consumer project that {@code ./shuttle test} builds against the release directory and runs. */
    private static final String EXAMPLE = "examples/quickstart/src/main/java/com/example/quickstart/QuickStart.java";
    private static final String EXAMPLE_PACKAGE = "package com.example.quickstart;\n\n";

    private static String readmeSource() {
        List<Markdown.CodeBlock> java = Markdown.codeBlocksUnder(Docs.read(Docs.root().resolve("README.md")), SECTION)
                .stream().filter(b -> b.info().equals("java")).toList();
        assertEquals(1, java.size(), "the README's \"" + SECTION + "\" section should hold exactly one java block");
        return java.get(0).text();
    }

    /**
     * examples/quickstart is the README's program in a package, so what the consumer test compiles and runs on the
     * class path, the module path and with the agent is what a reader copies.
     */
    @Test
    void theQuickstartProjectIsTheReadmesProgram() {
        String example = Docs.read(Docs.root().resolve(EXAMPLE));
        String fromReadme = EXAMPLE_PACKAGE + readmeSource();
        assertEquals(fromReadme.strip(), example.strip(), EXAMPLE + " should be the README's quick start with only \""
                + EXAMPLE_PACKAGE.strip() + "\" added; regenerate it with: { printf '"
                + EXAMPLE_PACKAGE.replace("\n", "\\n") + "'; awk '/^```java/{f=1;next} /^```/{if(f)exit} f' README.md; } > "
                + EXAMPLE);
    }

    @Test
    void theReadmesJavaExampleCompilesAndRunsAsWritten(@TempDir Path dir) throws Exception {
        String source = readmeSource();
        Matcher name = PUBLIC_CLASS.matcher(source);
        assertTrue(name.find(), "the quick start should be a complete public class:\n" + source);
        String className = name.group(1);

        Path file = dir.resolve(className + ".java");
        Files.writeString(file, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        boolean compiled;
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            compiled = javac.getTask(null, files, diagnostics,
                    List.of("-d", dir.toString(), "-cp", System.getProperty("java.class.path")),
                    null, files.getJavaFileObjects(file)).call();
        }
        assertTrue(compiled, "the README's quick start does not compile:\n" + diagnostics.getDiagnostics());

        String javaExe = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(javaExe, "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", dir + File.pathSeparator + System.getProperty("java.class.path"), className)
                .redirectErrorStream(true)
                .start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(ended, "the quick start did not end within 60 s:\n" + output);
        assertEquals(0, p.exitValue(), "the quick start failed:\n" + output);
        assertTrue(output.contains("@shuttle-carrier-"), "no virtual thread ran on a Shuttle carrier:\n" + output);
        assertFalse(output.contains("sun.misc.Unsafe"), "the JVM warned about sun.misc.Unsafe:\n" + output);
    }
}
