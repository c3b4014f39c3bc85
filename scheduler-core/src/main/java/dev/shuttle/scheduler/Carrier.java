package dev.shuttle.scheduler;

import dev.shuttle.timers.TimerHeap;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A carrier: a platform thread that runs virtual threads from its own run queue, the global queue, or other
 * carriers' queues, and parks when there is nothing to run (Go's M and P in one, since Shuttle never hands a
 * carrier's queue to another thread).
 *
 * <p>Fields marked "owner" are read and written by this thread only. {@code tick} is written by the owner and read
 * by thieves as a progress signal, so it is published with release stores and read with acquire loads.
 */
final class Carrier extends Thread {
    private static final System.Logger LOG = System.getLogger("dev.shuttle.scheduler");
    /** Consecutive runNext picks before the queue gets a turn (Go bounds the pair by a shared time slice). */
    static final int RUN_NEXT_LIMIT = 61;
    static final long RUN_NEXT_GRACE_MIN_NANOS = 20_000;
    static final long RUN_NEXT_GRACE_MAX_NANOS = 10_000_000;
    private static final long RECOVERY_PAUSE_NANOS = 1_000_000;
    /**
     * A search spins instead of yielding when a timer falls due sooner than this. {@code Thread.yield} can hand the
     * core to another runnable thread for a whole time slice, several milliseconds on Linux, and a searching carrier
     * is neither idle nor between tasks: nobody would fire the timer meanwhile. Measured with a busy carrier and a
     * 1 ms sleeper (ParallelTimerLatency's shape, 4,000 rounds): 2% of the timers fired about 3 ms late, each one a
     * searcher yielding while its own heap's timer fell due. Ending the search there instead (and parking as the
     * timers' watcher) cost 12% more CPU per wake-up with 10,000 sleepers, where the search usually finds work.
     */
    static final long YIELD_HORIZON_NANOS = 10_000_000L;
    /**
     * An idle carrier looks at the queues at least this often, woken or not. One CI run (2026-11-21) hung with a
     * runnable virtual thread while both carriers slept without a timeout; 436,000 rounds of the same test did not
     * show it again, and the cause, a waker's count raised for a carrier that had got up by itself (CarrierPool.wakep),
     * was found by a jcstress test later. With this backstop a lost wake-up, should another remain, costs at most
     * this long instead of a hang; an idle carrier pays 10 wake-ups a second for it.
     */
    static final long IDLE_RECHECK_NANOS = 100_000_000L;
    private static final VarHandle TICK;

