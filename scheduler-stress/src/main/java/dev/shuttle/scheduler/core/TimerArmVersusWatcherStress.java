package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.Timer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Timer arm versus a carrier going to sleep as the timer watcher, on the real {@link TimerService} and {@link
 * Idle} (carriers not started). A timer due in 10 s is pending; an idle carrier computes how long to sleep while
 * a platform thread arms a timer due in 5 s. Either the sleeper's re-read sees the new timer, or the arming thread sees
 * the watcher's published deadline (or no watcher yet) and wakes a carrier.
 *
 * <p>Two defences close this race, and each alone suffices: the watcher's re-read of the heaps after publishing
 * {@code watchUntil}, and the arming thread waking an idle carrier when it finds no watcher published yet. With both
 * removed, this test reports the lost wake-up (about 1% of samples in {@code -m quick}); with either one kept, none.
 *
 * <p>Results: r1 = the deadline the carrier would sleep toward (1: the new 5 s timer, 2: the old 10 s one),
 * r2 = the arming thread woke a carrier.
 *
 * <p>Mutants ({@code ./shuttle mutants TimerArmVersusWatcherStress}; scheduler-stress/mutants/TimerArmVersusWatcherStress):
 * {@code arm-without-watch-look}, forbidden "2, 0" in 4 of 4 configurations of {@code -m quick -sc false}. Removing
 * only the watcher's second read of the heaps is not caught here: an arm that finds no watcher yet wakes the idle
 * carrier itself.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the watcher saw the new timer")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both: a spare wake-up")
@Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "the watcher slept toward the old timer; the arm woke it")
@Outcome(id = "2, 0", expect = FORBIDDEN, desc = "lost: asleep past the new deadline and nobody woken")
@Outcome(expect = FORBIDDEN, desc = "the carrier did not watch although a timer was pending")
@State
public class TimerArmVersusWatcherStress {
    private final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
    private final long base = System.nanoTime();
    private final Timer early = new Timer(() -> { }, base + TimeUnit.SECONDS.toNanos(5));

    public TimerArmVersusWatcherStress() {
        pool.state.processors[1].timers.arm(new Timer(() -> { }, base + TimeUnit.SECONDS.toNanos(10)));
        pool.state.idle.add(0);
    }

    @Actor
    public void idleCarrierDecidesHowLongToSleep(II_Result r) {
        long until = pool.idle.watchDeadline(pool.state.processors[0]);
        r.r1 = until == early.deadline() ? 1 : until == early.deadline() + TimeUnit.SECONDS.toNanos(5) ? 2 : 0;
    }

    @Actor
    public void platformThreadArms(II_Result r) {
        r.r2 = pool.timers.arm(early) ? 1 : 0;
    }
}
