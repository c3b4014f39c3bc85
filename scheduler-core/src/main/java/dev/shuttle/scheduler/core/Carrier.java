package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.jdk.CarrierHooksTransformer;
import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

import java.lang.System.Logger.Level;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

/**
 * The carrier loop (Go's {@code schedule} and {@code findRunnable} on an M): runs the scheduling loop of the
 * {@link Processor} its thread holds, and virtual threads on it. Without a processor (it was handed to another carrier
 * while this one was stuck) it finishes the virtual thread it runs, then waits as a spare in {@link HandOff}
 * until it is given one or its keep-alive runs out. What other threads may read or hand it is in
 * {@link CarrierThread}; this class is the top of the call graph below the executor, and nothing it calls calls it.
 * Going to sleep and being woken are {@link Idle}'s (this loop asks it to publish its idle bit and look, then to
 * sleep); entering and leaving a blocking call are {@link HandOff}'s.
 *
 * <p>Fields marked "owner" are read and written by this thread only.
 *
 * <p>It answers the JDK's questions about its carrier through {@link IntPredicate}, the one interface code in
 * {@code java.base} can call on it (Shuttle's classes are not visible there): {@link CarrierHooksTransformer} makes
 * {@code ForkJoinWorkerThread.hasKnownQueuedWork} and {@code jdk.internal.misc.Blocker} ask a carrier that is an
 * {@code IntPredicate}.
 */
final class Carrier extends CarrierThread implements IntPredicate {
    private static final System.Logger LOG = System.getLogger("dev.shuttle.scheduler");
    /** Go's {@code schedtick % 61}: how often a carrier serves the global queue before its own. */
    static final int GLOBAL_FAIRNESS_TICKS = 61;
    /**
     * Consecutive runNext picks before the queue gets a turn: Tokio's {@code MAX_LIFO_POLLS_PER_TICK}. A thread queued
     * behind a hand-off pair waits for this many of its hand-offs per queue turn; Go bounds the pair only by the time
     * slice it shares. The limit was chosen on ChannelProducerConsumer's item latency (docs/design.md, "Where a task
     * goes", fairness).
     */
    static final int RUN_NEXT_LIMIT = 3;
    private static final long RECOVERY_PAUSE_NANOS = 1_000_000;
    /**
     * How often a parking carrier reads its involuntary switch count at most: the kernel preempts at its scheduler
     * tick (1-4 ms on Linux), so reading more often learns nothing sooner.
     */
    private static final long SWITCHES_READ_INTERVAL_NANOS = 1_000_000;

    private final HandOff handOff;
    private final Idle idle;
    private final Resize resize;
    private final TimerService timers;
    /** Owner: the stamps of the hand-offs this carrier's thread makes, on any scheduler ({@code CarrierPool.execute}). */
    final HandOffStamps stamps = new HandOffStamps();
    /** Owner: whether this carrier is counted in {@code state.searching}. */
    private boolean spinning;
    /** Owner: whether the spins this carrier advised have been paying. */
    private final SpinAdvice advice = new SpinAdvice();
    /** Owner: inside a marked blocking call that moved the processor to phase BLOCKING. */
    private boolean blocking;
    /** Owner: woken to search and has not found a task since; parking with it set counts an empty wake-up. */
    private boolean wokenToSearch;
    /** Owner: reads this thread's involuntary context switches. */
    private final InvoluntarySwitches switches = new InvoluntarySwitches();
    /** Owner: that count when this carrier last read it (as it started or parked), or {@code UNAVAILABLE}. */
    private long switchesAtLastPark = InvoluntarySwitches.UNAVAILABLE;
    /** Owner: when it was read. */
    private long switchesReadAt;

    Carrier(PoolState state, HandOff handOff, Idle idle, Resize resize, TimerService timers, ThreadGroup group,
            int serial, Processor initial) {
        super(state, group, serial, initial);
        this.handOff = handOff;
        this.idle = idle;
        this.resize = resize;
        this.timers = timers;
    }

    @Override
    public void run() {
        recordActivity();
        TimerSlack.lowerForCurrentThread();
        switchesAtLastPark = switches.read();
        switchesReadAt = System.nanoTime();
        try {
            while (!state.isStopping()) {
                if (p == null) {
                    p = handOff.awaitProcessor(this);
                    if (p == null) {
                        return;
                    }
                    continue;
                }
                Runnable task;
                try {
                    task = findRunnable(p);
                } catch (Throwable e) {
                    report("finding work", e);
                    recover();
                    continue;
                }
                if (task != null) {
                    runTask(p, task);
                }
            }
        } finally {
            handOff.ended(this);
        }
    }

