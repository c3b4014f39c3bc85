package dev.shuttle.scheduler.core;

import dev.shuttle.timers.TimerHeap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Idleness (Go's {@code wakep}, {@code stopm} and the sleep at the end of {@code findRunnable}): who sleeps, toward
 * which deadline, and whom each publication wakes. Both halves of every park/publish handshake are here: a carrier
 * going idle ({@link #goIdle}, {@link #awaitWake}), a searcher leaving the search ({@link #searcherFound}), the
 * monitor going to sleep ({@link #monitorMaySleep}); and on the other side the one wake entry point for "work was
 * published, make sure someone will look" ({@link #wakep}), the timer arm's ({@link #awakeBy}), and the one unpark of
 * a carrier ({@link #unpark}).
 *
 * <p>The recipe, the same in every handshake. Each side publishes first and looks second, both with volatile or
 * atomic accesses, so at least one of them sees the other:
 * <pre>
 *   sleeper:   publish "I sleep"  (idle bit, watchUntil, backup slot, monitor asleep, searching count lowered)
 *              look for work      (queues, runNext that stood still, timer heaps, idle set)
 *              sleep only if the look found nothing
 *   publisher: publish the work   (push, timer armed, heap unlocked, idle bit cleared)
 *              look for a sleeper (searching count, idle set, watchUntil, the slots, monitor asleep)
 *              wake it (unpark) unless a sleeper already covers the work ({@link TimerSleepers#covers})
 * </pre>
 * A publisher that looks before its work is visible, or a sleeper that looks before it published, loses a wake-up;
 * the jcstress tests named in package-info, "How each race is closed", check each pair. The sleeper's look is
 * {@link #workInSight}: its own queue, the global queue, a busy processor's queue, or a busy processor's runNext that
 * stood still since the last search ({@link Processor#stoodStill}). A sleeper that gives up a timer slot looks after
 * giving it up, so a publisher that counted on the slot and woke nobody is seen.
 *
 * <p>Whom a publication wakes. Work queued: one idle carrier, as a searcher, unless one already searches
 * ({@link #wakep}); with none idle, a processor whose carrier sits in a marked blocking call goes to another carrier
 * ({@link HandOff#retakeBlocked}). A timer armed: nobody if the watcher sleeps toward an earlier deadline; the
 * watcher if it sleeps too long; else an idle carrier, which becomes the watcher when it parks ({@link #awakeBy}).
 * Wake-ups for work the publishing carrier runs itself are skipped while a sleeper covers it within the grace and
 * carriers come back from timers quickly ({@link #coveredWithoutWake}). A processor leaving the idle set wakes the
 * monitor if it sleeps without a timeout ({@link #processorBusy}).
 *
 * <p>Who sleeps toward which deadline: an idle carrier with no timer pending parks until unparked; otherwise it tries
 * to become the watcher and parks until the earliest deadline, a little early by how late its own timed parks return,
 * and spins the rest; if another carrier watches, it sleeps as the backup if nobody holds that, else without timeout
 * ({@link #sleep}). The slots, the one test of whether a sleeper covers a deadline, and the timed sleeps themselves are
 * {@link TimerSleepers}': this class decides who sleeps and who wakes, that one holds the state the decisions read and
 * sleeps toward a deadline, parking but never waking anyone. The cut keeps every unpark of a carrier and every decision
 * to claim a slot here, and each class under ~500 lines.
 *
 * <p>It reads {@link PoolState}, {@link TimerDeadlines} and the processors, asks {@link HandOff} to hand a blocked
 * carrier's processor on, and calls nothing above it: the carriers, the executor, the timers, a resize and the
 * monitor call it. A spare carrier waiting for a processor is woken by {@link HandOff}, not here: it holds none yet.
 */
final class Idle {
    /** {@link #awaitWake}: the carrier got up by itself (a timer due, work seen) or the pool stops. */
    static final int UP = 0;
    /** {@link #awaitWake}: a waker cleared its idle bit and counted it as searching. */
    static final int WOKEN_TO_SEARCH = 1;
    /** {@link #awaitWake}: a resize retired the processor while its carrier slept. */
    static final int RETIRED = 2;
    /** {@link #awaitWake}: as {@link #RETIRED}, and the carrier held a timer slot. */
    static final int RETIRED_COVERING = 3;
    /**
     * Threads woken by a processor's own timers that its carrier runs alone while another idle carrier will be up
     * within the backup's grace (see {@link #afterFiredPush}); a larger batch wakes a helper at once.
     */
    static final int SMALL_FIRED_BATCH = 16;

    private final PoolState state;
    private final TimerDeadlines deadlines;
    private final HandOff handOff;
    /** The watcher and backup slots, and the test of whether they cover a deadline. */
    final TimerSleepers sleepers;
    /** The network poll, which one idle carrier sleeps in once the JDK's pollers are adopted. */
    final Netpoll netpoll;
    /** The monitor's thread; set once, while the pool is built (volatile: read only on the way to wake it). */
    private volatile Thread monitor;
    /** The monitor parks without a timeout while every processor is idle. */
    private volatile boolean monitorAsleep;

    Idle(PoolState state, TimerDeadlines deadlines, HandOff handOff, Netpoll netpoll) {
        this.state = state;
        this.deadlines = deadlines;
        this.handOff = handOff;
        this.netpoll = netpoll;
        this.sleepers = new TimerSleepers(state, deadlines, netpoll);
    }

    // ---- Waking: the publisher's side ----

    /**
     * The one place that unparks the carrier holding a processor (an idle processor's carrier sleeps with it). An
     * unpark only ends a park; what the woken carrier does is decided by what the caller published before it (its
     * idle bit cleared, a deadline, the retired flag, the stop), which the carrier reads when its park returns. A
     * carrier sleeping in the network poll is woken through its eventfd ({@link Netpoll#wake}).
     */
    void unpark(Processor proc) {
        CarrierThread c = proc.holder();
        if (c != null) {
            netpoll.wake(c);
        }
    }

    /**
     * The one wake entry point, Go's {@code wakep}: work was published, make sure someone will look. Wakes one idle
     * carrier into the searching state, unless a carrier is already searching (it will find the work, or re-check
     * before it parks) or none is idle (every carrier will look at the queues before it parks). The searching count
     * is raised on the woken carrier's behalf before it is unparked, so two submitters never both wake one. Returns
     * whether it woke a carrier. With no idle processor but one whose carrier sits in a marked blocking call, that
     * processor goes to another carrier thread instead (Go's {@code handoffp}).
     *
     * <p>The raised count is a promise that a carrier will search, so a waker that then finds no idle bit (the carrier
     * it counted on cleared its own bit, up for a timer) has broken it: submitters that saw the count skipped waking
     * anyone, and a carrier may have parked meanwhile, its re-check done before their work was queued. Go closes this
     * with {@code sched.lock} around both the idle list and this look; here the waker lowers the count and then
     * looks at the queues and the timer heaps, as a parking carrier does (PhantomSearcherStress).
     */
    boolean wakep() {
        IdleSet idle = state.idle;
        for (;;) {
            if (idle.count() == 0) {
                return handOff.retakeBlocked();
            }
            if (state.searching.get() != 0 || !state.searching.compareAndSet(0, 1)) {
                return false;
            }
            Processor[] all = state.processors;
            int i = idle.pollAny(ThreadLocalRandom.current().nextInt(all.length), all.length);
            // Any idle carrier will do, including the timer watcher: it hands its watch to another idle carrier.
            if (i >= 0) {
                state.wakingSearchers.incrementAndGet();
                unpark(all[i]);
                processorBusy();
                return true;
            }
            state.searching.decrementAndGet();
            if (!state.hasQueuedWork() && !deadlines.anyPending()) {
                return false;
            }
            // The count may hold bits of processors a shrink is retiring, past the bound: trying again would spin
            // until their carriers give them up. A carrier that sets its bit after this look re-checks the queues
            // after it, so it sees the work of every submitter that counted on us.
            if (idle.nextIdle(0, state.processors.length) < 0) {
                return handOff.retakeBlocked();
            }
        }
    }

    /** Wakes {@code proc}'s carrier into the searching state if {@code proc} is idle (after a stale push to it). */
    void wakeIfIdle(Processor proc) {
        if (state.idle.tryRemove(proc.index)) {
            state.searching.incrementAndGet();
            state.wakingSearchers.incrementAndGet();
            unpark(proc);
            processorBusy();
        }
    }

    /** The monitor's rescue: wakes an idle carrier into the searching state whatever the searching count says. */
    void wakeAny() {
        Processor[] all = state.processors;
        int i = state.idle.pollAny(0, all.length);
        if (i >= 0) {
            state.searching.incrementAndGet();
            state.wakingSearchers.incrementAndGet();
            unpark(all[i]);
            processorBusy();
        }
    }

    /**
     * A searcher found work and leaves the searching state (Go's {@code resetspinning}, waking only for work in
     * sight): if it was the last searcher it wakes another carrier when a task is still queued anywhere or a timer is
     * pending, since submitters skipped waking anyone while it searched. Lowering the count comes before the look,
     * and a submitter pushes before it reads the count (FoundVersusSubmitStress).
     */
    void searcherFound() {
        if (state.searching.decrementAndGet() == 0 && (state.hasQueuedWork() || deadlines.anyPending())) {
            wakep();
        }
    }

    /**
     * Makes sure some carrier is awake by {@code deadline}, just published in a heap: nobody is woken if the watcher
     * sleeps toward an earlier or equal deadline; if it sleeps longer it is unparked to sleep less; with no watcher,
     * an idle carrier is woken (it becomes the watcher when it parks). Carrier {@code selfFiring} (if not {@link
     * TimerSleepers#NO_ONE}) fires the timer itself before its next task, so it wakes nobody while another idle
     * carrier will be up within the grace ({@link #coveredWithoutWake}). Returns whether it woke a carrier.
     */
    boolean awakeBy(long deadline, boolean onCarrier, int selfFiring) {
        if (sleepers.covers(deadline, TimerSleepers.NO_ONE, 0, false)) {
            return false;
        }
        if (selfFiring != TimerSleepers.NO_ONE && coveredWithoutWake(deadline, selfFiring)) {
            return false;
        }
        int w = sleepers.watcher();
        if (w != TimerSleepers.NO_ONE) {
            unpark(state.processorAt(w));
            return true;
        }
        if (!onCarrier || state.idle.count() > 0) {
            return wakep();
        }
        return false;
    }

    /**
     * Whether work that carrier {@code self} published before calling (a timer it fires itself, threads its timers
     * woke) may be left without waking anyone: carriers that get up for timers have lately come back quickly, and an
     * idle carrier other than {@code self}, the watcher or the backup, will be up within the maximum grace of
     * {@code deadline}. If {@code self} then gets stuck, that carrier finds the work when it wakes.
     */
    boolean coveredWithoutWake(long deadline, int self) {
        return sleepers.mayCountOnSleepers()
                && sleepers.covers(deadline, self, TimerSleepers.MAX_GRACE_NANOS, true);
    }

    /**
     * Wakes a helper for threads that {@code proc}'s own timers woke and queued on it ({@code queued} tasks now),
     * beyond the one its carrier runs next; not for a small batch while a sleeper covers it ({@link
     * #coveredWithoutWake}): waking a parked carrier costs more than running a few short threads, and if one of them
     * runs long that sleeper wakes within the grace and takes what is queued behind it (BackupSlotStress). Returns
     * whether it woke a carrier.
     */
    boolean afterFiredPush(Processor proc, int queued) {
        return queued > 1 && (queued > SMALL_FIRED_BATCH
                || !coveredWithoutWake(System.nanoTime(), proc.index)) && wakep();
    }

    /**
     * A carrier that held a timer slot left the idle set (to fire timers or to run work): timers may still be pending
     * with nobody sleeping toward them. Unless a sleeper covers the earliest, unpark another idle carrier (without
     * taking its bit) so that it re-computes its sleep and takes over the watch. The leaving carrier gave its slot up
     * before this look; a carrier that gives up its slot after it re-reads the slots and the heaps before sleeping
     * again. Returns the carrier unparked, or -1.
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
                unpark(all[i]);
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether an idle carrier sleeps with a timeout that ends by {@code deadline} (the watcher) or within the grace
     * after it (the backup): the kernel wakes that carrier for the timer, however late the OS then runs it. For the
     * monitor, which must not take such a timer for a lost wake-up.
     */
    boolean sleepsToward(long deadline) {
        return sleepers.covers(deadline, TimerSleepers.NO_ONE, 0, true);
    }

    /**
     * A processor left the idle set: wake the monitor if it sleeps without a timeout ({@link #monitorMaySleep} is the
     * other half; MonitorSleepVersusBusyStress).
     */
    void processorBusy() {
        if (monitorAsleep) {
            monitorAsleep = false;
            LockSupport.unpark(monitor);
        }
    }

    // ---- Sleeping: the sleeper's side ----

    /**
     * A carrier going idle, the publishing half of parking (Go's "stop" path): publish the idle bit, leave the
     * searching state ({@code searching}: it was counted), then look at every queue once more. A submitter that pushed
     * before the look is seen by it; one that pushed after it sees the idle bit and no searcher, and wakes someone
     * (ParkVersusSubmitStress). Returns true when the carrier must now sleep ({@link #awaitWake}), false when the look
     * found work and the carrier is counted as searching again. Its own return from timers is recorded first.
     */
    boolean goIdle(Processor proc, boolean searching) {
        if (proc.awaySince != 0) {
            sleepers.recordAway(System.nanoTime() - proc.awaySince);
            proc.awaySince = 0;
        }
        IdleSet idle = state.idle;
        idle.add(proc.index);
        if (searching) {
            state.searching.decrementAndGet();
        }
        if (workInSight(proc)) {
            if (idle.tryRemove(proc.index)) {
                state.searching.incrementAndGet();
                processorBusy();
            } else {
                // A waker cleared our bit first and already counted us as searching: we are up, not its promise.
                // Its unpark is a spare permit that makes one later park() return early, which awaitWake absorbs.
                state.wakingSearchers.decrementAndGet();
            }
            return false;
        }
        return true;
    }

    /**
     * Sleeps until a waker clears {@code proc}'s idle bit (and counts its carrier as searching: {@link
     * #WOKEN_TO_SEARCH}), a timer falls due or work is seen (then the carrier clears its own bit and gets up, not
     * searching: {@link #UP}), a resize retires the processor ({@link #RETIRED}, {@link #RETIRED_COVERING}; the bit is
     * the caller's to clear), or the pool stops ({@link #UP}). An idle processor keeps its carrier: the carrier sleeps
     * here with it, so a wake-up is one unpark.
     */
    int awaitWake(Processor proc) {
        IdleSet idle = state.idle;
        boolean coveredTimers = false;
        while (idle.contains(proc.index) && !state.isStopping()) {
            proc.parks++;
            coveredTimers = sleep(proc);
            if (proc.retired) {
                return coveredTimers ? RETIRED_COVERING : RETIRED;
            }
            if ((deadlines.due() || proc.readyPollers != 0 || workInSight(proc)) && idle.tryRemove(proc.index)) {
                proc.wakeUps++;
                // Up to fire timers, to poll the pollers its sleep found ready, or to take work seen (the backup's
                // grace), and then perhaps to run a long task:
                // the timers that remain need another idle carrier, the backup if it covers them, else one woken to
                // take the watch.
                processorBusy();
                if (coveredTimers) {
                    proc.awaySince = System.nanoTime();
                    handOffWatch(proc);
                }
                return UP;
            }
        }
        if (state.isStopping()) {
            return UP;
        }
        proc.wakeUps++;
        processorBusy();
        state.wakingSearchers.decrementAndGet();
        // Sooner than the last full search lasted: spinning would have caught the work (SearchBackoff).
        long parkedAt = proc.parkedAt;
        proc.backoff.wokenToSearch(parkedAt != 0L && System.nanoTime() - parkedAt < proc.fullSearchNanos);
        if (coveredTimers) {
            proc.awaySince = System.nanoTime();
            handOffWatch(proc);
        }
        return WOKEN_TO_SEARCH;
    }

    /**
     * Work an idle carrier can see: its own queue (empty by invariant when it parks; looked at in case the invariant
     * was broken), the global queue, a busy processor's queue, or a busy processor's runNext that stood still since
     * {@code self}'s last search first saw it ({@link Processor#stoodStill}): its pusher saw a searcher and woke
     * nobody, so parking past it would leave it to the monitor (ParkVersusSubmitStress.RunNextFromSearching). A
     * runNext whose owner has moved on is left to the owner. An idle processor's queue is empty, so it is skipped.
     */
    boolean workInSight(Processor self) {
        if (!self.runQueue.isEmpty() || state.hasGlobalWork()) {
            return true;
        }
        IdleSet idle = state.idle;
        Processor[] all = state.processors;
        for (int i = idle.nextBusy(0, all.length); i >= 0; i = idle.nextBusy(i + 1, all.length)) {
            Processor victim = all[i];
            if (i != self.index && (victim.runQueue.hasStealableWork() || victim.runQueue.hasRunNext()
                    && victim.stoodStill(victim.tick(), self.ticksAtSearchStart))) {
                return true;
            }
        }
        return false;
    }

    /**
     * An idle carrier's sleep. With no timer pending it parks until unparked. Otherwise it tries to become the
     * watcher and sleeps toward the earliest deadline; if another carrier watches an earlier or equal deadline it
     * sleeps as the backup if nobody holds that, else without timeout ({@link TimerSleepers} sleeps the timed ones).
     * Returns when unparked or when its time passed, telling whether it held a timer slot; the caller re-checks its
     * idle bit.
     */
    boolean sleep(Processor self) {
        long until = watchDeadline(self);
        if (until != TimerHeap.NONE) {
            sleepers.sleepAsWatcher(self, until);
            return true;
        }
        long at = backupDeadline(self);
        if (at == TimerHeap.NONE) {
            netpoll.sleep(self, this, -1);
            return false;
        }
        sleepers.sleepAsBackup(self, at);
        return true;
    }

    /**
     * The non-blocking half of a backup's {@link #sleep}: claims the backup if a timer is pending and nobody holds it,
     * returning the time to sleep until, else {@link TimerHeap#NONE}.
     */
    long backupDeadline(Processor self) {
        long now = System.nanoTime();
        long earliest = deadlines.earliest(now);
        return earliest == TimerHeap.NONE ? TimerHeap.NONE : sleepers.claimBackup(self.index, earliest, now);
    }

    /**
     * The non-blocking half of {@link #sleep}: becomes the watcher if there is a timer and no watcher sleeps toward
     * an earlier or equal deadline, publishes {@code watchUntil}, then reads every heap again (an arm that missed the
     * published value was published before this read: TimerArmVersusWatcherStress). Returns the deadline to sleep
     * toward, or {@link TimerHeap#NONE} when this carrier does not watch.
     */
    long watchDeadline(Processor self) {
        long until = deadlines.earliest(System.nanoTime());
        if (until == TimerHeap.NONE || !becomeWatcher(self.index, until)) {
            return TimerHeap.NONE;
        }
        long again = deadlines.earliest(System.nanoTime());
        if (TimerHeap.isEarlier(again, until)) {
            until = again;
            sleepers.watchEarlier(until);
        }
        return until;
    }

    private boolean becomeWatcher(int index, long until) {
        int w = sleepers.watcher();
        if (w == TimerSleepers.NO_ONE) {
            return sleepers.claimWatch(index, until);
        }
        if (TimerHeap.isEarlier(until, sleepers.watchUntil())) {
            // The watcher sleeps too long for this deadline (it parked before the timer was armed and the arming
            // thread's unpark is still on its way, or was absorbed): nudge it to re-compute.
            unpark(state.processorAt(w));
        }
        return false;
    }

    // ---- The monitor's sleep ----

    void attachMonitor(Thread monitor) {
        this.monitor = monitor;
    }

    /**
     * The monitor's publishing half of sleeping without a timeout: publish {@code monitorAsleep}, then look once
     * more. A carrier that left the idle set before the publication is seen by the look; one that leaves after it
     * sees the flag in {@link #processorBusy} (MonitorSleepVersusBusyStress). Returns true when the monitor must now
     * park until woken ({@link #monitorAsleep}).
     */
    boolean monitorMaySleep() {
        if (!nothingToWatch()) {
            return false;
        }
        monitorAsleep = true;
        if (!nothingToWatch()) {
            monitorAsleep = false;
            return false;
        }
        return true;
    }

    /** Whether the monitor sleeps without a timeout and no busy processor has woken it yet. */
    boolean monitorAsleep() {
        return monitorAsleep;
    }

    /**
     * Every processor in use idle, nothing queued, no timer pending. The idle set is asked for a busy processor below
     * the bound rather than compared by count: during a shrink the count still holds the bits of retiring processors,
     * and a count equal to the new size would put the monitor to sleep beside a busy processor.
     */
    private boolean nothingToWatch() {
        return state.idle.nextBusy(0, state.processors.length) < 0 && !deadlines.anyPending()
                && !state.hasQueuedWork();
    }
}
