package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A processor's hand-off versus its carrier coming back, on the real pool, processor and spare code (nothing is
 * started: the actors play the carrier and the monitor). The pool's {@code maxCarriers} equals its parallelism, so a
 * hand-off cannot start a new thread: it must use the one spare prepared here, a {@link Carrier} that waits in
 * {@link HandOff} without a thread of its own (its unpark is a no-op), and the arbiter reads what it was handed.
 *
 * <p>Results: r1 = the carrier still holds its processor after its CAS (exitBlocking or endTask succeeded); r2 = the
 * hand-off succeeded; r3 = {@code pool.state.blocking} afterwards (processors in phase BLOCKING: none, at the end); r4 =
 * who holds the processor according to its state word, its holder field and the spare: 1 the carrier, the spare
 * waiting and claimable again; 2 the spare, in phase LOOP, handed the processor; 0 anything else.
 *
 * <p>Mutants ({@code ./shuttle mutants HandOffVersusReturnStress};
 * scheduler-stress/mutants/HandOffVersusReturnStress): {@code return-without-cas}, forbidden "1, 1, -1, 0" in 4 of 4
 * configurations of {@code -m quick -sc false}.
 */
public class HandOffVersusReturnStress {
    /** Serial of the prepared spare: distinct from the processors' first carriers (0 to parallelism - 1). */
    static final int SPARE_SERIAL = 1000;

    /** The carrier returns from a marked blocking call while the monitor hands its processor off. */
    @JCStressTest
    @Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "the carrier came back first and kept its processor")
    @Outcome(id = "0, 1, 0, 2", expect = ACCEPTABLE, desc = "the hand-off came first; the carrier learns it lost")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both hold the processor")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "neither holds the processor")
    @Outcome(expect = FORBIDDEN, desc = "blocking count wrong, or the state word disagrees with the winner")
    @State
    public static class FromBlocking {
        final InTask s = new InTask();
        final long seenByMonitor;

        public FromBlocking() {
            if (!s.pool.handOff.enterBlocking(s.proc, s.carrier) || s.pool.state.blocking.get() != 1) {
                throw new IllegalStateException("an idle pool's carrier must enter a blocking call and keep it");
            }
            seenByMonitor = s.proc.state();
        }

        @Actor
        public void carrierReturns(IIII_Result r) {
            r.r1 = s.pool.handOff.exitBlocking(s.proc, s.carrier) ? 1 : 0;
        }

        @Actor
        public void monitorHandsOff(IIII_Result r) {
            r.r2 = s.pool.handOff.retake(s.proc, seenByMonitor) ? 1 : 0;
        }

        @Arbiter
        public void after(IIII_Result r) {
            s.result(r, Processor.TASK);
        }
    }

    /** The carrier's task ends while the monitor hands its processor off from phase TASK (a stuck task). */
    @JCStressTest
    @Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "the task ended first; the carrier keeps its processor")
    @Outcome(id = "0, 1, 0, 2", expect = ACCEPTABLE, desc = "the hand-off came first; the carrier learns it lost")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both hold the processor")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "neither holds the processor")
    @Outcome(expect = FORBIDDEN, desc = "blocking count wrong, or the state word disagrees with the winner")
    @State
    public static class FromTask {
        final InTask s = new InTask();
        final long seenByMonitor = s.proc.state();

        @Actor
        public void taskEnds(IIII_Result r) {
            r.r1 = s.proc.endTask(s.carrier) ? 1 : 0;
        }

        @Actor
        public void monitorHandsOff(IIII_Result r) {
            r.r2 = s.pool.handOff.retake(s.proc, seenByMonitor) ? 1 : 0;
        }

        @Arbiter
        public void after(IIII_Result r) {
            s.result(r, Processor.LOOP);
        }
    }

    /**
     * A whole short marked blocking call (enter, then return) versus a waker that finds no idle processor and takes
     * one whose carrier is in a blocking call ({@code wakep}, Go's {@code handoffp}). Whoever wins, the count of
     * processors in phase BLOCKING ends at zero: exactly one of the return and the hand-off takes the call out of it.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "the call was over, or not begun, when the waker looked")
    @Outcome(id = "0, 1, 0, 2", expect = ACCEPTABLE, desc = "the waker took the processor during the call")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both hold the processor")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "neither holds the processor")
    @Outcome(expect = FORBIDDEN, desc = "blocking count wrong, or the state word disagrees with the winner")
    @State
    public static class ShortBlockingCall {
        final InTask s = new InTask();

        @Actor
        public void carrierBlocksBriefly(IIII_Result r) {
            HandOff handOff = s.pool.handOff;
            r.r1 = handOff.enterBlocking(s.proc, s.carrier) && handOff.exitBlocking(s.proc, s.carrier) ? 1 : 0;
        }

        @Actor
        public void wakerFindsNoIdleProcessor(IIII_Result r) {
            r.r2 = s.pool.idle.wakep() ? 1 : 0;
        }

        @Arbiter
        public void after(IIII_Result r) {
            s.result(r, Processor.TASK);
        }
    }

    /** A pool that may not add a carrier thread: a hand-off can only use a spare prepared by the test. */
    static CarrierPool poolAtCap(int parallelism) {
        return new CarrierPool(parallelism, SpinPolicy.DEFAULT, parallelism, 0, CarrierPool.DEFAULT_KEEP_ALIVE_NANOS);
    }

    /** A spare carrier, never started, waiting in the pool's spares as one whose processor was taken would. */
    static Carrier waitingSpare(CarrierPool pool, int serial) {
        Carrier spare = pool.newCarrier(Thread.currentThread().getThreadGroup(), serial, null);
        pool.handOff.beginWaiting(spare);
        return spare;
    }

    /** One processor whose carrier runs a task, and one spare waiting for a hand-off. */
    static final class InTask {
        final CarrierPool pool = poolAtCap(1);
        final Processor proc = pool.state.processors[0];
        final Carrier carrier = (Carrier) proc.holder();
        final Carrier spare = waitingSpare(pool, SPARE_SERIAL);

        InTask() {
            proc.beginTask(carrier);
        }

        /**
         * r3 and r4 (class comment): r4 is 1 when the carrier holds the processor in {@code phase} and the spare was
         * given nothing and is claimable again, 2 when the spare holds it in phase LOOP and was handed it. Claims the
         * spare or takes what it was handed: call once, from the arbiter.
         */
        void result(IIII_Result r, int phase) {
            r.r3 = pool.state.blocking.get();
            long state = proc.state();
            Carrier holder = (Carrier) proc.holder();
            Processor handed = spare.takeHanded();
            if (state == Processor.word(carrier, phase) && holder == carrier && handed == null && spare.claimSpare()) {
                r.r4 = 1;
            } else if (state == Processor.word(spare, Processor.LOOP) && holder == spare && handed == proc) {
                r.r4 = 2;
            } else {
                r.r4 = 0;
            }
        }
    }
}
