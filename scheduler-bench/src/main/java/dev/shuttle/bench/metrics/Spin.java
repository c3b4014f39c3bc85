package dev.shuttle.bench.metrics;

/** Go's {@code doWork}: keeps the calling thread (and so its carrier) busy without blocking or yielding. */
public final class Spin {
    private Spin() {
    }

    /** Busy-waits for {@code nanos} nanoseconds of wall time. */
    public static void forNanos(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

    /**
     * Busy-waits until {@code done} returns true, failing after {@code timeoutNanos} so that a scheduler that never
     * runs the awaited threads makes the benchmark fail instead of hang.
     */
    public static void until(java.util.function.BooleanSupplier done, long timeoutNanos, String what) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("timed out after " + timeoutNanos / 1_000_000 + " ms waiting for "
                        + what);
            }
            Thread.onSpinWait();
        }
    }
}
