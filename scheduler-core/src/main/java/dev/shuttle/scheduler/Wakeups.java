package dev.shuttle.scheduler;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * Who gets a carrier up, and when (Go's {@code wakep}): the protocol of package-info's "Waking" and "Parking" on the
 * submitting side. Everything that queues work or arms a timer ends here, and so does the monitor when it finds work
 * stuck; every unpark of a carrier that holds a processor goes through {@link #unpark}. This class reads the {@link
 * PoolState}, asks {@link HandOff} to hand a blocked carrier's processor on when no carrier is idle, wakes the
 * monitor through its {@link MonitorSignal}, and calls nothing above it.
 */
final class Wakeups {
    private final PoolState state;
    private final TimerDeadlines deadlines;
    private final HandOff handOff;
    private final MonitorSignal monitor;

    Wakeups(PoolState state, TimerDeadlines deadlines, HandOff handOff, MonitorSignal monitor) {
        this.state = state;
        this.deadlines = deadlines;
        this.handOff = handOff;
        this.monitor = monitor;
    }

    /**
     * The one place that unparks the carrier holding a processor (an idle processor's carrier sleeps with it): the
     * wakes below, the timer watch's nudges and hand-on, a resize retiring the processor, and the pool stopping. An
     * unpark only ends a park; what the woken carrier does is decided by what the caller published before it (its
     * idle bit cleared, a deadline, the retired flag, the stop), which the carrier reads when its park returns. A
     * spare carrier waiting for a processor is handed one and woken by {@link HandOff} instead.
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
                return handOff.retakeBlocked();
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
}
