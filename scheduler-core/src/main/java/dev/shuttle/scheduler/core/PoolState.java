package dev.shuttle.scheduler.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the carriers of one scheduler share (Go's {@code schedt}): the processors, the global injection queue, the
 * idle set, the counts of searching and blocking carriers, and whether the scheduler is stopping. Passive: it
 * answers questions about that state and calls nothing above it, so every protocol that reads or changes it (waking,
 * searching, parking, the monitor, resizing) can sit above it and call downward only.
 */
public final class PoolState {
    /** Go's and ForkJoinPool's limit: carrier indexes fit in 15 bits. */
    public static final int MAX_PARALLELISM = 0x7fff;
    /**
     * The processors in use, {@code parallelism} of them; replaced, never written in place, by a {@link Resize}. Hot
     * paths read it once per use and index only the array they read.
     */
    public volatile Processor[] processors;
    /**
     * Every processor ever created, those in use first: retired ones keep their counters ({@code SchedulerCounters}
     * sums them all) and come back when the pool grows again. Indexes by a processor number read elsewhere (the
     * timer watcher's) stay valid in it whatever resize happened since.
     */
    private volatile Processor[] created;
    public final IdleSet idle = new IdleSet(MAX_PARALLELISM);
    /** Carriers in the searching state (Go's {@code nmspinning}); see package-info for the wake-up protocol. */
    public final AtomicInteger searching = new AtomicInteger();
    /**
     * The part of {@code searching} that is wakers' promises: carriers whose idle bit a waker cleared, counting them
     * as searching, and that have not yet got up. Raised by the waker after its clear, lowered by the woken carrier
     * when it finds its bit cleared. No wake-up depends on it; it tells a waiter deciding whether to spin that the
     * searcher it would count on is still waiting for a core ({@link #searcherUp}).
     */
    final AtomicInteger wakingSearchers = new AtomicInteger();
    /** Processors in phase BLOCKING: a waker that finds no idle processor may take one of those instead. */
    final AtomicInteger blocking = new AtomicInteger();
    /** External submissions, yields and local-queue overflow. */
    public final GlobalQueue global = new GlobalQueue();
    public final ThreadLifecycle threads = new ThreadLifecycle();
    final SpinPolicy spin;
    private volatile boolean stopping;
    /** The scheduler's name, for JFR events; set before the carriers start, which publishes it to them. */
    public String name = "";

    PoolState(int parallelism, SpinPolicy spin) {
        this.spin = spin;
        Processor[] initial = new Processor[parallelism];
        for (int i = 0; i < parallelism; i++) {
            initial[i] = new Processor(global, spin, i, parallelism);
        }
        this.created = initial;
        this.processors = initial;
    }

    /** A resize publishes its arrays: {@code created} first, so an index read from the new array is valid in it. */
    void publish(Processor[] created, Processor[] processors) {
        this.created = created;
        this.processors = processors;
    }

    /** Every processor ever created, those in use first. */
    public Processor[] everCreated() {
        return created;
    }

    /**
     * Processor {@code i}, whether in use or retired: for numbers read from a field that a resize may have left
     * behind (the timer watcher's), where the {@code processors} array may have shrunk below them.
     */
    Processor processorAt(int i) {
        return created[i];
    }

    /**
     * Whether any task is queued: global queue, or any processor's run queue or runNext. O(parallelism), paid only by
     * a waker that found no idle bit, and by the monitor. Unlike a parking carrier's look ({@code
     * Idle.workInSight}) it counts busy processors' runNext: a runNext hand-off relies on {@code wakep} too,
     * while a parking carrier must not stay up for a runNext that its busy owner will run (the monitor covers a stuck
     * owner).
     */
    boolean hasQueuedWork() {
        if (hasGlobalWork()) {
            return true;
        }
        for (Processor proc : processors) {
            if (!proc.runQueue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Whether a task is queued where an idle carrier would look: the global queue or a run queue (not runNext). */
    boolean hasStealableWork() {
        if (hasGlobalWork()) {
            return true;
        }
        for (Processor proc : processors) {
            if (proc.runQueue.hasStealableWork()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether some carrier is searching on a core now, not only promised by a waker. A woken carrier takes tens of
     * microseconds to get a core on a loaded or virtualised machine, longer than a waiter's spin; only one that is up
     * will take a standing {@code runNext} within it. Two racy reads: a snapshot for a heuristic.
     */
    boolean searcherUp() {
        return searching.get() > wakingSearchers.get();
    }

    /**
     * Processors whose idle bit is clear: running a task, searching, or handed off while their carrier blocks. A racy
     * snapshot: the searchers' cap, the lone searcher's no-pause rule and the MXBean read it as such.
     */
    public int busy() {
        return processors.length - idle.count();
    }

    boolean hasGlobalWork() {
        return !global.isEmpty();
    }

    boolean isStopping() {
        return stopping;
    }

    /** From now on every carrier, spare and the monitor leaves its loop at its next look. */
    void markStopping() {
        stopping = true;
    }
}
