package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The owner puts a new task in runNext (displacing the old one to its queue, as {@code Carrier.pushLocal} does)
 * while a thief takes runNext. Results: how many times the old and the new task were taken in the end.
 *
 * <p>Mutants ({@code ./shuttle mutants RunNextSwapStress}; scheduler-stress/mutants/RunNextSwapStress): {@code
 * steal-without-cas}, forbidden "2, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both tasks taken once")
@Outcome(expect = FORBIDDEN, desc = "a task lost (0) or taken twice (2)")
@State
public class RunNextSwapStress {
    private final RunQueue owner = new RunQueue(new GlobalQueue());
    private final Runnable older = () -> { };
    private final Runnable newer = () -> { };
    private Runnable stolen;

    public RunNextSwapStress() {
        owner.putRunNext(older);
    }

    @Actor
    public void ownerPushes() {
        Runnable displaced = owner.putRunNext(newer);
        if (displaced != null) {
            owner.offer(displaced);
        }
    }

    @Actor
    public void thiefTakesRunNext() {
        stolen = owner.stealRunNext();
    }

    @Arbiter
    public void drain(II_Result r) {
        int olderTaken = stolen == older ? 1 : 0;
        int newerTaken = stolen == newer ? 1 : 0;
        for (Runnable t; (t = owner.poll()) != null || (t = owner.pollRunNext()) != null; ) {
            olderTaken += t == older ? 1 : 0;
            newerTaken += t == newer ? 1 : 0;
        }
        r.r1 = olderTaken;
        r.r2 = newerTaken;
    }
}
