package dev.shuttle.scheduler;

import dev.shuttle.timers.TimerHeap;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The backup timer watch: at most one idle carrier, not the watcher, that sleeps until the earliest deadline plus a
 * grace, so that a carrier which leaves the idle set to run a batch of timer wake-ups need not wake anyone to cover
 * the timers while it is away.
 *
 * <p>Why it exists. With a single watcher, the watcher that gets up for a batch of timers must wake a second carrier
 * (to watch, or to help with the batch), and the threads of the batch arm their next timers with no watcher asleep,
 * which woke one as well. That second carrier's wake-up, once per batch, was a large share of the carriers' CPU on
 * Tickers with ten 1 ms sleepers, while the batch itself was over before the woken carrier ran (docs/design.md,
 * "Timers", the backup watch).
 *
 * <p>The grace is what a carrier stuck in one long task can cost: the backup wakes within it of a deadline, finds the
 * timer due (or the watch vacant, or work queued behind the stuck carrier) and takes over. It starts at
 * {@link #MIN_GRACE_NANOS}, doubles each time a backup wakes to find nothing due (the carrier that left fired in
 * time), and drops to the minimum whenever a backup wake finds a timer nobody fired, like
 * Go's sysmon back-off. {@link #MAX_GRACE_NANOS} is therefore the bound on how late a timer or a
 * small batch of woken threads can be behind a carrier that got stuck after a quiet spell.
 *
 * <p>Ownership: {@code holder} is claimed by CAS and cleared by its holder; {@code until} is written by the holder
 * only, after its claim and before its release, so a reader that sees the holder either sees its {@code until} or
 * {@link TimerHeap#NONE} (then it does not count on the backup). {@code grace} is plain: only the holder adapts it,
 * one holder at a time, and a stale read by the next claimer only shifts one sleep.
 */
final class BackupWatch {
    /** Grace after a backup wake that found work: longer than a watcher's usual wake-up jitter on a busy VM. */
    static final long MIN_GRACE_NANOS = 200_000L;
    /** The bound on the extra lateness a newly stuck carrier can cause while a backup covers for it. */
    static final long MAX_GRACE_NANOS = 2_000_000L;
    static final int NO_HOLDER = -1;
    /** How a backup sleep ended: cut short (by an unpark or the caller's cap), which says nothing about the grace. */
    static final int WOKEN_EARLY = 0;
    /** It slept its full time and found nothing due: the grace may grow. */
    static final int QUIET = 1;
    /**
     * It slept its full time and found a timer that nobody fired, overdue by at least {@link
     * TimerWatch#QUICK_RETURN_NANOS} (less may be the watcher about to fire it): the grace drops to its minimum.
     */
    static final int FOUND_WORK = 2;
    private static final VarHandle HOLDER;

    static {
        try {
            HOLDER = MethodHandles.lookup().findVarHandle(BackupWatch.class, "holder", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int holder = NO_HOLDER;
    private volatile long until = TimerHeap.NONE;
    private long grace = MIN_GRACE_NANOS;

    /**
     * Claims the backup for carrier {@code index}, which will sleep until {@code earliest} (a deadline, not
     * {@link TimerHeap#NONE}) plus the grace. Returns that time, or {@link TimerHeap#NONE} if another carrier holds
     * the backup. Deadlines are compared by difference, like {@code System.nanoTime}; a deadline so far off that the
     * grace would carry it past half the clock's range from {@code now} (a saturated "never") gets no grace, since
     * the sum would read as past.
     */
    long claim(int index, long earliest, long now) {
        if (holder != NO_HOLDER || !HOLDER.compareAndSet(this, NO_HOLDER, index)) {
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
     * Whether a carrier other than {@code self} holds the backup and will be up within {@link #MAX_GRACE_NANOS} of
     * {@code deadline}. The caller published its timer or its queued work before calling: if the holder gives the
     * backup up after this read, its look at the heaps and queues that follows sees that work.
     */
    boolean covers(long deadline, int self) {
        int h = holder;
        if (h == NO_HOLDER || h == self) {
            return false;
        }
        long u = until;
        return u != TimerHeap.NONE && u - deadline <= MAX_GRACE_NANOS;
    }

    /** The holder gives the backup up, its sleep having ended as {@code how}: {@link #WOKEN_EARLY}, {@link #QUIET} or {@link #FOUND_WORK}. */
    void release(int index, int how) {
        if (holder != index) {
            return;
        }
        if (how == QUIET) {
            grace = Math.min(2 * grace, MAX_GRACE_NANOS);
        } else if (how == FOUND_WORK) {
            grace = MIN_GRACE_NANOS;
        }
        until = TimerHeap.NONE;
        holder = NO_HOLDER;
    }

    /** The carrier holding the backup, or {@link #NO_HOLDER}. A snapshot, for monitoring and tests. */
    int holder() {
        return holder;
    }

    /** The grace the next backup sleep adds. A snapshot, for tests. */
    long grace() {
        return grace;
    }
}
