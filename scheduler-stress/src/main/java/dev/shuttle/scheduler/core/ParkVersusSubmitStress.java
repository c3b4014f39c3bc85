package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Carrier park versus submit, on the real pool and carrier code (carriers are not started: the actors play their
 * parts). A carrier that ran out of work goes through {@code prepareToPark} while a platform thread submits a task
 * ({@code execute}: global queue, then {@code wakep}). Either the carrier's re-check sees the task and it stays
 * awake, or the submitter sees the idle carrier and clears its bit (the unpark hand-off).
 *
 * <p>Results: r1 = the carrier decided to sleep (1) or stayed awake (0); r2 = its idle bit is still set afterwards,
 * i.e. nobody is going to wake it; in {@code FromIdle} and {@code FromSearching}, r3 = the searchers counted as woken
 * but not yet up ({@code PoolState.wakingSearchers}): 1 for a carrier asleep whose bit the submitter took, 0 for one
 * that is up, whoever cleared its bit.
 *
 * <p>Mutants ({@code ./shuttle mutants ParkVersusSubmitStress}; scheduler-stress/mutants/ParkVersusSubmitStress):
 * {@code leave-searching-after-recheck} and {@code recheck-before-idle-bit}, each forbidden "1, 1, 0" in 4 of 4
 * configurations of {@code -m quick -sc false}.
 */
public class ParkVersusSubmitStress {

    @JCStressTest
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "the re-check saw the task; the carrier stays awake")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the carrier sleeps; the submitter took its bit to wake it")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "lost wake-up: asleep with work queued and nobody to wake it")
    @Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "awake but still marked idle: a later waker would pick it")
    @Outcome(expect = FORBIDDEN, desc = "the count of searchers on their way is off: spin guidance would count on the wrong one")
    @State
    public static class FromIdle {
        final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);

        @Actor
        public void carrierParks(III_Result r) {
            r.r1 = ((Carrier) pool.state.processors[0].holder()).prepareToPark() ? 1 : 0;
        }

        @Actor
        public void platformThreadSubmits() {
            pool.execute(() -> { });
        }

        @Arbiter
        public void after(III_Result r) {
            r.r2 = pool.state.idle.contains(0) ? 1 : 0;
            r.r3 = pool.state.wakingSearchers.get();
        }
    }

    /**
     * The same race when the parking carrier was the only searcher: the submitter may see it still searching and
     * skip waking anyone, so the carrier's re-check after leaving the searching state must catch the task.
     */
    @JCStressTest
    @Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "the re-check saw the task; the carrier stays awake")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the carrier sleeps; the submitter took its bit to wake it")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "lost wake-up: asleep with work queued and nobody to wake it")
    @Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "awake but still marked idle: a later waker would pick it")
    @Outcome(expect = FORBIDDEN, desc = "the count of searchers on their way is off: spin guidance would count on the wrong one")
    @State
    public static class FromSearching {
        final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);

        public FromSearching() {
            if (!((Carrier) pool.state.processors[0].holder()).tryBeginSearching()) {
                throw new IllegalStateException("a fresh pool must admit a searcher");
            }
        }

        @Actor
        public void carrierParks(III_Result r) {
            r.r1 = ((Carrier) pool.state.processors[0].holder()).prepareToPark() ? 1 : 0;
        }

        @Actor
        public void platformThreadSubmits() {
            pool.execute(() -> { });
        }

        @Arbiter
        public void after(III_Result r) {
            r.r2 = pool.state.idle.contains(0) ? 1 : 0;
            r.r3 = pool.state.wakingSearchers.get();
        }
    }

    /**
     * A task on a busy processor wakes a thread into that processor's {@code runNext} while the only searcher parks:
     * the pusher's {@code wakep} sees the searcher and wakes nobody, so the searcher's re-check must count a
     * {@code runNext} whose processor has not ticked since the search began (its task keeps running, as a waiter that
     * spins for the thread it woke does). Missing that left the woken thread to the monitor's next look, up to 10 ms.
     * Processor 1 stands for the busy one; its tick is the one the searcher recorded.
     */
    @JCStressTest
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the re-check saw runNext; the carrier searches again")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the carrier sleeps; the pusher took its bit to wake it")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "stranded: asleep while a standing processor's runNext waits")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "awake but still marked idle: a later waker would pick it")
    @State
    public static class RunNextFromSearching {
        final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);

        public RunNextFromSearching() {
            if (!((Carrier) pool.state.processors[0].holder()).tryBeginSearching()) {
                throw new IllegalStateException("a fresh pool must admit a searcher");
            }
        }

        @Actor
        public void carrierParks(II_Result r) {
            r.r1 = ((Carrier) pool.state.processors[0].holder()).prepareToPark() ? 1 : 0;
        }

        @Actor
        public void taskWakesIntoRunNext() {
            pool.state.processors[1].runQueue.putRunNext(() -> { });
            pool.idle.wakep();
        }

        @Arbiter
        public void after(II_Result r) {
            r.r2 = pool.state.idle.contains(0) ? 1 : 0;
        }
    }
}
