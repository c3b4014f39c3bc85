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
 * A producer versus a thief on one run queue ({@link RunQueue}: multi-producer, one consumer at a time under the
 * consumer flag): the thief's own. The thief takes a batch from a busy victim ({@code stealInto}: one task to run,
 * about half of the rest into its own queue) while a carrier that lost the thief's processor, its virtual thread still
 * running, pushes to the thief's queue (package-info, "Ownership"). The thief sizes its batch
 * by the room it read in its own queue, so that late push can fill the queue between the read and the batch: the
 * batch's offers then go to the global queue ({@code RunQueue.offerOrOverflow} as the thief's sink), never nowhere.
 * On the real queues; the thief's queue holds {@code CAPACITY - 1} filler tasks, so one free slot is all the room
 * there is and the two offers into it (the batch's and the late push) cannot both fit.
 *
 * <p>Results: tasks lost (left nowhere), tasks taken more than once (their extra takes), and tasks that overflowed to
 * the global queue (0 when the late push came before the thief read the room and the batch was empty, else 1).
 *
 * <p>Mutants ({@code ./shuttle mutants ProducerVersusThiefStress}; scheduler-stress/mutants/ProducerVersusThiefStress):
 * {@code batch-without-overflow}, forbidden "1, 0, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "0, 0, 0", expect = ACCEPTABLE, desc = "every task once; the late push came first, no batch")
@Outcome(id = "0, 0, 1", expect = ACCEPTABLE, desc = "every task once; the second offer into the full queue overflowed")
@Outcome(id = "[1-9][0-9]*, .*", expect = FORBIDDEN, desc = "lost: a stolen or pushed task left nowhere")
@Outcome(expect = FORBIDDEN, desc = "a task taken twice")
@State
public class ProducerVersusThiefStress {
    private static final Runnable FILLER = () -> { };
    private final GlobalQueue global = new GlobalQueue();
    private final RunQueue victim = new RunQueue(global);
    private final RunQueue thief = new RunQueue(global);
    /** A, B, C, D queued on the victim; P pushed to the thief's queue by the late carrier. */
    private final Runnable[] tasks = {() -> { }, () -> { }, () -> { }, () -> { }, () -> { }};
    private final int[] taken = new int[tasks.length];
    private Runnable toRun;

    public ProducerVersusThiefStress() {
        for (int i = 0; i < 4; i++) {
            victim.offer(tasks[i]);
        }
        for (int i = 0; i < RunQueue.CAPACITY - 1; i++) {
            thief.offer(FILLER);
        }
    }

    @Actor
    public void thiefSteals() {
        toRun = victim.stealInto(thief);
    }

    @Actor
    public void lateCarrierPushes() {
        thief.offerOrOverflow(tasks[4]);
    }

    @Arbiter
    public void after(III_Result r) {
        int fillers = 0;
        int overflowed = 0;
        count(toRun);
        for (Runnable t; (t = global.poll()) != null; overflowed++) {
            count(t);
        }
        for (RunQueue q : new RunQueue[] {victim, thief}) {
            for (Runnable t; (t = q.poll()) != null; ) {
                if (t == FILLER) {
                    fillers++;
                } else {
                    count(t);
                }
            }
        }
        int lost = Math.max(0, RunQueue.CAPACITY - 1 - fillers);
        int twice = Math.max(0, fillers - (RunQueue.CAPACITY - 1));
        for (int n : taken) {
            lost += n == 0 ? 1 : 0;
            twice += Math.max(0, n - 1);
        }
        r.r1 = lost;
        r.r2 = twice;
        r.r3 = overflowed;
    }

    private void count(Runnable t) {
        for (int i = 0; i < tasks.length; i++) {
            if (tasks[i] == t) {
                taken[i]++;
            }
        }
    }
}
