package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.timers.TimerHeap;
import org.junit.jupiter.api.Test;

/**
 * When a carrier may leave work it published to the backup instead of waking a carrier ({@link
 * Idle#coveredWithoutWake}): only while carriers that got up for timers have lately come back quickly. The
 * pool's carriers are not started; the test plays them.
 */
class CoveredWithoutWakeTest {
    private static final long QUICK = TimerSleepers.QUICK_RETURN_NANOS / 10;
    private static final long SLOW = 3 * TimerSleepers.QUICK_RETURN_NANOS;

    private static Idle backedUpByCarrierZero() {
        CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        long now = System.nanoTime();
        if (pool.idle.sleepers.claimBackup(0, now, now) == TimerHeap.NONE) {
            throw new IllegalStateException("a fresh backup watch is held");
        }
        return pool.idle;
    }

    @Test
    void aFreshPoolCountsOnTheBackupButACarrierNeverCountsOnItself() {
        Idle idle = backedUpByCarrierZero();
        long now = System.nanoTime();
        assertTrue(idle.coveredWithoutWake(now, 1));
        assertFalse(idle.coveredWithoutWake(now, 0));
    }

    @Test
    void oneSlowReturnStopsTheSkippingUntilQuickReturnsOutweighIt() {
        Idle idle = backedUpByCarrierZero();
        long now = System.nanoTime();
        idle.sleepers.recordAway(SLOW);
        assertFalse(idle.coveredWithoutWake(now, 1), "a carrier ran long after its timers: wake one");
        int quick = 0;
        while (!idle.coveredWithoutWake(now, 1)) {
            idle.sleepers.recordAway(QUICK);
            quick++;
            assertTrue(quick < 100, "quick returns never reopened the gate");
        }
        // SLOW decays by an eighth per sample: (7/8)^n * 3 < 1 first at n = 9.
        assertTrue(quick == 9, "reopened after " + quick + " quick returns, expected 9");
    }
}
