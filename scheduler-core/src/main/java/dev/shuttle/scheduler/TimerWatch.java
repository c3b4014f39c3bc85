package dev.shuttle.scheduler;

import dev.shuttle.timers.TimerHeap;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Who sleeps toward the earliest timer deadline: exactly one idle carrier, the watcher, parks with a timeout for it
 * (Go's netpoller blocked with {@code pollUntil}, seeds 002 and 004), and a second one, the {@link BackupWatch},
 * parks until that deadline plus a grace, for when the watcher gets up and finds a long task. {@link #awakeBy}
 * decides whom an arm wakes. {@link TimerService} owns the heaps, arms and fires, and calls in here; this class
 * sees the heaps only through {@link TimerDeadlines}, never calling back into the service.
 *
 * <p>The watcher race. The watcher publishes {@code watchUntil}, then re-reads every heap's earliest deadline,
 * then parks; an arming thread publishes the deadline in a heap, then reads {@code watchUntil}. All volatile, so
 * either the watcher's re-read sees the new timer or the arming thread sees the published {@code watchUntil} and
 * unparks it. With no watcher the arming thread wakes an idle carrier; a carrier on its way to park reads the heaps
 * only after publishing its idle bit, so one of the two sees the other (the park-versus-submit argument of the
 * package documentation, with the heap in place of the queue).
 */
final class TimerWatch {
    private static final int NO_WATCHER = -1;
    /**
     * Wake-ups are left to the watch or the backup only while carriers that get up for timers come back this soon:
     * half the backup's minimum grace, so that a carrier back in time is back before the backup would have looked.
     */
    static final long QUICK_RETURN_NANOS = BackupWatch.MIN_GRACE_NANOS / 2;
    /**
     * Threads woken by a processor's own timers that its carrier runs alone while another idle carrier will be up
     * within the backup watch's grace (see {@link #afterFiredPush}); a larger batch wakes a helper at once.
     */
    static final int SMALL_FIRED_BATCH = 16;
    private static final VarHandle WATCHER;

    static {
        try {
            WATCHER = MethodHandles.lookup().findVarHandle(TimerWatch.class, "watcher", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final PoolState state;
    private final TimerDeadlines deadlines;
    private final Wakeups wakeups;
    /** The idle carrier parked with a timeout for the earliest deadline, or {@link #NO_WATCHER}. */
    private volatile int watcher = NO_WATCHER;
    /** What the watcher sleeps toward; {@link TimerHeap#NONE} when there is no watcher. */
    private volatile long watchUntil = TimerHeap.NONE;
    /** The idle carrier that covers, within a grace, for a watcher away at work; see {@link BackupWatch}. */
    final BackupWatch backup = new BackupWatch();
    /**
     * How long a carrier that got up for due timers stays out of the idle set, lately: a decaying maximum of what
     * carriers measure when they park again ({@link #recordAway}), set back to the backup's maximum grace when the
     * backup finds a timer nobody fired. The wake-ups the backup makes skippable are skipped only while this is short:
     * a carrier that runs a task of a few hundred microseconds after firing leaves the next timers to the backup, late
     * by the grace, where a precise hand-off costs a wake-up and no lateness (chosen on StaggeredTickerLatency:
     * docs/design.md, "Timers", the backup watch). Starts at zero, skipping allowed: the first carrier that stays
     * away longer closes the gate for the next 20-odd samples (seven eighths per sample from 2 ms down to 100 us).
     * Racy on purpose: a lost update only shifts the estimate by one sample.
     */
    private volatile long awayNanos;

    TimerWatch(PoolState state, TimerDeadlines deadlines, Wakeups wakeups) {
        this.state = state;
        this.deadlines = deadlines;
        this.wakeups = wakeups;
    }

    /**
     * Makes sure some carrier is awake by {@code deadline}, just published in a heap: if it is earlier than what the
     * watcher sleeps toward, the watcher is unparked to sleep less; with no watcher, an idle carrier is woken (it
     * becomes the watcher when it parks). Carrier {@code selfFiring} (if not {@link BackupWatch#NO_HOLDER}) fires the
     * timer itself before its next task, so it wakes nobody while another idle carrier will be up within the grace
     * ({@link #coveredWithoutWake}). Returns whether it woke a carrier.
     */
    boolean awakeBy(long deadline, boolean onCarrier, int selfFiring) {
        if (!TimerHeap.isEarlier(deadline, watchUntil)) {
            return false;
        }
        if (selfFiring != BackupWatch.NO_HOLDER && coveredWithoutWake(deadline, selfFiring)) {
            return false;
        }
        int w = watcher;
        if (w != NO_WATCHER) {
            wakeups.unpark(state.processorAt(w));
            return true;
        }
        if (!onCarrier || state.idle.count() > 0) {
            return wakeups.wakep();
        }
        return false;
    }

    /**
     * An idle carrier's sleep. With no timer pending it parks until unparked. Otherwise it tries to become the
     * watcher and parks until the earliest deadline, less its {@link ParkOvershoot} lead, then spins to the deadline;
     * if another carrier watches an earlier or equal deadline it sleeps as the {@link BackupWatch} if nobody holds
     * that, else without timeout. Returns when unparked or when its time passed, telling whether it held the watch
     * or the backup; the caller re-checks its idle bit.
     */
    boolean sleep(Processor self) {
        long until = watchDeadline(self);
        if (until == TimerHeap.NONE) {
            return sleepAsBackup(self);
        }
        try {
            long now = System.nanoTime();
            long delay = until - self.parkOvershoot.lead() - now;
            if (delay > 0) {
                LockSupport.parkNanos(this, delay);
                long overshoot = System.nanoTime() - (now + delay);
                if (overshoot >= 0) {
                    self.parkOvershoot.record(overshoot);
                }
            }
            spinToDeadline(self, until);
        } finally {
            stopWatching(self.index);
        }
        return true;
    }

    /**
     * Sleep for an idle carrier that does not watch: as the {@link BackupWatch} when timers are pending and nobody
     * else holds it, until the earliest deadline plus the grace; otherwise until unparked. Returns whether it held
     * the backup. Giving the backup up comes before the caller's look at the heaps and queues (the next {@link
     * #sleep} or {@code Carrier.awaitWake}'s check): work published by a thread that counted on the backup, and so
     * woke nobody, is seen there.
     */
    private boolean sleepAsBackup(Processor self) {
        long at = backupDeadline(self);
        if (at == TimerHeap.NONE) {
            LockSupport.park(this);
            return false;
        }
        int how = BackupWatch.WOKEN_EARLY;
        try {
            long delay = at - System.nanoTime();
            if (delay > 0) {
                LockSupport.parkNanos(this, delay);
            }
            long now = System.nanoTime();
            if (now - at >= 0) {
                // Slept its full time. Nothing overdue: the carrier it covered for fired in time. A vacant watch alone
                // is not a stuck carrier (the watcher may be up firing the batch that falls due with this wake), and if
                // it is one, this carrier's next sleep takes the watch. Nor is a timer due for less than a quick
                // return: with periodic timers this wake can land on the next batch's deadline a few microseconds
                // before the watcher, spinning toward it, fires it. A timer overdue by more was missed: the grace
                // drops, and wake-ups are skipped no more until carriers show again that they come back quickly.
                how = deadlines.dueWithin(now, -QUICK_RETURN_NANOS) ? BackupWatch.FOUND_WORK : BackupWatch.QUIET;
                if (how == BackupWatch.FOUND_WORK) {
                    awayNanos = BackupWatch.MAX_GRACE_NANOS;
                }
            }
        } finally {
            backup.release(self.index, how);
        }
        return true;
    }

    /**
     * The non-blocking half of {@link #sleepAsBackup}: claims the backup if a timer is pending and nobody holds it,
     * returning the time to sleep until, else {@link TimerHeap#NONE}.
     */
    long backupDeadline(Processor self) {
        long now = System.nanoTime();
        long earliest = deadlines.earliest(now);
        return earliest == TimerHeap.NONE ? TimerHeap.NONE : backup.claim(self.index, earliest, now);
    }

    /**
     * Whether work that carrier {@code self} published before calling (a timer it fires itself, threads its timers
     * woke) may be left without waking anyone: carriers that get up for timers have lately come back within {@link
     * #QUICK_RETURN_NANOS} ({@link #awayNanos}), and an idle carrier other than {@code self}, the watcher or the
     * backup, will be up within {@link BackupWatch#MAX_GRACE_NANOS} of {@code deadline}. If {@code self} then gets
     * stuck, that carrier finds the work when it wakes. A watcher or backup that gives up its role before it wakes
     * re-reads the heaps and the watch before sleeping again, and looks for work if it gets up.
     */
    boolean coveredWithoutWake(long deadline, int self) {
        if (awayNanos >= QUICK_RETURN_NANOS) {
            return false;
        }
        int w = watcher;
        if (w != NO_WATCHER && w != self) {
            long u = watchUntil;
            if (u != TimerHeap.NONE && u - deadline <= BackupWatch.MAX_GRACE_NANOS) {
                return true;
            }
        }
        return backup.covers(deadline, self);
    }

    /**
     * Wakes a helper for threads that {@code proc}'s own timers woke and queued on it ({@code queued} tasks now),
     * beyond the one its carrier runs next. Not for a small batch while another idle carrier, the watcher or the
     * {@link BackupWatch}, will be up within the backup's grace anyway and carriers come back from timers quickly
     * ({@link #coveredWithoutWake}): waking a parked carrier costs more than running a few short threads, and if one
     * of them runs long that carrier wakes within the grace and takes what is queued behind it. The tasks were queued
     * before the watch and the backup are read; a carrier giving up either role looks at the queues after
     * ({@code BackupWatchStress}). Returns whether it woke a carrier.
     */
    boolean afterFiredPush(Processor proc, int queued) {
        return queued > 1 && (queued > SMALL_FIRED_BATCH
                || !coveredWithoutWake(System.nanoTime(), proc.index)) && wakeups.wakep();
    }

    /**
     * Carrier that got up for due timers {@code nanos} ago parks again: one sample of {@link #awayNanos}, which keeps
     * the larger of the sample and seven eighths of what it held.
     */
    void recordAway(long nanos) {
        long a = awayNanos;
        awayNanos = Math.max(nanos, a - (a >>> 3));
    }

    /**
     * The watcher's last stretch ({@link ParkOvershoot}): spins until {@code until}, but only from at most
     * {@link ParkOvershoot#MAX_LEAD_NANOS} before it, and returns at once when a timer is due, a waker cleared our
     * idle bit, or the pool stops. A park that an unpark ended early, far from the deadline, spins not at all.
     */
    private void spinToDeadline(Processor self, long until) {
        IdleSet idle = state.idle;
        long now;
        while ((now = System.nanoTime()) - until < 0 && until - now <= ParkOvershoot.MAX_LEAD_NANOS
                && idle.contains(self.index) && !state.isStopping()) {
            if (deadlines.dueWithin(now, 1)) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * The non-blocking half of {@link #sleep}: becomes the watcher if there is a timer and no watcher sleeps toward
     * an earlier or equal deadline, publishes {@code watchUntil}, then reads every heap again (an arm that missed
     * the published value was published before this read). Returns the deadline to sleep toward, or
     * {@link TimerHeap#NONE} when this carrier does not watch.
     */
    long watchDeadline(Processor self) {
        long until = deadlines.earliest(System.nanoTime());
        if (until == TimerHeap.NONE || !becomeWatcher(self.index, until)) {
            return TimerHeap.NONE;
        }
        long again = deadlines.earliest(System.nanoTime());
        if (TimerHeap.isEarlier(again, until)) {
            until = again;
            watchUntil = until;
        }
        return until;
    }

    private boolean becomeWatcher(int index, long until) {
        int w = watcher;
        if (w == NO_WATCHER) {
            if (WATCHER.compareAndSet(this, NO_WATCHER, index)) {
                watchUntil = until;
                return true;
            }
            return false;
        }
        if (TimerHeap.isEarlier(until, watchUntil)) {
            // The watcher sleeps too long for this deadline (it parked before the timer was armed and the arming
            // thread's unpark is still on its way, or was absorbed): nudge it to re-compute.
            wakeups.unpark(state.processorAt(w));
        }
        return false;
    }

    /**
     * Whether an idle carrier sleeps with a timeout that ends by {@code deadline} (the watcher) or within the grace
     * after it (the backup): the kernel wakes that carrier for the timer, however late the OS then runs it. For the
     * monitor, which must not take such a timer for a lost wake-up.
     */
    boolean sleepsToward(long deadline) {
        long u = watchUntil;
        return u != TimerHeap.NONE && u - deadline <= 0 || backup.covers(deadline, BackupWatch.NO_HOLDER);
    }

    void stopWatching(int index) {
        if (watcher == index) {
            watchUntil = TimerHeap.NONE;
            watcher = NO_WATCHER;
        }
    }

    /**
     * A carrier that was the watcher or the backup left the idle set (to fire timers or to run work): timers may
     * still be pending with nobody sleeping toward them. Unless another idle carrier, the watcher or the backup, will
     * be up within the grace of the earliest deadline (and takes the watch then if nobody has), unpark another idle
     * carrier (without taking its bit) so that it re-computes its sleep and takes over the watch. The leaving carrier
     * gave its role up before this look; a carrier that gives up its role after it re-reads the watch and the heaps
     * before sleeping again, and hands off itself if it gets up. Returns the carrier unparked, or -1.
     */
    int handOffWatch(Processor leaving) {
        long earliest = deadlines.earliest(System.nanoTime());
        if (earliest == TimerHeap.NONE || state.idle.count() == 0 || coveredWithoutWake(earliest, leaving.index)) {
            return -1;
        }
        IdleSet idle = state.idle;
        Processor[] all = state.processors;
        for (int i = idle.nextIdle(0, all.length); i >= 0; i = idle.nextIdle(i + 1, all.length)) {
            if (i != leaving.index) {
                wakeups.unpark(all[i]);
                return i;
            }
        }
        return -1;
    }
}