    private void runTask(Processor proc, Runnable queued) {
        Runnable task = SchedulingDelays.starting(state.name, proc, queued);
        current = task;
        proc.beginTask(this);
        proc.tasksRun++;
        try {
            task.run();
        } catch (Throwable e) {
            report("running " + task, e);
        } finally {
            current = null;
        }
        advice.unmounted();
        if (!endTask(proc)) {
            p = null;
            lostProcessor(proc);
        }
        Thread vthread = JdkVirtualThreads.threadOf(task);
        if (vthread != null && JdkVirtualThreads.state(vthread) == JdkVirtualThreads.TERMINATED) {
            state.threads.finished(vthread);
        }
    }

    /**
     * Back to phase LOOP after a task; false if {@code proc} went to another carrier meanwhile. A virtual thread
     * that yielded inside a marked blocking call (the JDK allows it) leaves the processor in phase BLOCKING: the call
     * is over as far as this carrier is concerned, and the thread's own {@code Blocker.end} will find nothing to undo.
     */
    private boolean endTask(Processor proc) {
        if (p != proc) {
            return false;
        }
        if (!blocking) {
            return proc.endTask(this);
        }
        blocking = false;
        return handOff.exitBlocking(proc, this) && proc.endTask(this);
    }

    /**
     * Puts the carrier back in a state it can serve from after {@link #findRunnable} failed part-way (an
     * OutOfMemoryError in a queue, say): not idle. Without this, a failure after the idle bit was published would
     * make every later park fail with "already idle". A brief pause keeps a persistent failure from turning into a
     * hot loop of log records.
     */
    private void recover() {
        try {
            Processor proc = p;
            if (proc != null) {
                state.idle.tryRemove(proc.index);
            }
            LockSupport.parkNanos(RECOVERY_PAUSE_NANOS);
        } catch (Throwable ignored) {
            // Nothing left to restore; the next round of the loop tries again.
        }
    }

    private void report(String what, Throwable e) {
        LOG.log(Level.ERROR, () -> getName() + ": failure while " + what + "; the carrier keeps serving", e);
    }

    /**
     * The JDK's questions, asked through the hooks {@link CarrierHooksTransformer} adds to {@code java.base}, on the
     * virtual thread mounted here: {@link CarrierHooksTransformer#QUEUED_WORK} (may a waiter spin, or is work queued
     * behind it?), {@link CarrierHooksTransformer#BEGIN_BLOCKING} and {@link CarrierHooksTransformer#END_BLOCKING}
     * (Go's {@code entersyscall} and {@code exitsyscall}).
     */
    @Override
    public boolean test(int question) {
        switch (question) {
            case CarrierHooksTransformer.QUEUED_WORK -> {
                // A waiter that hears "no" spins before it parks; "yes" makes it park at once so that this carrier
                // runs the queued work. A task in runNext alone counts only while no carrier is up and searching: a
                // searcher takes the runNext of a processor whose task keeps running (WorkSearch.stealPass), so the
                // woken partner runs on the other carrier while the waiter spins, and the pair meets without parking
                // again, as it does on the JDK's pool. A searcher a waker has only promised (unparked, not yet on a
                // core) may come later than the whole spin, and then the waiter spins for nothing before it parks.
                // That bet is off while this carrier's advised spins keep running out (SpinAdvice).
                Processor proc = p;
                if (proc == null) {
                    return false;
                }
                boolean queued = proc.runQueue.hasStealableWork()
                        || proc.runQueue.hasRunNext() && (!state.searcherUp() || !advice.mayBet());
                advice.answered(!queued);
                return queued;
            }
            case CarrierHooksTransformer.BEGIN_BLOCKING -> {
                Processor proc = p;
                if (blocking || proc == null || !handOff.enterBlocking(proc, this)) {
                    return false;
                }
                // Recorded before the hand-off: handing off may start a thread, and the virtual thread running
                // this may unmount on the way (class loading takes monitors). Then this carrier's endTask sees
                // the blocking call and takes the processor back if the hand-off has not happened yet, and the
                // hand-off, resumed on another carrier, finds the state changed and gives up.
                blocking = true;
                handOff.handOffIfWorkWaits(proc, this);
                return true;
            }
            case CarrierHooksTransformer.END_BLOCKING -> {
                Processor proc = p;
                if (blocking) {
                    blocking = false;
                    if (!handOff.exitBlocking(proc, this)) {
                        p = null;
                    }
                }
                return false;
            }
            default -> throw new IllegalArgumentException("unknown carrier question " + question);
        }
    }

