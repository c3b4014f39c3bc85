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
 * A shrink drains a retired processor ({@code Resize.drain}: runNext by CAS, then the queue under its consumer flag,
 * into the global queue) while a searcher that read the old array steals from it ({@code WorkSearch}: a batch under
 * the consumer flag into its own queue, then runNext by CAS, as it does from a victim that looks stuck). On the real
 * pool, resize and run queues; nothing is started. After both, nobody looks at the retired queue again, so a task
 * left there is lost as surely as one taken twice is run twice: each of runNext R and queued A, B, C must end in
 * exactly one of the global queue, the thief's hands and the thief's own queue.
 *
 * <p>Results: how many times each of R, A, B and C was taken (a task still on the retired processor counts 0).
 *
 * <p>Mutants ({@code ./shuttle mutants DrainVersusStealStress}; scheduler-stress/mutants/DrainVersusStealStress):
 * {@code poll-gives-way-to-thief}, forbidden "1, 1, 1, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "every task moved or stolen once")
@Outcome(id = ".*0.*", expect = FORBIDDEN, desc = "lost: a task left on the retired processor")
@Outcome(expect = FORBIDDEN, desc = "a task taken twice")
@State
public class DrainVersusStealStress {
    private final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
    private final RunQueue thiefQueue = pool.state.processors[0].runQueue;
    private final Processor retired = pool.state.processors[1];
    private final Runnable[] tasks = {() -> { }, () -> { }, () -> { }, () -> { }};
    private final int[] taken = new int[tasks.length];
    private Runnable stolen;

    public DrainVersusStealStress() {
        retired.runQueue.putRunNext(tasks[0]);
        for (int i = 1; i < tasks.length; i++) {
            retired.runQueue.offer(tasks[i]);
        }
        retired.retired = true;
    }

    @Actor
    public void shrinkDrains() {
        pool.resize.drain(retired);
    }

    @Actor
    public void searcherSteals() {
        Runnable task = retired.runQueue.stealInto(thiefQueue);
        stolen = task != null ? task : retired.runQueue.stealRunNext();
    }

    @Arbiter
    public void after(IIII_Result r) {
        count(stolen);
        for (Runnable t; (t = pool.state.global.poll()) != null; ) {
            count(t);
        }
        count(thiefQueue.pollRunNext());
        for (Runnable t; (t = thiefQueue.poll()) != null; ) {
            count(t);
        }
        r.r1 = taken[0];
        r.r2 = taken[1];
        r.r3 = taken[2];
        r.r4 = taken[3];
    }

    private void count(Runnable t) {
        for (int i = 0; i < tasks.length; i++) {
            if (tasks[i] == t) {
                taken[i]++;
            }
        }
    }
}
