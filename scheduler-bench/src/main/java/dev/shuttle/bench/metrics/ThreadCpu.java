package dev.shuttle.bench.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/**
 * The CPU time of this process's threads summed by {@link ThreadSwitches.Role}, in nanoseconds, from Linux's
 * {@code /proc/self/task/<tid>/schedstat} (its first field: time on a CPU, kept by the scheduler to the nanosecond,
 * where {@code stat}'s user and system times count 10 ms ticks). Process CPU ({@link ProcessCpu}) mixes the JIT's
 * compilations and the collector's work into what a scheduler costs; the carriers' share does not. As with
 * {@link ThreadSwitches}, a thread that ends between two readings takes its time with it, so only roles whose threads
 * live as long as the run (the carriers) subtract exactly.
 */
public final class ThreadCpu {
    private static final Path TASKS = Path.of("/proc/self/task");

    private ThreadCpu() {
    }

    /**
     * The CPU time of every live thread of this process, summed by role.
     *
     * @throws IllegalStateException if {@code /proc/self/task} cannot be read (not Linux)
     */
    public static Map<ThreadSwitches.Role, Long> read() {
        Map<ThreadSwitches.Role, Long> sums = new EnumMap<>(ThreadSwitches.Role.class);
        for (ThreadSwitches.Role r : ThreadSwitches.Role.values()) {
            sums.put(r, 0L);
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).strip();
                    long nanos = onCpuNanos(Files.readString(task.resolve("schedstat"), StandardCharsets.US_ASCII));
                    sums.merge(ThreadSwitches.Role.of(comm), nanos, Long::sum);
                } catch (NoSuchFileException ended) {
                    // the thread ended while we listed the others; its time went with it
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + TASKS + " (thread CPU is read on Linux only)", e);
        }
        return sums;
    }

    /** The first field of a {@code schedstat} line: nanoseconds on a CPU. */
    static long onCpuNanos(String schedstat) {
        String[] fields = schedstat.strip().split(" +");
        try {
            return Long.parseLong(fields[0]);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("not a schedstat line: " + schedstat, e);
        }
    }
}