    /**
     * Queues a task submitted from a virtual thread running here: into runNext, or at the tail when the carrier's own
     * thread re-submits itself. {@code queued} is {@code task} or its stamp ({@link HandOffStamps}).
     *
     * <p>{@code proc} may already belong to another carrier (see {@link Processor}): the push itself is safe for any
     * thread, but that carrier may have parked with {@code proc} idle, and nobody looks at an idle processor's queue
     * (package-info, "Ownership"). So after the push (an atomic swap or a queue CAS, both full fences) the carrier
     * reads {@code proc}'s state: still its own task, then any later hand-off starts the new holder's loop after the
     * push and it sees the task; not, then it wakes {@code proc} if idle. The new holder publishes its idle bit before
     * it looks at its queue for the last time, so one of the two sees the other.
     */
    void pushLocal(Processor proc, Runnable task, Runnable queued) {
        Runnable toQueue = task == current ? queued : proc.runQueue.putRunNext(queued);
        if (toQueue != null) {
            proc.runQueue.offerOrOverflow(toQueue);
        }
        if (proc.state() != Processor.word(this, Processor.TASK)) {
            afterStalePush(proc);
        }
    }

    /**
     * After a push to {@code proc} from this carrier that no longer holds it ({@link #pushLocal}): a retired
     * processor's work moves on at once; otherwise its new holder is woken if idle. The pusher pushed, then read the
     * state, then the flag; a resize raises the flag, then takes the state by CAS, then drains: either the pusher's
     * state read came before that CAS and the resize's drain sees the task, or the pusher sees the flag
     * ({@code RetireVersusPushStress}).
     */
    private void afterStalePush(Processor proc) {
        if (proc.retired) {
            resize.drain(proc);
        } else {
            idle.wakeIfIdle(proc);
        }
    }

    /**
     * This carrier learned, after its task, that {@code proc} went to another carrier meanwhile. Timers it armed on
     * {@code proc}'s heap from its own thread skipped the due-timer check, counting on firing them before its next
     * task ({@code TimerService.arm}); the new holder may have passed over them while the heap was locked, so look
     * once more, as a lock holder releasing does. The failed CAS that told of the loss ordered this look after the
     * unlock. A processor retired by a resize is drained instead: everything this carrier pushed or armed there came
     * before this call, on this thread.
     */
    private void lostProcessor(Processor proc) {
        if (proc.retired) {
            resize.drain(proc);
        } else {
            timers.recheckDue(proc.timers);
        }
    }

    /**
     * Go's {@code findRunnable}: local work, then the global queue, then due timers, then the network poll without
     * blocking, then stealing, then park. Returns null when the
     * carrier should re-check the pool state (it was woken, or the pool is stopping).
     */
    private Runnable findRunnable(Processor proc) {
        int t = proc.nextTick();
        timers.fireOwn(proc);
        Runnable task;
        if (t % GLOBAL_FAIRNESS_TICKS == 0 && (task = state.global.poll()) != null) {
            return found(task);
        }
        if ((task = takeLocal(proc)) != null || (task = WorkSearch.takeGlobal(state, proc)) != null) {
            return found(task);
        }
        if (timers.fireAnyExpired(proc) > 0 && (task = takeLocal(proc)) != null) {
            return found(task);
        }
        // Go's netpoll(0) before stealing: threads whose sockets are ready queue here, as woken timers do.
        if (idle.netpoll.pollReady(this, proc) > 0 && (task = takeLocal(proc)) != null) {
            return found(task);
        }
        if (tryBeginSearching() && (task = WorkSearch.search(state, proc)) != null) {
            return found(task);
        }
        return prepareToPark() ? awaitWake(proc) : null;
    }

    private static Runnable takeLocal(Processor proc) {
        Runnable task;
        if (proc.runNextStreak < RUN_NEXT_LIMIT && (task = proc.runQueue.pollRunNext()) != null) {
            proc.runNextStreak++;
            return task;
        }
        proc.runNextStreak = 0;
        if ((task = proc.runQueue.poll()) != null) {
            return task;
        }
        return proc.runQueue.pollRunNext();
    }