    static {
        try {
            TICK = MethodHandles.lookup().findVarHandle(Carrier.class, "tick", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final CarrierPool pool;
    final int index;
    final RunQueue runQueue = new RunQueue();
    /** Timers armed by threads running here; fired by this carrier, or stolen by an idle one. */
    final TimerHeap timers = new TimerHeap();
    /** Owner: how late this carrier's timed parks return; the timer watcher parks that much early and spins. */
    final ParkOvershoot parkOvershoot = new ParkOvershoot();

    /** Owner: the task being run, so that a thread re-submitting itself goes to the tail, not to runNext. */
    private Runnable current;
    /** Owner: whether this carrier is counted in {@code pool.searching}. */
    private boolean spinning;
    /** Owner: how long a parked carrier sleeps before checking busy carriers' runNext; 0 when not watching. */
    private long runNextGrace;
    /** Owner: runNext picks in a row. */
    private int runNextStreak;
    /**
     * Owner writes with release stores (a plain store on x86, not the full fence of a volatile write in the hot
     * loop), thieves read with acquire loads: scheduling ticks, a sign that the carrier makes progress.
     */
    private int tick;
    /** Owner: how long the next search may pause before parking. */
    private final SpinBudget spinBudget;
    /**
     * Owner: when this carrier last got up from the timer watch or the backup, 0 if it did not; reported to
     * {@link TimerWatch#recordAway} when it parks again.
     */
    private long awaySince;
    /** Owner: xorshift state for the random start of a steal pass. */
    private int seed;
    /** Owner: {@code tick} of each victim in the first round of a search or at a runNext snapshot. */
    private final int[] ticksAtSearchStart;

    Carrier(CarrierPool pool, int index, String name) {
        super(null, null, name, 0, false);
        this.pool = pool;
        this.index = index;
        this.seed = 0x9E3779B9 * (index + 1);
        this.ticksAtSearchStart = new int[pool.carriers.length];
        this.spinBudget = new SpinBudget(pool.spin);
        setDaemon(true);
    }

    @Override
    public void run() {
        TimerSlack.lowerForCurrentThread();
        while (!pool.isStopping()) {
            Runnable task;
            try {
                task = findRunnable();
            } catch (Throwable e) {
                report("finding work", e);
                recover();
                continue;
            }
            if (task != null) {
                runTask(task);
            }
        }
    }

    private void runTask(Runnable task) {
        current = task;
        try {
            task.run();
        } catch (Throwable e) {
            report("running " + task, e);
        } finally {
            current = null;
        }
        Thread vthread = JdkVirtualThreads.threadOf(task);
        if (vthread != null && JdkVirtualThreads.state(vthread) == JdkVirtualThreads.TERMINATED) {
            pool.threads.finished(vthread);
        }
    }

    /**
     * Puts the carrier back in a state it can serve from after {@link #findRunnable} failed part-way (an
     * OutOfMemoryError in a queue, say): not idle, not watching runNext. Without this, a failure after the idle bit
     * was published would make every later park fail with "already idle". A brief pause keeps a persistent failure
     * from turning into a hot loop of log records.
     */
    private void recover() {
        try {
            unwatchRunNext();
            pool.idle.tryRemove(index);
            LockSupport.parkNanos(RECOVERY_PAUSE_NANOS);
        } catch (Throwable ignored) {
            // Nothing left to restore; the next round of the loop tries again.
        }
    }

    private void report(String what, Throwable e) {
        LOG.log(Level.ERROR, () -> getName() + ": failure while " + what + "; the carrier keeps serving", e);
    }

    /**
     * Queues a task submitted on this carrier: into runNext, or at the tail when the carrier's own thread
     * re-submits itself. Returns true when the task only went into runNext (nothing was displaced to the queue).
     * The caller then still wakes a searcher, as Go's {@code ready} does, unless a parked carrier already watches
     * runNext slots ({@link #awaitWake}): this carrier's current task may keep it busy for long.
     */
    boolean pushLocal(Runnable task) {
        Runnable toQueue = task == current ? task : runQueue.putRunNext(task);
        if (toQueue == null) {
            return true;
        }
        if (!runQueue.offer(toQueue)) {
            pool.global.offer(toQueue);
        }
        return false;
    }

    /** Appends at the tail of the run queue (the global queue when full); returns the local queue's size after. */
    int pushTail(Runnable task) {
        if (!runQueue.offer(task)) {
            pool.global.offer(task);
        }
        return runQueue.size();
    }

    /**
     * Go's {@code findRunnable}: local work, then the global queue, then stealing, then park. Returns null when the
     * carrier should re-check the pool state (it was woken, or the pool is stopping).
     */
    private Runnable findRunnable() {
        int t = tick + 1;
        TICK.setRelease(this, t);
        pool.timers.fireOwn(this);
        Runnable task;
        if (t % CarrierPool.GLOBAL_FAIRNESS_TICKS == 0 && (task = pool.global.poll()) != null) {
            return found(task);
        }
        if ((task = takeLocal()) != null || (task = takeGlobal()) != null) {
            return found(task);
        }
        if (pool.timers.fireAnyExpired(this) > 0 && (task = takeLocal()) != null) {
            return found(task);
        }
        if (tryBeginSearching() && (task = search()) != null) {
            return found(task);
        }
        return (task = park()) == null ? null : found(task);
    }

    private Runnable takeLocal() {
        Runnable task;
        if (runNextStreak < RUN_NEXT_LIMIT && (task = runQueue.pollRunNext()) != null) {
            runNextStreak++;
            return task;
        }
        runNextStreak = 0;
        if ((task = runQueue.poll()) != null) {
            return task;
        }
        return runQueue.pollRunNext();
    }

    /** Takes one task from the global queue and moves a fair share of the rest into the local queue. */
    private Runnable takeGlobal() {
        Runnable first = pool.global.poll();
        if (first != null) {
            int share = Math.min(pool.global.size() / pool.carriers.length, RunQueue.CAPACITY / 2);
            for (int i = 0; i < share; i++) {
                Runnable next = pool.global.poll();
                if (next == null) {
                    break;
                }
                if (!runQueue.offer(next)) {
                    pool.global.offer(next);
                    break;
                }
            }
        }
        return first;
    }

    /**
     * Go's {@code resetspinning}: a searcher that found work stops searching, and if it was the last searcher it
     * wakes another carrier, since submitters skipped waking anyone while it searched.
     */
    private Runnable found(Runnable task) {
        if (spinning) {
            spinning = false;
            if (pool.searching.decrementAndGet() == 0) {
                pool.wakep();
            }
        }
        return task;
    }

    /**
     * Bounded search: rounds over the global queue and every busy carrier, with spin and yield pauses as far as the
     * {@link SpinBudget} allows. Only a search that paused can tell a stuck carrier's runNext from a busy one's. It
     * spins instead of yielding when a timer falls due within {@link #YIELD_HORIZON_NANOS}.
     */
    private Runnable search() {
        SpinBudget budget = spinBudget;
        int rounds = budget.startSearch();
        for (int round = 0; round <= rounds; round++) {
            Runnable task = pool.global.isEmpty() ? null : takeGlobal();
            if (task == null) {
                task = stealPass(round == 0, round > 0 && round == rounds);
            }
            if (task != null) {
                budget.found(round);
                return task;
            }
            if (round < rounds) {
                budget.pause(round, pool.spin.yieldsAfter(round) && pool.timers.dueWithin(YIELD_HORIZON_NANOS));
            }
        }
        budget.wasted();
        return null;
    }

    /**
     * One pass over the busy carriers from a random start, skipping idle ones (seed 001): an idle carrier's queue
     * is empty, since a carrier only parks with an empty queue and only its owner pushes to it. In the last round
     * a victim's runNext is taken too, but only from a carrier whose tick has not moved since the first round: it
     * is stuck in one long task, and its runNext would otherwise wait for it.
     */
    private Runnable stealPass(boolean firstRound, boolean takeRunNext) {
        IdleSet idle = pool.idle;
        Carrier[] all = pool.carriers;
        int words = idle.wordCount();
        int s = seed;
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        seed = s;
        int startWord = Math.floorMod(s, words);
        int startBit = (s >>> 8) & 63;
        for (int k = 0; k < words; k++) {
            int w = (startWord + k) % words;
            long busy = idle.busyWord(w) & ~(w == index >>> 6 ? 1L << index : 0L);
            long rotated = Long.rotateRight(busy, startBit);
            while (rotated != 0) {
                int bit = (Long.numberOfTrailingZeros(rotated) + startBit) & 63;
                rotated &= rotated - 1;
                Carrier victim = all[(w << 6) + bit];
                int victimTick = (int) TICK.getAcquire(victim);
                if (firstRound) {
                    ticksAtSearchStart[victim.index] = victimTick;
                }
                Runnable task = victim.runQueue.stealInto(runQueue);
                if (task == null && takeRunNext && victimTick == ticksAtSearchStart[victim.index]) {
                    task = victim.runQueue.stealRunNext();
                }
                if (task != null) {
                    return task;
                }
            }
        }
        return null;
    }

    /** Go's "stop" path: {@link #prepareToPark()}, then sleep until woken; may return a stolen runNext task. */
    private Runnable park() {
        return prepareToPark() ? awaitWake() : null;
    }

    /**
     * The non-blocking half of parking. Publish the idle bit, leave the searching state, then look at every queue
     * once more: a submitter that pushed before our re-check is seen by it; one that pushed after it sees our idle
     * bit and no searcher, and wakes someone (package-info, "Parking"). Returns true when the carrier must now
     * sleep, false when the re-check found work and the carrier went back to searching.
     */
    boolean prepareToPark() {
        if (awaySince != 0) {
            pool.timers.watch.recordAway(System.nanoTime() - awaySince);
            awaySince = 0;
        }
        IdleSet idle = pool.idle;
        idle.add(index);
        if (spinning) {
            spinning = false;
            pool.searching.decrementAndGet();
        }
        if (workInSight()) {
            spinning = true;
            if (idle.tryRemove(index)) {
                pool.searching.incrementAndGet();
            }
            // else a waker cleared our bit first and already counted us as searching; its unpark is a spare
            // permit that makes one later park() return early, which the loop in awaitWake absorbs.
            return false;
        }
        if (snapshotRunNextOwners()) {
            watchRunNext();
        }
        spinBudget.parking();
        return true;
    }

    /**
     * Sleeps until a waker clears our idle bit (and counts us as searching), a timer falls due (then we clear our
     * own bit and get up to fire it, not searching), a busy carrier's runNext needs taking, or the pool stops.
     *
     * <p>runNext watch: runNext hand-offs wake nobody while some parked carrier watches, so a carrier that saw a busy
     * carrier's runNext occupied sleeps with a timeout (20 µs, doubling to 10 ms while the owners keep making
     * progress, like Go's sysmon backoff) and takes a runNext whose owner's tick stood still, i.e. an owner stuck
     * in one long task. Leaving the watch, it lowers the watcher count before its last look at the runNext slots;
     * a pusher writes runNext before reading the count: one of the two sees the other.
     */
    private Runnable awaitWake() {
        TimerWatch watch = pool.timers.watch;
        IdleSet idle = pool.idle;
        boolean coveredTimers = false;
        try {
            while (idle.contains(index) && !pool.isStopping()) {
                coveredTimers = watch.sleep(this, runNextGrace > 0 ? runNextGrace : IDLE_RECHECK_NANOS);
                if ((pool.timers.due() || workInSight()) && idle.tryRemove(index)) {
                    // Up to fire timers, or to take work nobody woke us for (IDLE_RECHECK_NANOS, or the backup's
                    // grace), and then perhaps to run a long task: the timers that remain need another idle carrier,
                    // the backup if it covers them, else one woken to take the watch.
                    if (coveredTimers) {
                        awaySince = System.nanoTime();
                        watch.handOffWatch(this);
                    }
                    return null;
                }
                if (runNextGrace > 0) {
                    Runnable stuck = stealStuckRunNext();
                    if (stuck != null) {
                        if (!idle.tryRemove(index)) {
                            spinning = true;
                        }
                        return stuck;
                    }
                    runNextGrace = Math.min(2 * runNextGrace, RUN_NEXT_GRACE_MAX_NANOS);
                    keepWatchingRunNextIfNeeded();
                }
            }
        } finally {
            unwatchRunNext();
        }
        if (!pool.isStopping()) {
            spinning = true;
            spinBudget.wokenToSearch();
            if (coveredTimers) {
                awaySince = System.nanoTime();
                watch.handOffWatch(this);
            }
        }
        return null;
    }

    /**
     * Stops watching when no busy carrier's runNext is occupied. Lowers the watcher count before the last look:
     * a pusher that read the count before we lowered it wrote its runNext before that, and our look sees it.
     * Returns whether this carrier still watches.
     */
    boolean keepWatchingRunNextIfNeeded() {
        if (!snapshotRunNextOwners()) {
            unwatchRunNext();
            if (snapshotRunNextOwners()) {
                watchRunNext();
            }
        }
        return runNextGrace != 0;
    }

    void watchRunNext() {
        if (runNextGrace == 0) {
            runNextGrace = RUN_NEXT_GRACE_MIN_NANOS;
            pool.runNextWatchers.incrementAndGet();
        }
    }

    private void unwatchRunNext() {
        if (runNextGrace != 0) {
            runNextGrace = 0;
            pool.runNextWatchers.decrementAndGet();
        }
    }

    /** Records the tick of every busy carrier whose runNext is occupied; true if there is one. */
    private boolean snapshotRunNextOwners() {
        boolean any = false;
        IdleSet idle = pool.idle;
        for (int i = idle.nextBusy(0); i >= 0; i = idle.nextBusy(i + 1)) {
            Carrier owner = pool.carriers[i];
            if (i != index && owner.runQueue.hasRunNext()) {
                ticksAtSearchStart[i] = (int) TICK.getAcquire(owner);
                any = true;
            }
        }
        return any;
    }

    /** Takes the runNext of a busy carrier whose tick has not moved since the snapshot, or returns null. */
    private Runnable stealStuckRunNext() {
        IdleSet idle = pool.idle;
        for (int i = idle.nextBusy(0); i >= 0; i = idle.nextBusy(i + 1)) {
            Carrier owner = pool.carriers[i];
            if (i != index && owner.runQueue.hasRunNext()
                    && (int) TICK.getAcquire(owner) == ticksAtSearchStart[i]) {
                Runnable task = owner.runQueue.stealRunNext();
                if (task != null) {
                    return task;
                }
            }
        }
        return null;
    }

    /** Owner: enters the searching state if the pool's cap allows (Go: at most half the busy carriers search). */
    boolean tryBeginSearching() {
        if (!spinning) {
            if (2 * pool.searching.get() >= pool.carriers.length - pool.idle.count()) {
                return false;
            }
            spinning = true;
            pool.searching.incrementAndGet();
        }
        return true;
    }

    /** Owner: true in the scheduling loop itself, false while a task runs. */
    boolean isBetweenTasks() {
        return current == null;
    }

    /**
     * Work an idle carrier can see: its own queue (empty by invariant when it parks; looked at in case the invariant
     * was broken), the global queue, or a busy carrier's queue. An idle carrier's queue is empty, so it is skipped.
     */
    boolean workInSight() {
        return runQueue.hasStealableWork() || runQueue.hasRunNext() || pool.hasGlobalWork() || anyBusyCarrierHasWork();
    }

    private boolean anyBusyCarrierHasWork() {
        IdleSet idle = pool.idle;
        for (int i = idle.nextBusy(0); i >= 0; i = idle.nextBusy(i + 1)) {
            if (i != index && pool.carriers[i].runQueue.hasStealableWork()) {
                return true;
            }
        }
        return false;
    }

    /** Waker side of the hand-off: the caller already cleared our idle bit and counted us as searching. */
    void unparkSearching() {
        LockSupport.unpark(this);
    }

    void unparkToStop() {
        LockSupport.unpark(this);
    }
}
