package dev.shuttle.bench;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Gives both schedulers the same Linux timer slack. Shuttle's carriers lower theirs to {@value #NANOS} ns when native
 * access is on; the JDK's workers and its delay-scheduler thread would keep the default 50 µs, the order of many
 * timer gaps measured here. {@code prctl(PR_SET_TIMERSLACK)} is per thread and a new thread starts with its creator's
 * slack, so lowering it on the thread that opens the scheduler, before the first virtual thread exists, covers every
 * thread the JDK then creates for virtual threads: its workers, {@code ForkJoinPool-N-delayScheduler} and the
 * {@code VirtualThread-unparker}s are all created from that thread or from one of its descendants.
 * {@link #requireLowered} checks that this held, reading each thread's {@code /proc/<tid>/timerslack_ns}.
 *
 * <p>On systems other than Linux timer slack does not exist and both methods do nothing.
 */
public final class SchedulerSlack {
    /** The slack both schedulers' threads run with: Shuttle's own choice for its carriers. */
    public static final long NANOS = 1;
    /** Thread names, as the kernel keeps them (15 characters), of the threads that sleep for virtual threads. */
    private static final List<String> SCHEDULER_THREADS = List.of("ForkJoinPool-", "shuttle-carrier",
            "VirtualThread-u");
    private static final int PR_SET_TIMERSLACK = 29;
    private static final boolean LINUX =
            System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");

    private SchedulerSlack() {
    }

    /** What the tables say about slack. */
    public static String describe() {
        return LINUX ? "timer slack " + NANOS + " ns on both schedulers' threads (checked per trial)"
                : "timer slack: not Linux, the OS default on both sides";
    }

    /**
     * Lowers the calling thread's timer slack to {@value #NANOS} ns, so threads it creates from now on start with it.
     *
     * @throws IllegalStateException on Linux when it cannot: a comparison with unequal slack must not run
     */
    public static void lowerCurrentThread() {
        if (!LINUX) {
            return;
        }
        if (!SchedulerSlack.class.getModule().isNativeAccessEnabled()) {
            throw new IllegalStateException("timer slack cannot be set: run with --enable-native-access=ALL-UNNAMED"
                    + " so that both schedulers get the same slack");
        }
        int rc;
        try {
            rc = (int) Prctl.HANDLE.invokeExact(PR_SET_TIMERSLACK, NANOS);
        } catch (Throwable e) {
            throw new IllegalStateException("prctl(PR_SET_TIMERSLACK) failed", e);
        }
        if (rc != 0) {
            throw new IllegalStateException("prctl(PR_SET_TIMERSLACK) returned " + rc);
        }
    }

    /**
     * Fails if any thread of this process that sleeps for virtual threads (a JDK pool worker or delay scheduler, an
     * unparker, a Shuttle carrier) has a timer slack other than {@value #NANOS} ns.
     */
    public static void requireLowered() {
        List<String> wrong = schedulerThreadsWithOtherSlack();
        if (!wrong.isEmpty()) {
            throw new IllegalStateException("scheduler threads whose timer slack is not " + NANOS + " ns, so the"
                    + " comparison would not be like for like: " + wrong);
        }
    }

    /** {@code name (tid): slack} of each scheduler thread whose slack differs from {@value #NANOS} ns. */
    public static List<String> schedulerThreadsWithOtherSlack() {
        List<String> wrong = new ArrayList<>();
        if (!LINUX) {
            return wrong;
        }
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                String tid = task.getFileName().toString();
                String name;
                long slack;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                    slack = Long.parseLong(Files.readString(Path.of("/proc", tid, "timerslack_ns")).strip());
                } catch (IOException e) {
                    continue; // the thread ended while we looked
                }
                if (SCHEDULER_THREADS.stream().anyMatch(name::startsWith) && slack != NANOS) {
                    wrong.add(name + " (" + tid + "): " + slack + " ns");
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/task to check timer slack", e);
        }
        return wrong;
    }

    /** Looked up on first use only, so that systems without prctl never link it. */
    private static final class Prctl {
        static final MethodHandle HANDLE = lookup();

        private static MethodHandle lookup() {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find("prctl").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                    Linker.Option.firstVariadicArg(1));
        }
    }
}
