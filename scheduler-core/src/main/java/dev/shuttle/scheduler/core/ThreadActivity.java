package dev.shuttle.scheduler.core;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How much of the time a carrier thread was on a CPU or waiting for one: the {@link Monitor}'s test for "blocked in
 * the kernel". A thread that was neither running nor runnable for most of an interval was asleep in a system call
 * (or stopped), so another thread can use its processor; one that waited in the run queue only lacks a core, and
 * another thread would not help.
 *
 * <p>On Linux it reads {@code /proc/self/task/<tid>/schedstat}: CPU time and run-queue wait, in nanoseconds. The
 * thread finds its own task directory through {@code /proc/thread-self} when it starts, since Java does not expose
 * the kernel's thread id. Elsewhere it falls back to the thread's CPU time alone, which cannot tell a thread waiting
 * for a core from a blocked one: a wrong guess costs a spare thread, never correctness ({@link Processor}).
 *
 * <p>Those counters alone are not enough: the kernel adds to them only at its scheduler tick (1 to 10 ms) and when
 * the thread gets a CPU, so between two looks closer than a tick, or while the thread waits long in a busy run queue,
 * a carrier spinning on a CPU shows no progress. {@link #isKnownRunnable} reads the thread's state from
 * {@code /proc/self/task/<tid>/stat}, which is exact at the moment of the look: {@code R} for running or runnable.
 */
final class ThreadActivity {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Path schedstat;
    private final Path stat;
    private final long threadId;

    private ThreadActivity(Path schedstat, Path stat, long threadId) {
        this.schedstat = schedstat;
        this.stat = stat;
        this.threadId = threadId;
    }

    /** The activity source of the calling thread. */
    static ThreadActivity ofCurrentThread() {
        Path path = null;
        Path state = null;
        try {
            Path self = Path.of("/proc/thread-self");
            if (Files.exists(self)) {
                Path task = Path.of("/proc/self/task").resolve(Files.readSymbolicLink(self).getFileName());
                if (Files.isReadable(task.resolve("schedstat"))) {
                    path = task.resolve("schedstat");
                }
                if (Files.isReadable(task.resolve("stat"))) {
                    state = task.resolve("stat");
                }
            }
        } catch (IOException | RuntimeException e) {
            path = null;
            state = null;
        }
        return new ThreadActivity(path, state, Thread.currentThread().threadId());
    }

    /**
     * Nanoseconds the thread has so far spent on a CPU or runnable waiting for one (CPU time alone where schedstat is
     * missing), or -1 if unknown (the thread ended).
     */
    long activeNanos() {
        if (schedstat != null) {
            try {
                String line = new String(Files.readAllBytes(schedstat), StandardCharsets.US_ASCII).trim();
                int a = line.indexOf(' ');
                int b = line.indexOf(' ', a + 1);
                return Long.parseLong(line, 0, a, 10) + Long.parseLong(line, a + 1, b < 0 ? line.length() : b, 10);
            } catch (IOException | RuntimeException e) {
                return -1;
            }
        }
        return THREADS.getThreadCpuTime(threadId);
    }

    /** Whether the thread is running or waiting for a CPU at this moment; false if it is not, or if unknown. */
    boolean isKnownRunnable() {
        if (stat == null) {
            return false;
        }
        try {
            String line = new String(Files.readAllBytes(stat), StandardCharsets.US_ASCII);
            // "tid (name) S ...": the name may hold spaces and parentheses, the state follows the last ')'.
            int at = line.lastIndexOf(')') + 2;
            return at > 1 && at < line.length() && line.charAt(at) == 'R';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
