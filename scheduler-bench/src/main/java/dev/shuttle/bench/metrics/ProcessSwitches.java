package dev.shuttle.bench.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The context switches of another process's threads (a server this process started), thread by thread, from Linux's
 * {@code /proc/<pid>/task/<tid>/status}, read from outside so that reading costs the process nothing. Where
 * {@link ThreadSwitches} sums by role, this keeps each thread apart so that a difference ({@link #since}) counts every
 * thread alive at the later reading from its count at the earlier one, or from 0 if it started in between: a thread
 * that ends in between (HotSpot starts and stops compiler threads as the JIT's queue grows and drains) takes its
 * switches with it instead of making the difference go down.
 */
public final class ProcessSwitches {
    private final Map<Long, ThreadSwitches.Counts> byThread;

    ProcessSwitches(Map<Long, ThreadSwitches.Counts> byThread) {
        this.byThread = byThread;
    }

    /**
     * Reads every live thread of process {@code pid}.
     *
     * @throws IllegalStateException if {@code /proc/<pid>/task} cannot be read (not Linux, or the process ended)
     */
    public static ProcessSwitches of(long pid) {
        Path dir = Path.of("/proc", Long.toString(pid), "task");
        Map<Long, ThreadSwitches.Counts> counts = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(dir)) {
            for (Path task : tasks) {
                try {
                    long[] vi = ThreadSwitches.switchesOf(Files.readString(task.resolve("status"),
                            StandardCharsets.US_ASCII));
                    counts.put(Long.parseLong(task.getFileName().toString()), new ThreadSwitches.Counts(vi[0], vi[1]));
                } catch (NoSuchFileException ended) {
                    // the thread ended while we listed the others; its counts went with it
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + dir + " (context switches are read on Linux only)", e);
        }
        return new ProcessSwitches(counts);
    }

    /**
     * The switches of the threads alive now since {@code earlier}, summed: each from its count then, or from 0 if it
     * started since. A thread's counts only grow, so a count below its earlier one means its id was reused by a new
     * thread, which is then counted from 0 too.
     */
    public ThreadSwitches.Counts since(ProcessSwitches earlier) {
        long voluntary = 0;
        long involuntary = 0;
        for (Map.Entry<Long, ThreadSwitches.Counts> e : byThread.entrySet()) {
            ThreadSwitches.Counts now = e.getValue();
            ThreadSwitches.Counts then = earlier.byThread.get(e.getKey());
            boolean same = then != null && then.voluntary() <= now.voluntary()
                    && then.involuntary() <= now.involuntary();
            voluntary += now.voluntary() - (same ? then.voluntary() : 0);
            involuntary += now.involuntary() - (same ? then.involuntary() : 0);
        }
        return new ThreadSwitches.Counts(voluntary, involuntary);
    }
}
