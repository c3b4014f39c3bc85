package dev.shuttle.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Runs {@link Probe} in a JVM without {@code --add-opens}, where Shuttle must explain what is missing. */
class MissingOpensTest {

    /** Prints what each entry point throws, one line each. */
    public static final class Probe {
        public static void main(String[] args) {
            try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(1).build()) {
                report(() -> shuttle.ofVirtual());
                report(() -> shuttle.threadFactory());
                report(() -> shuttle.newVirtualThreadPerTaskExecutor());
            }
        }

        private static void report(Runnable call) {
            try {
                call.run();
                System.out.println("no exception");
            } catch (RuntimeException e) {
                System.out.println(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }
    }

    @Test
    void everyEntryPointNamesTheFlag() throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Probe.class.getName())
                .redirectErrorStream(true)
                .start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "probe JVM hung");
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(l -> !l.startsWith("WARNING"))
                .toList();
        assertEquals(0, p.exitValue(), String.join("\n", lines));
        assertEquals(3, lines.size(), String.join("\n", lines));
        for (String line : lines) {
            assertTrue(line.startsWith("UnsupportedOperationException: "), line);
            assertTrue(line.contains("--add-opens java.base/java.lang=ALL-UNNAMED"), line);
        }
    }
}
