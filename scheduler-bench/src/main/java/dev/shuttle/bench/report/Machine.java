package dev.shuttle.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A one-line description of the machine for the report: CPU model, processors, memory, OS. */
final class Machine {
    private Machine() {
    }

    static String describe() {
        String cpu = "unknown CPU";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // Not Linux: the model name stays unknown, the rest still describes the machine.
        }
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean();
        return String.format(java.util.Locale.ROOT, "%s, %d processors, %.0f GB, %s %s %s", cpu,
                Runtime.getRuntime().availableProcessors(), os.getTotalMemorySize() / 1e9,
                System.getProperty("os.name"), System.getProperty("os.version"), System.getProperty("os.arch"));
    }
}
