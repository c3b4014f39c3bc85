package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A carrier that lost its processor without knowing yet (its virtual thread still runs) wakes a thread into that
 * processor's runNext ({@code Carrier.pushLocal}, then {@code wakep} as {@code execute} does), while the
 * processor's new holder, out of work, goes to park with it ({@code Carrier.prepareToPark}). Nobody looks at an idle
 * processor's queue, so either the new holder's re-check sees the task or the pusher sees the processor idle and
 * wakes it. On the real pool, processor and spare code; nothing is started (the actors play the carriers and the
 * monitor; {@link HandOffVersusReturnStress#poolAtCap} says how the hand-off stays on a prepared spare).
 *
 * <p>A second processor's carrier is searching throughout: a pusher's {@code wakep} then wakes nobody, as in a busy
 * pool, so only the pusher's own look at the processor it pushed to can save the task.
 *
 * <p>Results: r1 = the new holder decided to sleep (1) or its re-check saw work (0); r2 = processor 0 is still marked
 * idle afterwards, i.e. nobody is going to wake it; r3 = the task waits in processor 0's runNext.
 *
 * <p>Mutants ({@code ./shuttle mutants StalePushVersusParkStress}; scheduler-stress/mutants/StalePushVersusParkStress):
 * {@code no-state-read-after-push}, forbidden "1, 1, 1" in 8 of 8 configurations of {@code -m quick -sc false} (4 of
 * {@link HandedOff}, 4 of {@link HandOffDuringPush}).
 */
public class StalePushVersusParkStress {

    /** The hand-off happened before: the pusher's state read always tells it that it lost the processor. */
    @JCStressTest
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the new holder's re-check saw the task; it stays awake")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the new holder sleeps; the pusher took its bit to wake it")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "lost wake-up: asleep idle with the task in its runNext")
    @Outcome(id = "0, 1, 1", expect = FORBIDDEN, desc = "awake but still marked idle: a later waker would pick it")
    @Outcome(expect = FORBIDDEN, desc = "the task is not in the runNext it was pushed to")
    @State
    public static class HandedOff {
        final Pair pair = new Pair();

        public HandedOff() {
            pair.handOff();
        }

        @Actor
        public void staleCarrierWakesThread() {
            pair.push();
        }

        @Actor
        public void newHolderParks(III_Result r) {
            r.r1 = pair.newHolder.prepareToPark() ? 1 : 0;
        }

        @Arbiter
        public void after(III_Result r) {
            pair.result(r);
        }
    }

    /**
     * The hand-off races with the push too: the monitor takes the processor, and its new holder, finding nothing,
     * goes to park (one actor, in program order). A pusher that still saw its own task in the state word pushed
     * before the hand-off, so the new holder's loop, started after it, must see the task.
     */
    @JCStressTest
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "the new holder's re-check saw the task; it stays awake")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the new holder sleeps; the pusher took its bit to wake it")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "lost wake-up: asleep idle with the task in its runNext")
    @Outcome(id = "0, 1, 1", expect = FORBIDDEN, desc = "awake but still marked idle: a later waker would pick it")
    @Outcome(expect = FORBIDDEN, desc = "the task is not in the runNext it was pushed to")
    @State
    public static class HandOffDuringPush {
        final Pair pair = new Pair();

        @Actor
        public void staleCarrierWakesThread() {
            pair.push();
        }

        @Actor
        public void monitorHandsOffThenNewHolderParks(III_Result r) {
            pair.handOff();
            r.r1 = pair.newHolder.prepareToPark() ? 1 : 0;
        }

        @Arbiter
        public void after(III_Result r) {
            pair.result(r);
        }
    }

    /** Processor 0 run by a carrier in a task, about to lose it to a prepared spare; carrier 1 searching. */
    static final class Pair {
        final CarrierPool pool = HandOffVersusReturnStress.poolAtCap(2);
        final Processor proc = pool.state.processors[0];
        final Carrier stale = (Carrier) proc.holder();
        final Carrier newHolder = HandOffVersusReturnStress.waitingSpare(pool, HandOffVersusReturnStress.SPARE_SERIAL);
        final long seenByMonitor;
        final Runnable woken = () -> { };

        Pair() {
            proc.beginTask(stale);
            seenByMonitor = proc.state();
            if (!((Carrier) pool.state.processors[1].holder()).tryBeginSearching()) {
                throw new IllegalStateException("a fresh pool must admit a searcher");
            }
        }

        /** The stale carrier's virtual thread wakes another, as {@code CarrierPool.execute} does on a carrier. */
        void push() {
            stale.pushLocal(proc, woken, woken);
            pool.idle.wakep();
        }

        /** The monitor hands processor 0 to the spare, and the spare takes it, as {@code Carrier.run} does. */
        void handOff() {
            if (!pool.handOff.retake(proc, seenByMonitor)) {
                throw new IllegalStateException("nobody else changes processor 0's state");
            }
            newHolder.p = newHolder.takeHanded();
        }

        void result(III_Result r) {
            r.r2 = pool.state.idle.contains(proc.index) ? 1 : 0;
            r.r3 = proc.runQueue.pollRunNext() == woken ? 1 : 0;
        }
    }
}
