package dev.shuttle.scheduler.core;

import dev.shuttle.timers.TimerHeap;

/**
 * What idle carriers, wakers and the monitor read of the processors' timer heaps: the earliest deadline, whether one
 * falls due soon, whether any timer is pending. Read-only and stateless; {@link TimerService} arms and fires,
 * {@link Idle} decides who sleeps toward these deadlines, and both read them here, so neither calls the other
 * back.
 */
final class TimerDeadlines {
    private final PoolState state;

    TimerDeadlines(PoolState state) {
        this.state = state;
    }

    /**
     * The deadline an idle carrier must be up by: the earliest in any carrier's heap, O(parallelism), paid only on
     * the way to park, passing over the due timers of a locked heap. Those are the lock holder's: a carrier that
     * fires fires every due timer it has room for, and every holder looks for due timers left behind as it releases
     * the lock ({@code TimerService.release}), waking a carrier for them. Getting up for them instead would only fail
     * on the lock again and again, many times per fired timer on Tickers (docs/design.md, "Timers", locked heaps).
     */
    long earliest(long now) {
        long min = TimerHeap.NONE;
        for (Processor c : state.processors) {
            TimerHeap heap = c.timers;
            long d = heap.earliestDeadline();
            if (d != TimerHeap.NONE && d - now <= 0 && heap.isLocked()) {
                continue;
            }
            if (TimerHeap.isEarlier(d, min)) {
                min = d;
            }
        }
        return min;
    }

    /** Whether any heap holds a timer (an inbox arm included); no clock read. O(parallelism). */
    boolean anyPending() {
        for (Processor c : state.processors) {
            if (c.timers.earliestDeadline() != TimerHeap.NONE) {
                return true;
            }
        }
        return false;
    }

    /** True if a timer falls due within {@code nanos} (due ones in a locked heap aside, as in {@link #earliest}). */
    boolean dueWithin(long nanos) {
        return dueWithin(System.nanoTime(), nanos);
    }

    boolean dueWithin(long now, long nanos) {
        long until = earliest(now);
        return until != TimerHeap.NONE && until - now < nanos;
    }

    /** True if a timer is due that the sleeping carrier must get up and fire (none of them in a locked heap). */
    boolean due() {
        return dueWithin(1);
    }
}
