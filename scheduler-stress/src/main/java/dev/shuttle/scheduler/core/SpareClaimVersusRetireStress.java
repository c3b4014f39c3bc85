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
 * A hand-off claiming a waiting spare ({@code HandOff.handOff}) versus that spare ending at the end of its
 * keep-alive ({@code HandOff.retire}). Two spares wait, never started (see
 * {@link HandOffVersusReturnStress#poolAtCap}): the racing one, most recently parked and so claimed first, and an
 * older one the hand-off falls back to when the racing one has retired. The monitor plays the claimer.
 *
 * <p>Results: r1 = the hand-off succeeded; r2 = the racing spare retired; r3 = in {@link Handed}, who was handed the
 * processor (1 the racing spare, 2 the older one, 0 neither or both), in {@link PutBack}, whether the racing spare is
 * claimable again.
 *
 * <p>Mutants ({@code ./shuttle mutants SpareClaimVersusRetireStress}; scheduler-stress/mutants/SpareClaimVersusRetireStress):
 * {@code retire-without-cas} (run against {@link Handed}), forbidden "1, 1, 1" (a retired spare handed the processor)
 * in 4 of 4 configurations of {@code -m quick -sc false}, in 123 samples: rare per sample, but seen in every
 * configuration.
 */
public class SpareClaimVersusRetireStress {

    /** The processor is taken from its carrier: the claimed spare gets it. */
    @JCStressTest
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "claimed first: the racing spare stays and gets the processor")
    @Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "retired first: the hand-off used the older spare")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "a retired spare was handed a processor")
    @Outcome(id = "1, 0, 2", expect = FORBIDDEN, desc = "the racing spare was skipped but did not retire: lost")
    @Outcome(expect = FORBIDDEN, desc = "the hand-off failed, or the processor went to neither spare")
    @State
    public static class Handed {
        final Spares s = new Spares();

        @Actor
        public void monitorHandsOff(III_Result r) {
            r.r1 = s.pool.handOff.retake(s.proc, Processor.word(s.carrier, Processor.TASK)) ? 1 : 0;
        }

        @Actor
        public void spareKeepAliveRunsOut(III_Result r) {
            r.r2 = s.pool.handOff.retire(s.racing) ? 1 : 0;
        }

        @Arbiter
        public void after(III_Result r) {
            Processor toRacing = s.racing.takeHanded();
            Processor toOlder = s.older.takeHanded();
            r.r3 = toRacing == s.proc && toOlder == null && s.proc.holder() == s.racing ? 1
                    : toOlder == s.proc && toRacing == null && s.proc.holder() == s.older ? 2 : 0;
        }
    }

    /**
     * The carrier came back before the hand-off's CAS (the monitor's look is stale): the claimed spare is not needed
     * and goes back to waiting. A spare that retired must not be claimable again; one whose retirement failed because
     * it was claimed must be, or it would wait forever, neither handed nor able to end.
     */
    @JCStressTest
    @Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "claimed first: the racing spare waits again, claimable")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "retired first: the hand-off passed it over")
    @Outcome(id = "0, 1, 1", expect = FORBIDDEN, desc = "a retired spare is claimable again")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "the racing spare is stuck claimed: never handed, never ends")
    @Outcome(expect = FORBIDDEN, desc = "the hand-off took a processor that its carrier had taken back")
    @State
    public static class PutBack {
        final Spares s = new Spares();

        public PutBack() {
            if (!s.pool.handOff.enterBlocking(s.proc, s.carrier) || !s.pool.handOff.exitBlocking(s.proc, s.carrier)) {
                throw new IllegalStateException("nobody else changes the processor's state");
            }
        }

        @Actor
        public void monitorHandsOffTooLate(III_Result r) {
            r.r1 = s.pool.handOff.retake(s.proc, Processor.word(s.carrier, Processor.BLOCKING)) ? 1 : 0;
        }

        @Actor
        public void spareKeepAliveRunsOut(III_Result r) {
            r.r2 = s.pool.handOff.retire(s.racing) ? 1 : 0;
        }

        @Arbiter
        public void after(III_Result r) {
            r.r3 = s.racing.claimSpare() ? 1 : 0;
        }
    }

    /** Processor 0 running a task; an older spare waiting, then the racing one. */
    static final class Spares {
        final CarrierPool pool = HandOffVersusReturnStress.poolAtCap(1);
        final Processor proc = pool.state.processors[0];
        final Carrier carrier = (Carrier) proc.holder();
        final Carrier older = HandOffVersusReturnStress.waitingSpare(pool, HandOffVersusReturnStress.SPARE_SERIAL);
        final Carrier racing = HandOffVersusReturnStress.waitingSpare(pool, HandOffVersusReturnStress.SPARE_SERIAL + 1);

        Spares() {
            proc.beginTask(carrier);
        }
    }
}
