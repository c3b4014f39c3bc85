package dev.shuttle.scheduler;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.timers.TimerHeap;
import org.junit.jupiter.api.Test;

/**
 * When a carrier may leave work it published to the backup instead of waking a carrier ({@link
 * TimerWatch#coveredWithoutWake}): only while carriers that got up for timers have lately come back quickly. The
 * pool's carriers are not started; the test plays them.
 */
class CoveredWithoutWakeTest {
    private static final long QUICK = TimerWatch.QUICK_RETURN_NANOS / 10;
    private static final long SLOW = 3 * TimerWatch.QUICK_RETURN_NANOS;

    private static TimerWatch backedUpByCarrierZero() {
        CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        long now = System.nanoTime();
        if (pool.watch.backup.claim(0, now, now) == TimerHeap.NONE) {
            throw new IllegalStateException("a fresh backup watch is held");
        }
        return pool.watch;
    }

    @Test
    void aFreshPoolCountsOnTheBackupButACarrierNeverCountsOnItself() {
        TimerWatch watch = backedUpByCarrierZero();
        long now = System.nanoTime();
        assertTrue(watch.coveredWithoutWake(now, 1));
        assertFalse(watch.coveredWithoutWake(now, 0));
    }

    @Test
    void oneSlowReturnStopsTheSkippingUntilQuickReturnsOutweighIt() {
        TimerWatch watch = backedUpByCarrierZero();
        long now = System.nanoTime();
        watch.recordAway(SLOW);
        assertFalse(watch.coveredWithoutWake(now, 1), "a carrier ran long after its timers: wake one");
        int quick = 0;
        while (!watch.coveredWithoutWake(now, 1)) {
            watch.recordAway(QUICK);
            quick++;
            assertTrue(quick < 100, "quick returns never reopened the gate");
        }
        // SLOW decays by an eighth per sample: (7/8)^n * 3 < 1 first at n = 9.
        assertTrue(quick == 9, "reopened after " + quick + " quick returns, expected 9");
    }
}
