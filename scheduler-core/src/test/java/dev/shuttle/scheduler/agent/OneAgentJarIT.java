package dev.shuttle.scheduler.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one agent jar beside a shaded application that carries its own, different JCTools version: the README's
 * command, {@code java -javaagent:<agent jar> -Djdk.virtualThreadScheduler.implClass=... -jar app.jar}, run with the
 * agent jar in the application jar's directory and in {@code lib/}. The application ({@link FatJarApp}) must get its
 * own JCTools classes, they must work, and its virtual threads must run on Shuttle's carriers, whose queues are the
 * agent's relocated JCTools.
 *
 * <p>The failsafe configuration passes the agent jar ({@code shuttle.agent.jar}), the other JCTools jar that
 * maven-dependency-plugin copied for this test ({@code shuttle.it.jctools.jar}) and the version the agent bundles
 * ({@code shuttle.jctools.version}).
 */
class OneAgentJarIT {
    @TempDir
    static Path dir;
    static Path agentJar;
    static String appJctoolsVersion;

    @BeforeAll
    static void packApplication() throws Exception {
        Path agent = Path.of(property("shuttle.agent.jar"));
        Path jctools = Path.of(property("shuttle.it.jctools.jar"));
        appJctoolsVersion = jctoolsVersion(jctools);
        assertNotEquals(property("shuttle.jctools.version"), appJctoolsVersion,
                "the application must carry a JCTools version other than the agent's");
        agentJar = Files.copy(agent, dir.resolve(agent.getFileName()));
        Files.createDirectories(dir.resolve("lib"));
        Files.copy(agent, dir.resolve("lib").resolve(agent.getFileName()));

        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FatJarApp.class.getName());
        String appClass = FatJarApp.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(dir.resolve("app.jar")), manifest);
             InputStream classBytes = FatJarApp.class.getClassLoader().getResourceAsStream(appClass);
             JarFile jf = new JarFile(jctools.toFile())) {
            copy(out, appClass, classBytes);
            for (Enumeration<JarEntry> entries = jf.entries(); entries.hasMoreElements(); ) {
                JarEntry entry = entries.nextElement();
                if (!entry.isDirectory() && !entry.getName().equals("META-INF/MANIFEST.MF")) {
                    try (InputStream in = jf.getInputStream(entry)) {
                        copy(out, entry.getName(), in);
                    }
                }
            }
        }
    }

    @Test
    void agentInTheApplicationJarsDirectory() throws Exception {
        check(run(agentJar.getFileName().toString()));
    }

    @Test
    void agentInLib() throws Exception {
        check(run("lib/" + agentJar.getFileName()));
    }

    private static void check(List<String> lines) {
        String all = String.join("\n", lines);
        assertTrue(lines.contains("jctools.version=" + appJctoolsVersion), all);
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("jctools.source=") && l.endsWith("/app.jar")),
                "the application's JCTools classes come from its own jar:\n" + all);
        assertTrue(lines.contains("queue.sum.ok=true"), all);
        List<String> threads = lines.stream().filter(l -> l.startsWith("virtual.thread=")).toList();
        assertEquals(4, threads.size(), all);
        for (String t : threads) {
            assertTrue(t.contains("@shuttle-carrier-"), "not on a Shuttle carrier: " + t + "\n" + all);
        }
    }

    /** Runs the README's command in {@link #dir}; returns standard output, failing on anything on standard error. */
    private static List<String> run(String agentPath) throws IOException, InterruptedException {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-javaagent:" + agentPath,
                "-Djdk.virtualThreadScheduler.implClass=dev.shuttle.scheduler.ShuttleScheduler",
                "-jar", "app.jar");
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(50, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail("child JVM did not finish in 50 s: " + command);
        }
        String stdout = Files.readString(out);
        String stderr = Files.readString(err);
        String report = command + "\nexit " + p.exitValue() + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        assertEquals(0, p.exitValue(), report);
        // Nothing at all, the JDK's sun.misc.Unsafe warning included: the agent's JCTools queues are VarHandle ones.
        assertTrue(stderr.isEmpty(), "unexpected standard error:\n" + report);
        return stdout.lines().toList();
    }

    private static void copy(JarOutputStream out, String name, InputStream in) throws IOException {
        out.putNextEntry(new JarEntry(name));
        in.transferTo(out);
        out.closeEntry();
    }

    private static String jctoolsVersion(Path jar) throws IOException {
        try (JarFile jf = new JarFile(jar.toFile())) {
            return jf.getManifest().getMainAttributes().getValue("Bundle-Version");
        }
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        assertTrue(value != null && !value.isBlank(), "system property " + name + " must be set (failsafe config)");
        return value;
    }
}
