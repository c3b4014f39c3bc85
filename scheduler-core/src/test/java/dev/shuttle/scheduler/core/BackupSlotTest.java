package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.timers.TimerHeap;
import org.junit.jupiter.api.Test;

/** The backup slot of {@link TimerSleepers}: its claim, its grace and the cover test seen from the backup alone. */
class BackupSlotTest {
    private static final long T0 = 1_000_000_000L;

    @Test
    void oneCarrierHoldsTheBackupAtATime() {
        TimerSleepers backup = new TimerSleepers(null, null, new Netpoll());
        assertEquals(T0 + TimerSleepers.MIN_GRACE_NANOS, backup.claimBackup(0, T0, T0));
        assertEquals(TimerHeap.NONE, backup.claimBackup(1, T0, T0));
        assertEquals(0, backup.backupHolder());
        backup.releaseBackup(1, TimerSleepers.QUIET);
        assertEquals(0, backup.backupHolder(), "only the holder gives the backup up");
        backup.releaseBackup(0, TimerSleepers.QUIET);
        assertEquals(TimerSleepers.NO_ONE, backup.backupHolder());
        assertTrue(backup.claimBackup(1, T0, T0) != TimerHeap.NONE);
    }

    @Test
    void coversDeadlinesWithinTheMaximumGraceOfWhenTheHolderWakesButNotForItself() {
        TimerSleepers backup = new TimerSleepers(null, null, new Netpoll());
        assertFalse(backup.covers(T0, 1, 0, true), "nobody holds it");
        long until = backup.claimBackup(0, T0, T0);
        assertTrue(backup.covers(T0, 1, 0, true));
        assertTrue(backup.covers(until - TimerSleepers.MAX_GRACE_NANOS, 1, 0, true));
        assertFalse(backup.covers(until - TimerSleepers.MAX_GRACE_NANOS - 1, 1, 0, true),
                "wakes too late for this deadline");
        assertFalse(backup.covers(T0, 0, 0, true), "a carrier cannot count on itself");
        backup.releaseBackup(0, TimerSleepers.QUIET);
        assertFalse(backup.covers(T0, 1, 0, true), "given up");
    }

    @Test
    void graceDoublesWhileBackupWakesAreQuietUpToTheMaximumAndDropsWhenOneFindsWork() {
        TimerSleepers backup = new TimerSleepers(null, null, new Netpoll());
        long grace = TimerSleepers.MIN_GRACE_NANOS;
        for (int i = 0; i < 10; i++) {
            assertEquals(T0 + grace, backup.claimBackup(0, T0, T0));
            backup.releaseBackup(0, TimerSleepers.QUIET);
            grace = Math.min(2 * grace, TimerSleepers.MAX_GRACE_NANOS);
            assertEquals(grace, backup.grace());
        }
        assertEquals(TimerSleepers.MAX_GRACE_NANOS, backup.grace());
        backup.claimBackup(0, T0, T0);
        backup.releaseBackup(0, TimerSleepers.WOKEN_EARLY);
        assertEquals(TimerSleepers.MAX_GRACE_NANOS, backup.grace(), "a sleep cut short says nothing about the grace");
        backup.claimBackup(0, T0, T0);
        backup.releaseBackup(0, TimerSleepers.FOUND_WORK);
        assertEquals(TimerSleepers.MIN_GRACE_NANOS, backup.grace());
    }

    @Test
    void aDeadlineHalfTheClockAwayGetsNoGraceSinceTheSumWouldReadAsPast() {
        TimerSleepers backup = new TimerSleepers(null, null, new Netpoll());
        long never = T0 + Long.MAX_VALUE - 10;
        long until = backup.claimBackup(0, never, T0);
        assertEquals(never, until);
        assertTrue(until - T0 > 0, "still in the future");
        assertTrue(backup.covers(never, 1, 0, true));
    }

    @Test
    void anOverdueDeadlineKeepsItsGrace() {
        TimerSleepers backup = new TimerSleepers(null, null, new Netpoll());
        long overdue = T0 - 5_000_000;
        assertEquals(overdue + TimerSleepers.MIN_GRACE_NANOS, backup.claimBackup(0, overdue, T0));
    }
}
