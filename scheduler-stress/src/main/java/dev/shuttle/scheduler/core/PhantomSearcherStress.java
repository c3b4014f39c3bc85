package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.TimerHeap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A waker that finds nobody to wake, versus a carrier that wakes on its own, parks again, and then new work.
 *
 * <p>{@code wakep} raises {@code searching} from 0 to 1 before it looks for an idle bit, on behalf of the carrier it
 * is about to wake. If the only idle carrier clears its own bit in between (its timer fell due), the waker finds
 * nobody; until it lowers the count again, submitters and arming threads see "a carrier is searching" and wake
 * nobody, though no carrier searches. If the carrier meanwhile parked again, its re-check done before the new work
 * arrived, that work is left with every carrier asleep: a lost wake-up. So a waker that finds nobody looks at the
 * queues and the timer heaps after lowering the count, and tries again if something is there.
 *
 * <p>jcstress runs no more actors than there are CPUs (2 here), so the second actor plays two parties in program
 * order: the carrier wakes on its own and parks again, then a platform thread brings new work. That order is the
 * dangerous one: the carrier's re-check cannot see the work, so only the newcomer's wake-up can save it.
 *
 * <p>Results: r1 = the carrier, having woken on its own, decided to sleep again (1), stayed awake or watched
 * because it saw work (0, impossible here: the work comes later), or found its bit already taken by a waker (2, it
 * searches); r2 = its idle bit is still set afterwards, i.e. nobody is going to wake it.
 *
 * <p>Mutants ({@code ./shuttle mutants PhantomSearcherStress}; scheduler-stress/mutants/PhantomSearcherStress): {@code
 * no-look-after-lowering}, forbidden "1, 1" in 1 of 8 configurations of {@code -m quick -sc false}, one sample: rare by
 * construction, since the carrier's parking and the submit must both fall between the waker's look at the idle bits and
 * its next instruction. Run it in all configurations (without {@code -sc false}) when this protocol changes.
 */
public class PhantomSearcherStress {

    /** The new work is a task in the global queue. */
    @JCStressTest
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the carrier sleeps again; a waker took its bit to wake it")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "a waker took the bit before the carrier woke on its own")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wake-up: asleep with the task queued, the waker a phantom")
    @Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the re-check saw work that was not queued yet")
    @Outcome(id = "2, 1", expect = FORBIDDEN, desc = "idle again although it never parked again")
    @State
    public static class TaskQueued {
        final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);

        public TaskQueued() {
            pool.state.idle.add(0);
        }

        @Actor
        public void wakerOfSomethingAlreadyTaken() {
            pool.idle.wakep();
        }

        @Actor
        public void carrierParksAgainThenPlatformThreadSubmits(II_Result r) {
            r.r1 = wakeOnOwnAndParkAgain(pool);
            pool.execute(() -> { });
        }

        @Arbiter
        public void after(II_Result r) {
            r.r2 = pool.state.idle.contains(0) ? 1 : 0;
        }
    }

    /**
     * The new work is a timer armed from a platform thread: a carrier that sleeps without a timeout and is not woken
     * would fire it only at its 100 ms idle re-check, or never if that backstop were gone.
     */
    @JCStressTest
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the carrier sleeps again; a waker took its bit to wake it")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "a waker took the bit before the carrier woke on its own")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wake-up: asleep without timeout beside the timer")
    @Outcome(id = "0, .*", expect = FORBIDDEN, desc = "the carrier saw a timer that was not armed yet")
    @Outcome(id = "2, 1", expect = FORBIDDEN, desc = "idle again although it never parked again")
    @State
    public static class TimerArmed {
        final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);

        public TimerArmed() {
            pool.state.idle.add(0);
        }

        @Actor
        public void wakerOfSomethingAlreadyTaken() {
            pool.idle.wakep();
        }

        @Actor
        public void carrierParksAgainThenPlatformThreadArms(II_Result r) {
            int decision = wakeOnOwnAndParkAgain(pool);
            if (decision == 1 && pool.idle.watchDeadline(pool.state.processors[0]) != TimerHeap.NONE) {
                decision = 0;
            }
            r.r1 = decision;
            pool.timers.schedule(() -> { }, 1, TimeUnit.HOURS);
        }

        @Arbiter
        public void after(II_Result r) {
            r.r2 = pool.state.idle.contains(0) ? 1 : 0;
        }
    }

    /**
     * Carrier 0 clears its own idle bit, as when its timer falls due, and goes through {@code prepareToPark} again.
     * Returns r1's code: 1 it decided to sleep, 0 its re-check found work, 2 a waker had taken the bit first.
     */
    static int wakeOnOwnAndParkAgain(CarrierPool pool) {
        if (!pool.state.idle.tryRemove(0)) {
            return 2;
        }
        return ((Carrier) pool.state.processors[0].holder()).prepareToPark() ? 1 : 0;
    }
}
