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
 * The context switches of this process's threads, summed by the role a thread plays for virtual threads, from Linux's
 * {@code /proc/self/task/<tid>/status} ({@code voluntary_ctxt_switches}: the thread blocked or parked;
 * {@code nonvoluntary_ctxt_switches}: it was switched out while still runnable, preempted or giving way in
 * {@code sched_yield}). A count answers "did the carrier take the core from the thread that feeds it?" without the
 * noise of a time. Threads are told apart by their kernel name ({@code comm}, the Java name cut to 15 bytes). A thread
 * that ends between two readings takes its counts with it, so a difference can undercount a role whose threads come
 * and go; carriers and the JDK's poller and dispatcher threads live as long as the run.
 */
public final class ThreadSwitches {
    private static final Path TASKS = Path.of("/proc/self/task");

    /** What a thread is to the virtual threads it serves. */
    public enum Role {
        /** Shuttle's carriers, or the JDK default scheduler's workers. */
        CARRIER,
        /** The JDK's master poller (or read/write poller threads in the platform-thread poller mode). */
        POLLER,
        /** The JDK {@code HttpServer}'s dispatcher thread. */
        DISPATCHER,
        /** Every other thread: main, JIT, GC, the JDK's own housekeeping, Shuttle's monitor. */
        OTHER;

        /** The role of the thread whose kernel name is {@code comm}. */
        static Role of(String comm) {
            if (comm.startsWith("shuttle-carrier") || comm.startsWith("ForkJoinPool-")) {
                return CARRIER;
            }
            if (comm.contains("Poller")) {
                return POLLER;
            }
            if (comm.startsWith("HTTP-Dispatcher")) {
                return DISPATCHER;
            }
            return OTHER;
        }
    }

    /** Switches of one role: voluntary (blocked) and involuntary (switched out while runnable). */
    public record Counts(long voluntary, long involuntary) {
        Counts plus(long v, long i) {
            return new Counts(voluntary + v, involuntary + i);
        }

        public Counts since(Counts earlier) {
            return new Counts(voluntary - earlier.voluntary, involuntary - earlier.involuntary);
        }
    }

    private final Map<Role, Counts> byRole;

    private ThreadSwitches(Map<Role, Counts> byRole) {
        this.byRole = byRole;
    }

    /** Whether this system has {@code /proc/self/task} to read. */
    public static boolean available() {
        return Files.isDirectory(TASKS);
    }

    /**
     * Reads every live thread of this process.
     *
     * @throws IllegalStateException if {@code /proc/self/task} cannot be read (not Linux)
     */
    public static ThreadSwitches read() {
        Map<Role, Counts> sums = new EnumMap<>(Role.class);
        for (Role r : Role.values()) {
            sums.put(r, new Counts(0, 0));
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    String comm = Files.readString(task.resolve("comm"), StandardCharsets.US_ASCII).strip();
                    long[] vi = switchesOf(Files.readString(task.resolve("status"), StandardCharsets.US_ASCII));
                    Role role = Role.of(comm);
                    sums.put(role, sums.get(role).plus(vi[0], vi[1]));
                } catch (NoSuchFileException ended) {
                    // the thread ended while we listed the others; its counts went with it
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + TASKS + " (context switches are read on Linux only)", e);
        }
        return new ThreadSwitches(sums);
    }

    /** The two counts of one {@code status} file. */
    static long[] switchesOf(String status) {
        long[] vi = {-1, -1};
        for (String line : status.split("\n")) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                vi[0] = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                vi[1] = Long.parseLong(line.substring(line.indexOf(':') + 1).strip());
            }
        }
        if (vi[0] < 0 || vi[1] < 0) {
            throw new IllegalStateException("no context switch counts in a task's status");
        }
        return vi;
    }

    public Counts of(Role role) {
        return byRole.get(role);
    }

    /** The growth of each role's counts since {@code earlier}. */
    public ThreadSwitches since(ThreadSwitches earlier) {
        Map<Role, Counts> d = new EnumMap<>(Role.class);
        for (Role r : Role.values()) {
            d.put(r, byRole.get(r).since(earlier.byRole.get(r)));
        }
        return new ThreadSwitches(d);
    }
}
