package dev.shuttle.timers;

import java.util.function.Predicate;

/**
 * The timers of one {@link TimerHeap} that arrived in deadline order: a FIFO ring whose deadlines never decrease, so
 * the earliest is at the head, and appending or taking the earliest is O(1) and walks memory in sequence.
 *
 * <p><b>Why beside the heap.</b> Most timers are armed with the same delay as the one before (a sleep loop, a fixed
 * request timeout), so each new deadline is the latest yet. The 4-ary heap takes those in O(1) as well, one
 * comparison with the parent, but taking out the earliest moves the last entry to the root and sifts it down through
 * every level: four children compared and one timer's index rewritten per level. That sift-down was the largest share
 * of Shuttle's own code in profiles of Tickers with 10,000 sleepers (docs/design.md, "Timers", under load). Go's
 * runtime has the heap only. A timer whose deadline is not the latest yet goes to the heap; the owner takes the
 * earlier of the two tops, so the pair behaves as one priority queue.
 *
 * <p><b>Positions.</b> A timer here has {@code heapIndex == -2 - slot}, so the heap tells its own entries
 * ({@code >= 0}) from ours and from timers in neither ({@code -1}). Removing a timer from the middle
 * ({@link TimerHeap#remove}) leaves a hole, a cleared slot skipped when it reaches the head; an append is checked
 * against the last slot's deadline even when that slot is a hole, which only sends a timer to the heap that could
 * have come here. The ring is compacted when holes outnumber entries.
 * Cancelled timers stay as entries, like the heap's zombies, until they reach the head or the heap cleans up.
 *
 * <p>Lock holder only, like the heap's arrays.
 */
final class AscendingTimerQueue {
    private static final int MIN_CAPACITY = 16;

    private Timer[] timers = new Timer[MIN_CAPACITY];
    private long[] deadlines = new long[MIN_CAPACITY];
    /** Slot of the first entry; never a hole while {@code live > 0}. */
    private int head;
    /** Slots from the head to the last appended entry, holes included. */
    private int span;
    /** Entries, cancelled ones included, holes excluded. */
    private int live;

    /** Appends {@code t} if {@code deadline} is not earlier than the last appended one; false otherwise. */
    boolean tryAppend(Timer t, long deadline) {
        if (live == 0) {
            head = 0;
            span = 0;
        } else if (deadline - deadlines[slot(span - 1)] < 0) {
            return false;
        }
        if (span == timers.length) {
            grow();
        }
        int s = slot(span++);
        timers[s] = t;
        deadlines[s] = deadline;
        t.heapIndex = -2 - s;
        live++;
        return true;
    }

    boolean isEmpty() {
        return live == 0;
    }

    /** Entries, cancelled ones included. */
    int size() {
        return live;
    }

    /** The earliest entry; only when not empty. */
    Timer first() {
        return timers[head];
    }

    /** The earliest entry's deadline; only when not empty. */
    long firstDeadline() {
        return deadlines[head];
    }

    /** Takes out the earliest entry; only when not empty. */
    Timer poll() {
        Timer t = timers[head];
        timers[head] = null;
        t.heapIndex = -1;
        live--;
        advancePastHoles();
        return t;
    }

    boolean contains(Timer t) {
        int s = -2 - t.heapIndex;
        // heapIndex may belong to another heap's ring: only our own slot is proof.
        return s >= 0 && s < timers.length && timers[s] == t;
    }

    /** Takes out {@code t}, which {@link #contains} it. */
    void remove(Timer t) {
        int s = -2 - t.heapIndex;
        timers[s] = null;
        t.heapIndex = -1;
        live--;
        if (s == head) {
            advancePastHoles();
        } else if (span - live > live) {
            compact();
        }
    }

    /** Cancels the armed entries {@code which} accepts; returns how many this call cancelled. */
    int cancelIf(Predicate<Timer> which) {
        int cancelled = 0;
        for (int k = 0; k < span; k++) {
            Timer t = timers[slot(k)];
            if (t != null && t.isArmed() && which.test(t) && t.cancel(false)) {
                cancelled++;
            }
        }
        return cancelled;
    }

    /** Drops every entry that is no longer armed; returns how many of them were cancelled (zombies). */
    int dropDead() {
        int cancelled = 0;
        for (int k = 0; k < span; k++) {
            int s = slot(k);
            Timer t = timers[s];
            if (t != null && !t.isArmed()) {
                timers[s] = null;
                t.heapIndex = -1;
                live--;
                if (t.isCancelled()) {
                    cancelled++;
                }
            }
        }
        compact();
        return cancelled;
    }

    private int slot(int k) {
        return (head + k) & (timers.length - 1);
    }

    private void advancePastHoles() {
        head = (head + 1) & (timers.length - 1);
        span--;
        while (span > 0 && timers[head] == null) {
            head = (head + 1) & (timers.length - 1);
            span--;
        }
    }

    /**
     * Closes the holes in place, keeping the head: the k-th entry moves to the k-th slot from the head, which is never
     * a slot still to be read, so no entry is overwritten and nothing is allocated (clean-ups come with every burst
     * of cancelled timeouts).
     */
    private void compact() {
        int n = 0;
        for (int k = 0; k < span; k++) {
            int from = slot(k);
            Timer t = timers[from];
            if (t != null) {
                if (n != k) {
                    int to = slot(n);
                    timers[to] = t;
                    deadlines[to] = deadlines[from];
                    timers[from] = null;
                    t.heapIndex = -2 - to;
                }
                n++;
            }
        }
        span = n;
    }

    /** Copies the entries, in order and without holes, to the start of arrays twice as long. */
    private void grow() {
        Timer[] newTimers = new Timer[timers.length * 2];
        long[] newDeadlines = new long[timers.length * 2];
        int n = 0;
        for (int k = 0; k < span; k++) {
            int s = slot(k);
            Timer t = timers[s];
            if (t != null) {
                newTimers[n] = t;
                newDeadlines[n] = deadlines[s];
                t.heapIndex = -2 - n;
                n++;
            }
        }
        timers = newTimers;
        deadlines = newDeadlines;
        head = 0;
        span = n;
    }
}
