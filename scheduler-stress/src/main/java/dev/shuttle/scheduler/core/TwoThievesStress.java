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
 * Two thieves steal from one busy processor's run queue at once, as two searchers do ({@code WorkSearch}): the queue
 * is single-consumer (JCTools' {@code MpscVarHandleArrayQueue}), so a thief takes it only under the consumer flag,
 * and a thief that finds the flag taken moves on. Each of the four queued tasks is taken exactly once, by a thief or by whoever
 * drains the queue afterwards.
 *
 * <p>No mutant is recorded: without the flag both thieves are consumers of the single-consumer queue, and one of
 * them spins forever on the slot the other emptied (JCTools waits for an element it believes is being published), a
 * hang jcstress reports as a stuck test rather than as an outcome.
 *
 * <p>Results: how many times each of the tasks A, B, C and D was taken in the end.
 */
@JCStressTest
@Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "every task taken once")
@Outcome(expect = FORBIDDEN, desc = "a task lost (0) or taken twice (2)")
@State
public class TwoThievesStress {
    private final RunQueue victim = new RunQueue(new GlobalQueue());
    private final RunQueue first = new RunQueue(new GlobalQueue());
    private final RunQueue second = new RunQueue(new GlobalQueue());
    private final Runnable[] tasks = {() -> { }, () -> { }, () -> { }, () -> { }};
    private final int[] byFirst = new int[4];
    private final int[] bySecond = new int[4];
    private final int[] byArbiter = new int[4];

    public TwoThievesStress() {
        for (Runnable t : tasks) {
            victim.offer(t);
        }
    }

    @Actor
    public void firstThief() {
        steal(first, byFirst);
    }

    @Actor
    public void secondThief() {
        steal(second, bySecond);
    }

    @Arbiter
    public void drain(IIII_Result r) {
        for (RunQueue q : new RunQueue[] {victim, first, second}) {
            for (Runnable t; (t = q.poll()) != null; ) {
                count(t, byArbiter);
            }
        }
        r.r1 = byFirst[0] + bySecond[0] + byArbiter[0];
        r.r2 = byFirst[1] + bySecond[1] + byArbiter[1];
        r.r3 = byFirst[2] + bySecond[2] + byArbiter[2];
        r.r4 = byFirst[3] + bySecond[3] + byArbiter[3];
    }

    /** A thief takes the first task it steals; the rest of its batch went to its own queue, drained by the arbiter. */
    private void steal(RunQueue into, int[] taken) {
        Runnable t = victim.stealInto(into);
        if (t != null) {
            count(t, taken);
        }
    }

    private void count(Runnable t, int[] taken) {
        for (int i = 0; i < tasks.length; i++) {
            if (tasks[i] == t) {
                taken[i]++;
            }
        }
    }
}
