package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

/** Waits until a pool is quiet: every carrier parked, nobody searching, no waker's promise outstanding. */
final class PoolQuiet {
    private static final long QUIESCE_NANOS = TimeUnit.SECONDS.toNanos(20);

    private PoolQuiet() {
    }

    /** Fails if the pool is not quiet within 20 s. */
    static void await(PoolState state) throws InterruptedException {
        long deadline = System.nanoTime() + QUIESCE_NANOS;
        while (state.idle.count() != state.processors.length || state.searching.get() != 0
                || state.wakingSearchers.get() != 0) {
            assertTrue(System.nanoTime() - deadline < 0, () -> "not quiet after 20 s: idle " + state.idle.count()
                    + ", searching " + state.searching.get() + ", woken but not up " + state.wakingSearchers.get());
            Thread.sleep(1);
        }
    }
}
