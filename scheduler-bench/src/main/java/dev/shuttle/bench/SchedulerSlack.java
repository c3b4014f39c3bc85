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
    private static final String UNPARKER_OR_UNBLOCKER = "VirtualThread-u";
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
        setCurrentThread(NANOS);
    }

    /** Sets the calling thread's timer slack; a test uses it to start from the kernel's default whatever ran before. */
    static void setCurrentThread(long nanos) {
        if (!LINUX) {
            return;
        }
        if (!SchedulerSlack.class.getModule().isNativeAccessEnabled()) {
            throw new IllegalStateException("timer slack cannot be set: run with --enable-native-access=ALL-UNNAMED"
                    + " so that both schedulers get the same slack");
        }
        int rc;
        try {
            rc = (int) Prctl.HANDLE.invokeExact(PR_SET_TIMERSLACK, nanos);
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

    /**
     * {@code name (tid): slack} of each scheduler thread whose slack differs from {@value #NANOS} ns.
     *
     * <p>Not counted: the JDK's {@code VirtualThread-unblocker}, whose kernel name is cut to the unparkers'
     * {@code VirtualThread-u}. {@code VirtualThread}'s static initializer starts it, so it is the first of that name;
     * it waits untimed for monitors to be released, so its slack delays nothing. Under Shuttle's agent (either mode)
     * {@code VirtualThread} is initialized in the agent's {@code premain}, before {@code main} can lower the slack.
     */
    public static List<String> schedulerThreadsWithOtherSlack() {
        List<String> wrong = new ArrayList<>();
        if (!LINUX) {
            return wrong;
        }
        String unblocker = null;
        long unblockerStart = Long.MAX_VALUE;
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                String tid = task.getFileName().toString();
                String name;
                long slack;
                long started;
                try {
                    name = Files.readString(task.resolve("comm")).strip();
                    slack = Long.parseLong(Files.readString(Path.of("/proc", tid, "timerslack_ns")).strip());
                    started = startTime(Files.readString(task.resolve("stat")));
                } catch (IOException e) {
                    continue; // the thread ended while we looked
                }
                if (name.equals(UNPARKER_OR_UNBLOCKER) && started < unblockerStart) {
                    unblockerStart = started;
                    unblocker = tid;
                }
                if (SCHEDULER_THREADS.stream().anyMatch(name::startsWith) && slack != NANOS) {
                    wrong.add(name + " (" + tid + "): " + slack + " ns");
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/task to check timer slack", e);
        }
        String skip = UNPARKER_OR_UNBLOCKER + " (" + unblocker + "): ";
        wrong.removeIf(w -> w.startsWith(skip));
        return wrong;
    }

    /** Field 22 of a {@code /proc/<pid>/task/<tid>/stat} line, the thread's start in clock ticks since boot. */
    static long startTime(String stat) {
        // The name, field 2, is in parentheses and may hold spaces: count from the last ')', which ends field 2.
        String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(rest[22 - 3]);
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