    /**
     * Go's {@code resetspinning}, but waking only for work in sight: a searcher that found work stops searching, and
     * if it was the last searcher it wakes another carrier when a task is still queued anywhere or a timer is pending
     * ({@link Idle#searcherFound}). Go wakes one whatever is left, to reach full parallelism sooner; when tasks arrive
     * one at a time from outside (a server's dispatcher thread) every such wake is empty: the woken carrier searches,
     * finds nothing and parks, a wake-up, a search and a park per request (docs/design.md, "Searching and the wake
     * rule").
     */
    private Runnable found(Runnable task) {
        if (spinning) {
            stopSearching();
        }
        return task;
    }

    /** Owner: leaves the searching state with a task in hand ({@link #found}). */
    void stopSearching() {
        spinning = false;
        wokenToSearch = false;
        p.backoff.stoppedSearching();
        idle.searcherFound();
    }

    /**
     * The non-blocking half of parking: unless {@code proc} was retired, publish the idle bit and look once more
     * ({@link Idle#goIdle}, which holds the handshake). Returns true when the carrier must now sleep, false when the
     * look found work and the carrier went back to searching. Before a sleep it counts an empty wake-up, notes its
     * involuntary switches, and marks when it parked for the search back-off.
     */
    boolean prepareToPark() {
        Processor proc = p;
        if (proc.retired) {
            giveUpRetired(proc, false, false);
            return false;
        }
        boolean searching = spinning;
        spinning = false;
        if (!idle.goIdle(proc, searching)) {
            spinning = true;
            return false;
        }
        if (wokenToSearch) {
            wokenToSearch = false;
            proc.emptyWakeUps++;
        }
        noteSwitches(proc);
        proc.parkedAt = proc.backoff.parking() && proc.fullSearchNanos > 0L ? System.nanoTime() : 0L;
        return true;
    }

    /**
     * Before a park, the one moment a carrier is about to give up its core anyway: counts the involuntary switches
     * since this carrier last read them into {@code proc}'s counter and, if there were any, tells the search back-off
     * that the core is wanted by other threads. A switch while a task ran counts as much as one while the carrier
     * spun: either says that a spin now would hold a core that another runnable thread is waiting for. Read at most
     * once per {@link #SWITCHES_READ_INTERVAL_NANOS}: a carrier that parks after nearly every hand-off (the Wakeup
     * benchmark; docs/design.md, "Spinning and parking") would otherwise pay a system call per park, and the count is
     * cumulative, so reading less often loses nothing, it only tells later.
     */
    private void noteSwitches(Processor proc) {
        long now = System.nanoTime();
        if (now - switchesReadAt < SWITCHES_READ_INTERVAL_NANOS) {
            return;
        }
        switchesReadAt = now;
        long count = switches.read();
        long last = switchesAtLastPark;
        switchesAtLastPark = count;
        if (count != InvoluntarySwitches.UNAVAILABLE && last != InvoluntarySwitches.UNAVAILABLE && count > last) {
            proc.involuntarySwitches += count - last;
            proc.backoff.contended();
        }
    }

    /**
     * Sleeps in {@link Idle#awaitWake} until a waker clears our idle bit (we come back counted as searching), a timer
     * falls due or work is seen (we got up ourselves, not searching), a resize retires the processor, or the pool
     * stops.
     */
    private Runnable awaitWake(Processor proc) {
        switch (idle.awaitWake(proc)) {
            case Idle.WOKEN_TO_SEARCH -> {
                spinning = true;
                wokenToSearch = true;
            }
            case Idle.RETIRED -> giveUpRetired(proc, true, false);
            case Idle.RETIRED_COVERING -> giveUpRetired(proc, true, true);
            default -> {
            }
        }
        return null;
    }

    /**
     * A resize retired {@code proc} while this carrier held it in its loop: give it up and wait as a spare. With
     * {@code idleBit} the carrier slept idle: its bit is still set, or a waker cleared it and counted it as searching.
     */
    private void giveUpRetired(Processor proc, boolean idleBit, boolean coveredTimers) {
        boolean wokenByWaker = idleBit && !state.idle.tryRemove(proc.index);
        if (wokenByWaker) {
            state.wakingSearchers.decrementAndGet();
        }
        boolean counted = spinning || wokenByWaker;
        spinning = false;
        p = null;
        resize.givenUp(proc, counted, coveredTimers);
    }

    /** Owner: enters the searching state if the pool's cap allows (Go: at most half the busy processors search). */
    boolean tryBeginSearching() {
        if (!spinning) {
            if (2 * state.searching.get() >= state.busy()) {
                return false;
            }
            spinning = true;
            state.searching.incrementAndGet();
        }
        return true;
    }
}
