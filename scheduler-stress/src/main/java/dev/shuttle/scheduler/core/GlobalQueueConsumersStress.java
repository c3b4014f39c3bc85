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
 * Two consumers of the global queue at once while a producer appends: a carrier taking a batch into its run queue
 * ({@link GlobalQueue#pollAndShare}, as {@code WorkSearch.takeGlobal}) and a carrier's fairness poll
 * ({@link GlobalQueue#poll}). The queue under it is JCTools' single-consumer one, so both consume only under the
 * consumer flag. Each of the four tasks (two queued before, two offered during the race) is taken exactly once, by a
 * consumer or by whoever drains the queues afterwards.
 *
 * <p>No mutant is recorded: without the flag both consumers poll the single-consumer queue, and one of them spins
 * forever on a slot the other emptied (JCTools waits for an element it believes is being published), a hang jcstress
 * reports as a stuck test rather than as an outcome.
 *
 * <p>jcstress runs no more actors than there are CPUs and silently skips a test with more, so on two CPUs the producer
 * is the fairness poller's carrier in program order: it offers C, polls, then offers D, while the batch taker races
 * with all three.
 *
 * <p>Results: how many times each of the tasks A, B, C and D was taken in the end.
 */
@JCStressTest
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "every task taken once")
@Outcome(expect = FORBIDDEN, desc = "a task lost (0) or taken twice (2)")
@State
public class GlobalQueueConsumersStress {
    private final GlobalQueue global = new GlobalQueue();
    private final RunQueue batchInto = new RunQueue(new GlobalQueue());
    private final Runnable[] tasks = {() -> { }, () -> { }, () -> { }, () -> { }};
    private final int[] byBatch = new int[4];
    private final int[] byPoller = new int[4];
    private final int[] byArbiter = new int[4];

    public GlobalQueueConsumersStress() {
        global.offer(tasks[0]);
        global.offer(tasks[1]);
    }

    @Actor
    public void batchTaker() {
        Runnable first = global.pollAndShare(1, RunQueue.CAPACITY / 2, batchInto.offerer);
        if (first != null) {
            count(first, byBatch);
        }
    }

    @Actor
    public void offerPollOffer() {
        global.offer(tasks[2]);
        Runnable task = global.poll();
        if (task != null) {
            count(task, byPoller);
        }
        global.offer(tasks[3]);
    }

    @Arbiter
    public void drain(IIII_Result r) {
        for (Runnable t; (t = global.poll()) != null; ) {
            count(t, byArbiter);
        }
        for (Runnable t; (t = batchInto.poll()) != null; ) {
            count(t, byArbiter);
        }
        r.r1 = byBatch[0] + byPoller[0] + byArbiter[0];
        r.r2 = byBatch[1] + byPoller[1] + byArbiter[1];
        r.r3 = byBatch[2] + byPoller[2] + byArbiter[2];
        r.r4 = byBatch[3] + byPoller[3] + byArbiter[3];
    }

    private void count(Runnable task, int[] into) {
        for (int i = 0; i < tasks.length; i++) {
            if (tasks[i] == task) {
                into[i]++;
            }
        }
    }
}
