package dev.shuttle.bench.metrics;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * The process's CPU time (user + system, every thread: application, JIT, GC, including threads that have ended) at
 * nanosecond precision, as {@code perf stat}'s task-clock in the Go seeds: {@code clock_gettime(
 * CLOCK_PROCESS_CPUTIME_ID)} through the foreign-function API. Every benchmark reads CPU here, so both schedulers and
 * every benchmark are measured by the same clock.
 *
 * <p>Not {@code OperatingSystemMXBean.getProcessCpuTime}: on Linux it is {@code times(2)}, which counts 10 ms clock
 * ticks, coarser than most measurement windows of this suite. The call needs native access
 * ({@code --enable-native-access=ALL-UNNAMED}, which every benchmark fork gets); without it {@link #nanos} fails with
 * a message naming the flag rather than fall back to a clock that cannot resolve what is measured.
 */
public final class ProcessCpu {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final String UNAVAILABLE;
    private static final MethodHandle CLOCK_GETTIME;
    private static final int CLOCK_ID;
    /** One {@code struct timespec} per calling thread, so a reading allocates nothing. */
    private static final ThreadLocal<MemorySegment> TIMESPEC =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(2 * Long.BYTES, Long.BYTES));

    static {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        // CLOCK_PROCESS_CPUTIME_ID: <linux/time.h> and macOS <time.h>.
        int clock = os.contains("linux") ? 2 : os.contains("mac") ? 12 : -1;
        String why = null;
        MethodHandle handle = null;
        if (clock < 0) {
            why = "no CLOCK_PROCESS_CPUTIME_ID known for " + os;
        } else if (ValueLayout.ADDRESS.byteSize() != Long.BYTES) {
            why = "struct timespec is read as two 64-bit fields; this is a 32-bit platform";
        } else if (!ProcessCpu.class.getModule().isNativeAccessEnabled()) {
            why = "native access is off: run the JVM with --enable-native-access=ALL-UNNAMED";
        } else {
            Linker linker = Linker.nativeLinker();
            handle = linker.defaultLookup().find("clock_gettime")
                    .map(f -> linker.downcallHandle(f, FunctionDescriptor.of(ValueLayout.JAVA_INT,
                            ValueLayout.JAVA_INT, ValueLayout.ADDRESS)))
                    .orElse(null);
            why = handle == null ? "clock_gettime not found in the C library" : null;
        }
        CLOCK_ID = clock;
        CLOCK_GETTIME = handle;
        UNAVAILABLE = why;
    }

    private ProcessCpu() {
    }

    /** Why {@link #nanos} cannot work here, or null when it can. */
    public static String unavailableReason() {
        return UNAVAILABLE;
    }

    /**
     * CPU time the process has used so far, in nanoseconds.
     *
     * @throws IllegalStateException if the clock cannot be read here; the message says why
     */
    public static long nanos() {
        if (UNAVAILABLE != null) {
            throw new IllegalStateException("process CPU clock unavailable: " + UNAVAILABLE);
        }
        MemorySegment timespec = TIMESPEC.get();
        int rc;
        try {
            rc = (int) CLOCK_GETTIME.invokeExact(CLOCK_ID, timespec);
        } catch (Throwable e) {
            throw new IllegalStateException("clock_gettime failed", e);
        }
        if (rc != 0) {
            throw new IllegalStateException("clock_gettime(CLOCK_PROCESS_CPUTIME_ID) returned " + rc);
        }
        return timespec.get(ValueLayout.JAVA_LONG, 0) * NANOS_PER_SECOND
                + timespec.get(ValueLayout.JAVA_LONG, Long.BYTES);
    }
}
