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
 * A waker that read the array of processors before a shrink published the smaller one claims the idle bit of the
 * processor being retired, and with it the promise of a searcher ({@code searching} raised on that carrier's behalf):
 * submitters that come after it see the count and wake nobody, while that carrier will run nothing. The retiring
 * carrier, woken by the resize or by the waker, sees the flag and gives its processor up ({@code Resize.givenUp}): if a
 * waker had cleared its bit it was counted as a searcher, and it leaves the count as a searcher that found work does,
 * waking another carrier if it was the last. So the promise passes to a live carrier instead of being lost.
 *
 * <p>On the real pool, resize, idle set, waker and carrier code; nothing is started. Processor 0 is busy and processor
 * 1 idle at the start ({@code pollAny} takes the lowest idle bit, so a waker claims a retiring processor's bit only
 * when no live one is idle). jcstress runs no more actors than there are CPUs (2 here), so one actor calls
 * {@code setParallelism(1)} and the other plays four parties in program order: a platform thread submits a task (its
 * {@code wakep} races with the shrink's publication); processor 0's carrier takes that task and then goes to park
 * ({@code Carrier.prepareToPark}: nothing left in sight); a second submission, whose {@code wakep} skips waking while a
 * searcher is counted; then the retiring carrier, which plays {@code Carrier.giveUpRetired} for a carrier asleep on
 * its idle bit: it waits for the flag, takes its own bit back unless a waker took it (then it was counted as searching
 * and on its way), and gives the processor up. The resize returns only after that.
 *
 * <p>Results: processor 0's idle bit still set, the searching count, the searchers counted as woken but not yet up
 * ({@code PoolState.wakingSearchers}), and processor 1's idle bit still set.
 *
 * <p>Mutants ({@code ./shuttle mutants RetiringIdleBitStress}; scheduler-stress/mutants/RetiringIdleBitStress):
 * {@code given-up-without-passing-wake}, forbidden "1, 0, 0, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "processor 0's carrier woken for the second task")
@Outcome(id = "1, 0, .*", expect = FORBIDDEN, desc = "lost wake-up: the task queued, the live carrier asleep, nobody searching")
@Outcome(id = "1, [1-9], .*", expect = FORBIDDEN, desc = "a searcher counted that nobody is: no later submitter wakes anyone")
@Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "the retired processor's idle bit left set")
@Outcome(expect = FORBIDDEN, desc = "the counts of searchers are off")
@State
public class RetiringIdleBitStress {
    private final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
    private final Processor retiring = pool.state.processors[1];

    public RetiringIdleBitStress() {
        pool.state.idle.add(1);
    }

    @Actor
    public void shrink() {
        if (pool.setParallelism(1) != 2) {
            throw new IllegalStateException("nobody else resizes");
        }
    }

    @Actor
    public void submitsParkAndGiveUp() {
        pool.execute(() -> { });
        if (pool.state.global.poll() == null) {
            throw new IllegalStateException("the task went elsewhere than the global queue");
        }
        if (!((Carrier) pool.state.processors[0].holder()).prepareToPark()) {
            throw new IllegalStateException("processor 0's carrier saw work where there is none");
        }
        pool.execute(() -> { });
        while (!retiring.retired) {
            Thread.onSpinWait();
        }
        boolean wokenByWaker = !pool.state.idle.tryRemove(retiring.index);
        if (wokenByWaker) {
            pool.state.wakingSearchers.decrementAndGet();
        }
        pool.resize.givenUp(retiring, wokenByWaker, false);
    }

    @Arbiter
    public void after(IIII_Result r) {
        r.r1 = pool.state.idle.contains(0) ? 1 : 0;
        r.r2 = pool.state.searching.get();
        r.r3 = pool.state.wakingSearchers.get();
        r.r4 = pool.state.idle.contains(1) ? 1 : 0;
    }
}
