package dev.shuttle.scheduler.core;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * The calling thread's involuntary context switches (Linux {@code getrusage(RUSAGE_THREAD)}, {@code ru_nivcsw}): the
 * times the kernel took its core while it was still runnable, to run another thread (a preemption) or in a
 * {@code sched_yield} that gave way. A carrier reads its own count before it parks: a count that grew says that other
 * threads wanted its core while it ran, which is when a search's spinning takes a core from them
 * ({@link SearchBackoff#contended}). One instance per carrier, used by that thread only: its buffer is its own, so a
 * reading allocates nothing.
 *
 * <p>As {@link TimerSlack}, only where native access is already enabled for Shuttle and on Linux; elsewhere
 * {@link #read} returns {@link #UNAVAILABLE} and spinning is judged by the search's own outcomes alone.
 */
public final class InvoluntarySwitches {
    /** What {@link #read} returns where the count cannot be read. */
    public static final long UNAVAILABLE = -1;
    private static final int RUSAGE_THREAD = 1;
    /** {@code sizeof(struct rusage)} on 64-bit Linux: two timevals, then fourteen longs. */
    private static final long RUSAGE_BYTES = 144;
    /** {@code offsetof(struct rusage, ru_nivcsw)}: the last of the fourteen longs. */
    private static final long NIVCSW_OFFSET = 136;
    private static final MethodHandle GETRUSAGE = lookup();
    /** Whether {@link #read} can return a count here. */
    public static final boolean AVAILABLE = GETRUSAGE != null;

    private final MemorySegment rusage = GETRUSAGE == null ? null : Arena.ofAuto().allocate(RUSAGE_BYTES, 8);

    private static MethodHandle lookup() {
        if (!InvoluntarySwitches.class.getModule().isNativeAccessEnabled()
                || !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")
                || ValueLayout.ADDRESS.byteSize() != Long.BYTES) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("getrusage")
                    .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The calling thread's involuntary context switches so far, or {@link #UNAVAILABLE}. */
    long read() {
        if (rusage == null) {
            return UNAVAILABLE;
        }
        try {
            if ((int) GETRUSAGE.invokeExact(RUSAGE_THREAD, rusage) != 0) {
                return UNAVAILABLE;
            }
        } catch (Throwable e) {
            return UNAVAILABLE;
        }
        return rusage.get(ValueLayout.JAVA_LONG, NIVCSW_OFFSET);
    }
}
