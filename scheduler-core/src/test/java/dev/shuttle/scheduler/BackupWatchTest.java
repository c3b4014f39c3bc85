package dev.shuttle.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.timers.TimerHeap;
import org.junit.jupiter.api.Test;

class BackupWatchTest {
    private static final long T0 = 1_000_000_000L;

    @Test
    void oneCarrierHoldsTheBackupAtATime() {
        BackupWatch backup = new BackupWatch();
        assertEquals(T0 + BackupWatch.MIN_GRACE_NANOS, backup.claim(0, T0, T0));
        assertEquals(TimerHeap.NONE, backup.claim(1, T0, T0));
        assertEquals(0, backup.holder());
        backup.release(1, BackupWatch.QUIET);
        assertEquals(0, backup.holder(), "only the holder gives the backup up");
        backup.release(0, BackupWatch.QUIET);
        assertEquals(BackupWatch.NO_HOLDER, backup.holder());
        assertTrue(backup.claim(1, T0, T0) != TimerHeap.NONE);
    }

    @Test
    void coversDeadlinesWithinTheMaximumGraceOfWhenTheHolderWakesButNotForItself() {
        BackupWatch backup = new BackupWatch();
        assertFalse(backup.covers(T0, 1), "nobody holds it");
        long until = backup.claim(0, T0, T0);
        assertTrue(backup.covers(T0, 1));
        assertTrue(backup.covers(until - BackupWatch.MAX_GRACE_NANOS, 1));
        assertFalse(backup.covers(until - BackupWatch.MAX_GRACE_NANOS - 1, 1), "wakes too late for this deadline");
        assertFalse(backup.covers(T0, 0), "a carrier cannot count on itself");
        backup.release(0, BackupWatch.QUIET);
        assertFalse(backup.covers(T0, 1), "given up");
    }

    @Test
    void graceDoublesWhileBackupWakesAreQuietUpToTheMaximumAndDropsWhenOneFindsWork() {
        BackupWatch backup = new BackupWatch();
        long grace = BackupWatch.MIN_GRACE_NANOS;
        for (int i = 0; i < 10; i++) {
            assertEquals(T0 + grace, backup.claim(0, T0, T0));
            backup.release(0, BackupWatch.QUIET);
            grace = Math.min(2 * grace, BackupWatch.MAX_GRACE_NANOS);
            assertEquals(grace, backup.grace());
        }
        assertEquals(BackupWatch.MAX_GRACE_NANOS, backup.grace());
        backup.claim(0, T0, T0);
        backup.release(0, BackupWatch.WOKEN_EARLY);
        assertEquals(BackupWatch.MAX_GRACE_NANOS, backup.grace(), "a sleep cut short says nothing about the grace");
        backup.claim(0, T0, T0);
        backup.release(0, BackupWatch.FOUND_WORK);
        assertEquals(BackupWatch.MIN_GRACE_NANOS, backup.grace());
    }

    @Test
    void aDeadlineHalfTheClockAwayGetsNoGraceSinceTheSumWouldReadAsPast() {
        BackupWatch backup = new BackupWatch();
        long never = T0 + Long.MAX_VALUE - 10;
        long until = backup.claim(0, never, T0);
        assertEquals(never, until);
        assertTrue(until - T0 > 0, "still in the future");
        assertTrue(backup.covers(never, 1));
    }

    @Test
    void anOverdueDeadlineKeepsItsGrace() {
        BackupWatch backup = new BackupWatch();
        long overdue = T0 - 5_000_000;
        assertEquals(overdue + BackupWatch.MIN_GRACE_NANOS, backup.claim(0, overdue, T0));
    }
}
