package dev.shuttle.scheduler.core;

import dev.shuttle.timers.TimerHeap;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The two idle carriers that sleep toward the timers' earliest deadline, as two slots; the one test of whether a
 * sleeper already covers a deadline ({@link #covers}); and the timed sleeps themselves ({@link #sleepAsWatcher},
 * {@link #sleepAsBackup}). {@link Idle} decides who takes a slot and whom to wake, and asks {@link #covers} before
 * each wake-up it might skip; this class parks the carrier that holds a slot but wakes nobody, and calls nothing
 * above it (it reads the {@link PoolState} and the {@link TimerDeadlines}). Apart from {@code Idle} so that the state
 * the test reads, and every write of it, sit in one class, and each class stays under ~500 lines.
 *
 * <p>The watcher slot: exactly one idle carrier, the watcher, parks with a timeout for the earliest deadline (Go's
 * netpoller blocked with {@code pollUntil}, seeds 002 and 004). {@code watcher} is claimed by CAS, then {@code
 * watchUntil} published; given up in the opposite order ({@link #stopWatching}). A reader that sees the deadline sees
 * a watcher that sleeps toward it, or one that has just given it up and looks at the heaps and queues after.
 *
 * <p>The backup slot: at most one idle carrier, not the watcher, sleeps until the earliest deadline plus a grace, so
 * that a carrier which leaves the idle set to run a batch of timer wake-ups need not wake anyone to cover the timers
 * while it is away. With a single watcher, the watcher that gets up for a batch must wake a second carrier (to watch,
 * or to help with the batch), and the threads of the batch arm their next timers with no watcher asleep, which woke
 * one as well; that wake-up, once per batch, was a large share of the carriers' CPU on Tickers (docs/design.md,
 * "Timers", the backup watch). The grace is what a carrier stuck in one long task can cost: the backup wakes within it
 * of a deadline, finds the timer due (or the watch vacant, or work queued behind the stuck carrier) and takes over. It
 * starts at {@link #MIN_GRACE_NANOS}, doubles each time a backup wakes to find nothing due, and drops to the minimum
 * whenever a backup wake finds a timer nobody fired, like Go's sysmon back-off. {@code holder} is claimed by CAS and
 * cleared by its holder; {@code until} is written by the holder only, after its claim and before its release, so a
 * reader that sees the holder either sees its {@code until} or {@link TimerHeap#NONE} (then it does not count on the
 * backup). {@code grace} is plain: only the holder adapts it, one holder at a time, and a stale read by the next
 * claimer only shifts one sleep.
 *
 * <p>The away gate ({@link #awayNanos}): a wake-up is skipped on a sleeper's cover only while carriers that get up for
 * timers have lately come back quickly ({@link #mayCountOnSleepers}).
 */
final class TimerSleepers {
    static final int NO_ONE = -1;
    /** Grace after a backup wake that found work: longer than a watcher's usual wake-up jitter on a busy VM. */
    static final long MIN_GRACE_NANOS = 200_000L;
    /** The bound on the extra lateness a newly stuck carrier can cause while a backup covers for it. */
    static final long MAX_GRACE_NANOS = 2_000_000L;
    /**
     * Wake-ups are left to the watch or the backup only while carriers that get up for timers come back this soon:
     * half the backup's minimum grace, so that a carrier back in time is back before the backup would have looked.
     */
    static final long QUICK_RETURN_NANOS = MIN_GRACE_NANOS / 2;
    /** How a backup sleep ended: cut short (by an unpark or the caller's cap), which says nothing about the grace. */
    static final int WOKEN_EARLY = 0;
    /** It slept its full time and found nothing due: the grace may grow. */
    static final int QUIET = 1;
    /**
     * It slept its full time and found a timer that nobody fired, overdue by at least {@link #QUICK_RETURN_NANOS}
     * (less may be the watcher about to fire it): the grace drops to its minimum, and the away gate closes.
     */
    static final int FOUND_WORK = 2;
    /** The bound on how early before its deadline the watcher parks until, and so on how long it spins. */
    static final long MAX_LEAD_NANOS = 100_000;
    /** The percentile of the overshoot the lead tracks: nine timed parks in ten return after it and spin not at all. */
    static final int QUANTILE_PERCENT = 10;
    private static final long LEAD_STEP_NANOS = 2_000;
    private static final VarHandle WATCHER;
    private static final VarHandle HOLDER;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            WATCHER = l.findVarHandle(TimerSleepers.class, "watcher", int.class);
            HOLDER = l.findVarHandle(TimerSleepers.class, "holder", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final PoolState state;
    private final TimerDeadlines deadlines;
    /** Where a slot holder sleeps: parked, or in the network poll if the pool drives it. */
    private final Netpoll netpoll;
    /** The idle carrier parked with a timeout for the earliest deadline, or {@link #NO_ONE}. */
    private volatile int watcher = NO_ONE;
    /** What the watcher sleeps toward; {@link TimerHeap#NONE} when there is no watcher. */
    private volatile long watchUntil = TimerHeap.NONE;
    /** The backup: the idle carrier that covers, within a grace, for a watcher away at work, or {@link #NO_ONE}. */
    private volatile int holder = NO_ONE;
    /** What the backup sleeps toward; {@link TimerHeap#NONE} when there is no backup. */
    private volatile long until = TimerHeap.NONE;
    private long grace = MIN_GRACE_NANOS;
    /**
     * How long a carrier that got up for due timers stays out of the idle set, lately: a decaying maximum of what
     * carriers measure when they park again ({@link #recordAway}), set back to {@link #MAX_GRACE_NANOS} when the backup
     * finds a timer nobody fired. A carrier that runs a task of a few hundred microseconds after firing leaves the next
     * timers to the backup, late by the grace, where a precise hand-off costs a wake-up and no lateness (chosen on
     * StaggeredTickerLatency: docs/design.md, "Timers", the backup watch). Starts at zero, skipping allowed: the first
     * carrier that stays away longer closes the gate for the next 20-odd samples (seven eighths per sample from 2 ms
     * down to 100 us). Racy on purpose: a lost update only shifts the estimate by one sample.
     */
    private volatile long awayNanos;

    TimerSleepers(PoolState state, TimerDeadlines deadlines, Netpoll netpoll) {
        this.netpoll = netpoll;
        this.state = state;
        this.deadlines = deadlines;
    }

    /**
     * The one test: whether a sleeper other than {@code self} (or any, with {@link #NO_ONE}) will be up by {@code
     * deadline}: the watcher if it sleeps toward at most {@code deadline + watchSlack}, and, with {@code backupToo},
     * the backup if it sleeps toward at most {@code deadline + MAX_GRACE_NANOS}. The caller published its timer or
     * its queued work before calling: a sleeper that gives its slot up after this read looks at the heaps and queues
     * after, and sees that work. Deadlines are compared by difference, like {@code System.nanoTime}.
     */
    boolean covers(long deadline, int self, long watchSlack, boolean backupToo) {
        int w;
        if (self == NO_ONE || (w = watcher) != NO_ONE && w != self) {
            long u = watchUntil;
            if (u != TimerHeap.NONE && u - deadline <= watchSlack) {
                return true;
            }
        }
        if (!backupToo) {
            return false;
        }
        int h = holder;
        if (h == NO_ONE || h == self) {
            return false;
        }
        long b = until;
        return b != TimerHeap.NONE && b - deadline <= MAX_GRACE_NANOS;
    }

    /** Whether wake-ups may be left to a sleeper's cover: carriers that get up for timers lately came back quickly. */
    boolean mayCountOnSleepers() {
        return awayNanos < QUICK_RETURN_NANOS;
    }

    /**
     * Carrier that got up for due timers {@code nanos} ago parks again: one sample of {@link #awayNanos}, which keeps
     * the larger of the sample and seven eighths of what it held.
     */
    void recordAway(long nanos) {
        long a = awayNanos;
        awayNanos = Math.max(nanos, a - (a >>> 3));
    }

    /** The watcher, or {@link #NO_ONE}. */
    int watcher() {
        return watcher;
    }

    /** What the watcher sleeps toward, or {@link TimerHeap#NONE}. */
    long watchUntil() {
        return watchUntil;
    }

    /** Claims the vacant watcher slot for carrier {@code index}, sleeping toward {@code until}; whether it did. */
    boolean claimWatch(int index, long until) {
        if (WATCHER.compareAndSet(this, NO_ONE, index)) {
            watchUntil = until;
            return true;
        }
        return false;
    }

    /** The watcher found an earlier deadline on its second look: it sleeps toward that. */
    void watchEarlier(long until) {
        watchUntil = until;
    }

    void stopWatching(int index) {
        if (watcher == index) {
            watchUntil = TimerHeap.NONE;
            watcher = NO_ONE;
        }
    }

    /**
     * Claims the backup for carrier {@code index}, which will sleep until {@code earliest} (a deadline, not
     * {@link TimerHeap#NONE}) plus the grace. Returns that time, or {@link TimerHeap#NONE} if another carrier holds
     * the backup. A deadline so far off that the grace would carry it past half the clock's range from {@code now}
     * (a saturated "never") gets no grace, since the sum would read as past.
     */
    long claimBackup(int index, long earliest, long now) {
        if (holder != NO_ONE || !HOLDER.compareAndSet(this, NO_ONE, index)) {
            return TimerHeap.NONE;
        }
        long at = earliest + grace;
        if (at - now < 0 && earliest - now >= 0 || at == TimerHeap.NONE) {
            at = earliest;
        }
        until = at;
        return at;
    }

    /**
     * The holder gives the backup up, its sleep having ended as {@code how}: {@link #WOKEN_EARLY}, {@link #QUIET} or
     * {@link #FOUND_WORK} (which also closes the away gate).
     */
    void releaseBackup(int index, int how) {
        if (how == FOUND_WORK) {
            awayNanos = MAX_GRACE_NANOS;
        }
        if (holder != index) {
            return;
        }
        if (how == QUIET) {
            grace = Math.min(2 * grace, MAX_GRACE_NANOS);
        } else if (how == FOUND_WORK) {
            grace = MIN_GRACE_NANOS;
        }
        until = TimerHeap.NONE;
        holder = NO_ONE;
    }

    /**
     * The watcher {@code self} sleeps toward {@code until}: parks until then less its lead ({@link
     * Processor#parkLead}), learns from how late the park returned, spins the rest, and gives the watch up. Returns
     * early when unparked.
     */
    void sleepAsWatcher(Processor self, long until) {
        try {
            long now = System.nanoTime();
            long delay = until - self.parkLead - now;
            if (delay > 0) {
                netpoll.sleep(self, this, delay);
                long overshoot = System.nanoTime() - (now + delay);
                if (overshoot >= 0) {
                    self.parkLead = nextParkLead(self.parkLead, overshoot);
                }
            }
            spinToDeadline(self, until);
        } finally {
            stopWatching(self.index);
        }
    }

    /**
     * The backup {@code self} sleeps until {@code at} (the earliest deadline plus the grace) and gives the backup up.
     * Giving it up comes before the caller's look at the heaps and queues: work published by a thread that counted on
     * the backup, and so woke nobody, is seen there.
     */
    void sleepAsBackup(Processor self, long at) {
        int how = WOKEN_EARLY;
        try {
            long delay = at - System.nanoTime();
            if (delay > 0) {
                netpoll.sleep(self, this, delay);
            }
            long now = System.nanoTime();
            if (now - at >= 0) {
                // Slept its full time. Nothing overdue: the carrier it covered for fired in time. A vacant watch alone
                // is not a stuck carrier (the watcher may be up firing the batch that falls due with this wake), and if
                // it is one, this carrier's next sleep takes the watch. Nor is a timer due for less than a quick
                // return: with periodic timers this wake can land on the next batch's deadline a few microseconds
                // before the watcher, spinning toward it, fires it. A timer overdue by more was missed: the grace
                // drops, and wake-ups are skipped no more until carriers show again that they come back quickly.
                how = deadlines.dueWithin(now, -QUICK_RETURN_NANOS) ? FOUND_WORK : QUIET;
            }
        } finally {
            releaseBackup(self.index, how);
        }
    }

    /**
     * The watcher's last stretch: spins until {@code until}, but only from at most {@link #MAX_LEAD_NANOS} before
     * it, and returns at once when a timer is due, a waker cleared our idle bit, or the pool stops. A park that an
     * unpark ended early, far from the deadline, spins not at all.
     */
    private void spinToDeadline(Processor self, long until) {
        IdleSet idle = state.idle;
        long now;
        while ((now = System.nanoTime()) - until < 0 && until - now <= MAX_LEAD_NANOS
                && idle.contains(self.index) && !state.isStopping()) {
            if (deadlines.dueWithin(now, 1)) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * How early the watcher parks before its deadline, after a timed park returned {@code overshoot} ns late: a
     * stochastic estimate of the {@value #QUANTILE_PERCENT}th percentile of the overshoot. With the timer slack at
     * 1 ns ({@link TimerSlack}) a timed park still returns tens of microseconds late on a virtual machine, nearly all
     * of a timer's lateness on ParallelTimerLatency (docs/design.md, "Timers", spinning the last stretch). An
     * overshoot below the lead lowers it by {@code (100 - q)%} of a step, one at or above raises it by {@code q%}, so
     * it settles where a fraction {@code q} of the overshoots fall below it and follows the machine as its latency
     * drifts; bounded by {@link #MAX_LEAD_NANOS}. It starts at 0: a carrier never wakes early before it has learned.
     */
    static long nextParkLead(long lead, long overshoot) {
        long next = overshoot < lead
                ? lead - LEAD_STEP_NANOS * (100 - QUANTILE_PERCENT) / 100
                : lead + LEAD_STEP_NANOS * QUANTILE_PERCENT / 100;
        return Math.max(0, Math.min(next, MAX_LEAD_NANOS));
    }

    /** The carrier holding the backup, or {@link #NO_ONE}. A snapshot, for monitoring and tests. */
    int backupHolder() {
        return holder;
    }

    /** The grace the next backup sleep adds. A snapshot, for tests. */
    long grace() {
        return grace;
    }
}
