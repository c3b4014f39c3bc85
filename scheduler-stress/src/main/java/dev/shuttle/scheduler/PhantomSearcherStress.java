package dev.shuttle.scheduler;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A waker that finds nobody to wake, versus a carrier that wakes on its own and parks again and a submitter.
 *
 * <p>{@code wakep} raises {@code searching} from 0 to 1 before it looks for an idle bit, on behalf of the carrier it
 * is about to wake. If the only idle carrier clears its own bit in between (its timer fell due), the waker finds
 * nobody; until it lowers the count again, submitters see "a carrier is searching" and wake nobody, though no
 * carrier searches. If the carrier meanwhile parked again, its re-check done before such a submitter queued its
 * task, the task is left with every carrier asleep: a lost wake-up. So a waker that found nobody looks at the queues
 * after lowering the count, and tries again if work is queued.
 *
 * <p>Results: r1 = the carrier, having woken on its own, decided to sleep again (1), stayed awake because its
 * re-check saw work (0, impossible here: the task comes later), or found its bit already taken by a waker (2, it
 * searches); r2 = its idle bit is still set afterwards, i.e. nobody is going to wake it.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the carrier sleeps again; a waker took its bit to wake it")
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "a waker took the bit before the carrier woke on its own")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wake-up: asleep with the task queued, the waker a phantom")
@Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the re-check saw work that was not queued yet")
@Outcome(id = "2, 1", expect = FORBIDDEN, desc = "idle again although it never parked again")
@State
public class PhantomSearcherStress {
    final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT, "stress-carrier-");

    public PhantomSearcherStress() {
        pool.idle.add(0);
    }

    @Actor
    public void wakerOfSomethingAlreadyTaken() {
        pool.wakep();
    }

    /**
     * Two parties in program order, since jcstress runs no more actors than there are CPUs (2 here): the carrier
     * wakes on its own and parks again, then a platform thread submits. That order is the dangerous one: the
     * carrier's re-check cannot see the task, so only the submitter's wake-up can save it.
     */
    @Actor
    public void carrierParksAgainThenPlatformThreadSubmits(II_Result r) {
        if (pool.idle.tryRemove(0)) {
            r.r1 = pool.carriers[0].prepareToPark() ? 1 : 0;
        } else {
            r.r1 = 2;
        }
        pool.execute(() -> { });
    }

    @Arbiter
    public void after(II_Result r) {
        r.r2 = pool.idle.contains(0) ? 1 : 0;
    }
}
