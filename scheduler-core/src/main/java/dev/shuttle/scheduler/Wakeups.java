package dev.shuttle.scheduler;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Who gets a carrier up, and when (Go's {@code wakep}, {@code handoffp}, {@code entersyscall} and {@code
 * exitsyscall}): the protocol of package-info's "Waking" and "Parking" on the submitting side, and the hand-off of a
 * processor whose carrier is blocked. Everything that queues work or arms a timer ends here, and so does the monitor
 * when it finds work stuck; every unpark of a carrier that holds a processor goes through {@link #unpark}. This class
 * reads the {@link PoolState}, hands processors to {@link SpareCarriers} and wakes the monitor through its
 * {@link MonitorSignal}, and calls nothing above it.
 */
final class Wakeups {
    private final PoolState state;
    private final TimerDeadlines deadlines;
    private final SpareCarriers spares;
    private final MonitorSignal monitor;

    Wakeups(PoolState state, TimerDeadlines deadlines, SpareCarriers spares, MonitorSignal monitor) {
        this.state = state;
        this.deadlines = deadlines;
        this.spares = spares;
        this.monitor = monitor;
    }

    /**
     * The one place that unparks the carrier holding a processor (an idle processor's carrier sleeps with it): the
     * wakes below, the timer watch's nudges and hand-on, a resize retiring the processor, and the pool stopping. An
     * unpark only ends a park; what the woken carrier does is decided by what the caller published before it (its
     * idle bit cleared, a deadline, the retired flag, the stop), which the carrier reads when its park returns. A
     * spare carrier waiting for a processor is handed one and woken by {@link SpareCarriers} instead.
     */
    void unpark(Processor proc) {
        CarrierThread c = proc.holder();
        if (c != null) {
            LockSupport.unpark(c);
        }
    }

    /**
     * Go's {@code wakep}: wakes one idle carrier into the searching state, unless a carrier is already searching
     * (it will find the work, or re-check before it parks) or none is idle (every carrier will look at the queues
     * before it parks). The searching count is raised on the woken carrier's behalf before it is unparked, so two
     * submitters never both wake one. Returns whether it woke a carrier. With no idle processor but one whose carrier
     * sits in a marked blocking call, that processor goes to another carrier thread instead (Go's {@code handoffp}).
     *
     * <p>The raised count is a promise that a carrier will search, so a waker that then finds no idle bit (the carrier
     * it counted on cleared its own bit, up for a timer) has broken it: submitters that saw the count skipped waking
     * anyone, and a carrier may have parked meanwhile, its re-check done before their work was queued. Go closes this
     * with {@code sched.lock} around both the idle list and this look; here the waker lowers the count and then
     * looks at the queues and the timer heaps, as a parking carrier does: a submitter or arming thread that read the
     * raised count had queued its work or published its timer before, so the look sees it, and the waker tries again
     * (PhantomSearcherStress).
     */
    boolean wakep() {
        IdleSet idle = state.idle;
        for (;;) {
            if (idle.count() == 0) {
                return state.blocking.get() > 0 && retakeBlocked();
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
                monitor.processorBusy();
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
                return state.blocking.get() > 0 && retakeBlocked();
            }
        }
    }

    /** Wakes {@code proc}'s carrier into the searching state if {@code proc} is idle. */
    void wakeIfIdle(Processor proc) {
        if (state.idle.tryRemove(proc.index)) {
            state.searching.incrementAndGet();
            state.wakingSearchers.incrementAndGet();
            unpark(proc);
            monitor.processorBusy();
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
            monitor.processorBusy();
        }
    }

    /**
     * Go's {@code entersyscall} for a call the JDK marks as blocking: moves {@code proc} to phase BLOCKING, where the
     * monitor or a waker that finds no idle processor may hand it to another carrier. Returns false if {@code proc}
     * is no longer {@code self}'s. A CAS and a count only: nothing here can unmount the calling virtual thread.
     */
    boolean enterBlocking(Processor proc, CarrierThread self) {
        if (!proc.enterBlocking(self)) {
            return false;
        }
        state.blocking.incrementAndGet();
        return true;
    }

    /** Hands {@code proc}, just put in phase BLOCKING by {@code self}, to another carrier at once if work waits. */
    void handOffIfWorkWaits(Processor proc, CarrierThread self) {
        if (proc.hasWaitingWork(System.nanoTime()) || (state.idle.count() == 0 && state.hasGlobalWork())) {
            retake(proc, Processor.word(self, Processor.BLOCKING));
        }
    }

    /** Go's {@code exitsyscall}: takes {@code proc} back if nobody took it; returns false if it was taken. */
    boolean exitBlocking(Processor proc, CarrierThread self) {
        if (!proc.exitBlocking(self)) {
            return false;
        }
        state.blocking.decrementAndGet();
        return true;
    }

    /**
     * Moves {@code proc}, seen in {@code expected} (its carrier in a task or a marked blocking call), to another
     * carrier thread. Returns whether it did.
     */
    boolean retake(Processor proc, long expected) {
        if (!spares.handOff(proc, expected)) {
            return false;
        }
        if (Processor.phaseOf(expected) == Processor.BLOCKING) {
            state.blocking.decrementAndGet();
        }
        return true;
    }

    private boolean retakeBlocked() {
        for (Processor proc : state.processors) {
            long s = proc.state();
            if (Processor.phaseOf(s) == Processor.BLOCKING && retake(proc, s)) {
                return true;
            }
        }
        return false;
    }
}
