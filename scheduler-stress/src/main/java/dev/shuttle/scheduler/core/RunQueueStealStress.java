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
 * Run queue plus runNext: the owner takes its work while a thief steals. Each of the three tasks (A in runNext,
 * B and C in the queue) must be taken exactly once. Results: how many times A, B and C were taken.
 *
 * <p>Mutants ({@code ./shuttle mutants RunQueueStealStress}; scheduler-stress/mutants/RunQueueStealStress): {@code
 * owner-takes-runnext-without-swap}, forbidden "2, 1, 1" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "every task taken once")
@Outcome(expect = FORBIDDEN, desc = "a task lost (0) or run twice (2)")
@State
public class RunQueueStealStress {
    private final RunQueue owner = new RunQueue(new GlobalQueue());
    private final RunQueue thief = new RunQueue(new GlobalQueue());
    private final Runnable a = () -> { };
    private final Runnable b = () -> { };
    private final Runnable c = () -> { };
    private int takenA;
    private int takenB;
    private int takenC;
    private int thiefA;
    private int thiefB;
    private int thiefC;

    public RunQueueStealStress() {
        owner.putRunNext(a);
        owner.offer(b);
        owner.offer(c);
    }

    @Actor
    public void ownerTakes() {
        count(owner.pollRunNext(), false);
        count(owner.poll(), false);
    }

    @Actor
    public void thiefSteals() {
        count(owner.stealInto(thief), true);
        count(owner.stealRunNext(), true);
        for (Runnable t; (t = thief.poll()) != null; ) {
            count(t, true);
        }
    }

    @Arbiter
    public void drain(III_Result r) {
        for (Runnable t; (t = owner.poll()) != null || (t = owner.pollRunNext()) != null; ) {
            count(t, false);
        }
        r.r1 = takenA + thiefA;
        r.r2 = takenB + thiefB;
        r.r3 = takenC + thiefC;
    }

    /** Owner and thief count into separate fields: the counting itself must not race. */
    private void count(Runnable t, boolean byThief) {
        if (t == a) {
            if (byThief) {
                thiefA++;
            } else {
                takenA++;
            }
        } else if (t == b) {
            if (byThief) {
                thiefB++;
            } else {
                takenB++;
            }
        } else if (t == c) {
            if (byThief) {
                thiefC++;
            } else {
                takenC++;
            }
        }
    }
}
