package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The timer watcher getting up versus another carrier going to sleep, on the real {@link Idle} (carriers not
 * started). A timer is pending and carrier 1 watches it; carrier 1 gets up (gives the watch up, clears its idle bit,
 * hands the watch on) while carrier 0 publishes its idle bit and decides how to sleep. Carrier 0 may still see carrier
 * 1 watching and park without a timeout; then carrier 1's hand-off, which reads the idle bits after giving the watch
 * up, sees carrier 0 idle and unparks it, so that it takes the watch. No backup is held here, so a miss would leave
 * the timer unwatched until the monitor's rescue.
 *
 * <p>Results: r1 = the carrier the hand-off unparked (-1: none), r2 = carrier 0 would sleep toward the timer (1) or
 * without a timeout (0).
 *
 * <p>Mutants ({@code ./shuttle mutants WatchHandOffStress}; scheduler-stress/mutants/WatchHandOffStress):
 * {@code no-hand-off}, forbidden "-1, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "-1, 1", expect = ACCEPTABLE, desc = "the hand-off saw nobody idle; carrier 0 took the vacant watch")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "carrier 0 took the watch and was unparked too: a spare wake-up")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "carrier 0 saw carrier 1 still watching; the hand-off unparked it")
@Outcome(id = "-1, 0", expect = FORBIDDEN, desc = "lost: carrier 0 asleep untimed, the timer unwatched")
@Outcome(expect = FORBIDDEN, desc = "the hand-off unparked the leaving watcher itself")
@State
public class WatchHandOffStress {
    private final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);

    public WatchHandOffStress() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        pool.state.processors[1].timers.arm(new Timer(() -> { }, deadline));
        pool.state.idle.add(1);
        if (pool.idle.watchDeadline(pool.state.processors[1]) != deadline) {
            throw new IllegalStateException("set-up: carrier 1 must watch");
        }
    }

    @Actor
    public void watcherGetsUp(II_Result r) {
        Idle watch = pool.idle;
        watch.sleepers.stopWatching(1);
        pool.state.idle.tryRemove(1);
        r.r1 = watch.handOffWatch(pool.state.processors[1]);
    }

    @Actor
    public void carrierGoesToSleep(II_Result r) {
        pool.state.idle.add(0);
        r.r2 = pool.idle.watchDeadline(pool.state.processors[0]) != TimerHeap.NONE ? 1 : 0;
    }
}
