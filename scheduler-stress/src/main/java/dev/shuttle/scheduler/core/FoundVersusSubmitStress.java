package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The last searcher finds a task while a platform thread brings new work, on the real pool and carrier code (carriers
 * not started: the actors play their parts). Processor 0's carrier is the only searcher and stops searching with a task
 * in hand ({@code Carrier.stopSearching}); processor 1 is idle, its carrier asleep without a timeout. The newcomer may
 * read the searcher's count and wake nobody; then the searcher, which wakes another carrier only for work in sight,
 * must see the work. Either way processor 1's carrier is woken, once.
 *
 * <p>Results: r1 = processor 1's idle bit is still set (nobody will wake its carrier); r2 = the searching count after
 * both, which counts a woken carrier from the moment its bit is cleared.
 *
 * <p>Mutants ({@code ./shuttle mutants FoundVersusSubmitStress}; scheduler-stress/mutants/FoundVersusSubmitStress):
 * {@code look-before-lowering-count}, forbidden "1, 0" in 8 of 8 configurations of {@code -m quick -sc false}.
 */
public class FoundVersusSubmitStress {

    /** The new work is a task in the global queue. */
    @JCStressTest
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "one of the two woke processor 1's carrier to search")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "lost wake-up: a task queued, a carrier asleep, nobody searching")
    @Outcome(expect = FORBIDDEN, desc = "the idle bit and the searching count disagree")
    @State
    public static class TaskQueued extends LastSearcher {
        @Actor
        public void lastSearcherFoundATask() {
            searcher.stopSearching();
        }

        @Actor
        public void platformThreadSubmits() {
            pool.execute(() -> { });
        }

        @Arbiter
        public void after(II_Result r) {
            outcome(r);
        }
    }

    /**
     * The new work is a timer armed from a platform thread: with nobody watching, the carrier asleep without a timeout
     * would leave it to the monitor's rescue.
     */
    @JCStressTest
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "one of the two woke processor 1's carrier to search")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "lost wake-up: a timer pending, a carrier asleep, nobody up")
    @Outcome(expect = FORBIDDEN, desc = "the idle bit and the searching count disagree")
    @State
    public static class TimerArmed extends LastSearcher {
        @Actor
        public void lastSearcherFoundATask() {
            searcher.stopSearching();
        }

        @Actor
        public void platformThreadArms() {
            pool.timers.schedule(() -> { }, 1, TimeUnit.HOURS);
        }

        @Arbiter
        public void after(II_Result r) {
            outcome(r);
        }
    }

    /** Processor 0's carrier the only searcher, processor 1 idle. */
    abstract static class LastSearcher {
        final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        final Carrier searcher = (Carrier) pool.state.processors[0].holder();

        LastSearcher() {
            pool.state.idle.add(1);
            if (!searcher.tryBeginSearching()) {
                throw new IllegalStateException("a pool with one busy processor must admit a searcher");
            }
        }

        void outcome(II_Result r) {
            r.r1 = pool.state.idle.contains(1) ? 1 : 0;
            r.r2 = pool.state.searching.get();
        }
    }
}
