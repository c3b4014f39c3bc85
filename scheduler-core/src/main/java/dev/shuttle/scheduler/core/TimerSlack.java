package dev.shuttle.scheduler.core;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Lowers a carrier's Linux timer slack, the extra delay (50 µs by default) the kernel may add to a timed sleep to
 * batch wake-ups. A carrier sleeping toward a timer deadline would otherwise wake up to 50 µs late, as large as the
 * whole latency budget. {@code prctl(PR_SET_TIMERSLACK)} is per thread and needs no privilege.
 *
 * <p>Only when native access is already enabled for Shuttle ({@code --enable-native-access=ALL-UNNAMED}, or the
 * module's name): calling the FFM linker otherwise prints a JDK warning into the application's output, and a
 * scheduler must not do that uninvited. On other systems, or if the call fails, the slack stays as it is.
 */
final class TimerSlack {
    private static final int PR_SET_TIMERSLACK = 29;
    private static final long SLACK_NANOS = 1;
    private static final MethodHandle PRCTL = lookup();

    private TimerSlack() {
    }

    private static MethodHandle lookup() {
        if (!TimerSlack.class.getModule().isNativeAccessEnabled()
                || !System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("prctl")
                    .map(prctl -> linker.downcallHandle(prctl,
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG),
                            Linker.Option.firstVariadicArg(1)))
                    .orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Lowers the calling thread's timer slack; returns whether it did. */
    static boolean lowerForCurrentThread() {
        if (PRCTL == null) {
            return false;
        }
        try {
            return (int) PRCTL.invokeExact(PR_SET_TIMERSLACK, SLACK_NANOS) == 0;
        } catch (Throwable e) {
            return false;
        }
    }
}
