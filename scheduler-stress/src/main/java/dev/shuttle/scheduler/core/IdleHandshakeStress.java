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
 * {@link Idle}'s park/publish handshake, both halves on the real classes (carriers not started: the actors play
 * them). The sleeper is a carrier going idle with nothing in sight: {@link Idle#goIdle} (publish the idle bit, then
 * look at the queues) and, if that says sleep, the non-blocking half of its sleep, {@link Idle#watchDeadline} (publish
 * the watch, then look at the heaps). The publisher is a platform thread handing the pool work from outside, through
 * the executor ({@code CarrierPool.execute}: publish the task, then {@link Idle#wakep}) or the timers ({@code
 * TimerService.arm}: publish the timer, then {@link Idle#awakeBy}). Whatever the interleaving, either the sleeper's
 * look sees the work, or the publisher's look sees the sleeper and wakes it; the forbidden outcome is the lost
 * wake-up, a sleeper that will sleep past the work with nobody to wake it.
 *
 * <p>Mutants ({@code ./shuttle mutants IdleHandshakeStress}; scheduler-stress/mutants/IdleHandshakeStress), each the
 * removal of one side's publication or look, each caught in 4 of 4 configurations of {@code -m quick -sc false}:
 * by {@code Work}, "1, 1" from {@code sleeper-looks-before-publishing} (the idle bit set after the look),
 * {@code sleeper-no-look}, {@code publisher-looks-before-publishing} ({@code wakep} before the task is queued) and
 * {@code publisher-no-look} ({@code execute} queues and wakes nobody); by {@code Timer}, "0, 0" from
 * {@code arm-ignores-watcher} (an arm that finds a watcher sleeping too long does not unpark it). Removing only the
 * watcher's second read of the heaps is not caught by {@code Timer}: an arm that finds no watcher yet wakes the idle
 * carrier itself (as in TimerArmVersusWatcherStress).
 */
public class IdleHandshakeStress {

    /**
     * Work queued from outside versus the only carrier going idle. r1 = the carrier decided to sleep (1) or stayed
     * up (0); r2 = its idle bit is still set afterwards, so nobody is going to wake it.
     */
    @JCStressTest
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper's look saw the task; it stays up")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the sleeper sleeps; the publisher's look saw it and woke it")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost wake-up: asleep with the task queued and nobody to wake it")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "up but still marked idle: a later waker would count on it")
    @State
    public static class Work {
        final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);

        @Actor
        public void carrierGoesIdle(II_Result r) {
            r.r1 = pool.idle.goIdle(pool.state.processors[0], false) ? 1 : 0;
        }

        @Actor
        public void platformThreadSubmits() {
            pool.execute(() -> { });
        }

        @Arbiter
        public void after(II_Result r) {
            r.r2 = pool.state.idle.contains(0) ? 1 : 0;
        }
    }

    /**
     * A timer armed from outside versus the only carrier going idle and computing its sleep, with a timer due in
     * 10 s already pending (so the carrier becomes the watcher). r1 = the carrier sleeps toward the new timer's
     * deadline or earlier, or stays up (1), or sleeps past it (0); r2 = the arm woke a carrier (1) or not (0).
     */
    @JCStressTest
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the sleeper's look saw the timer; nobody needed waking")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the sleeper saw the timer, and the arm woke it as well")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the sleeper sleeps too long; the arm's look woke it")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost wake-up: the watcher sleeps past the new timer")
    @State
    public static class Timer {
        final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);
        final long armedAt = System.nanoTime();

        public Timer() {
            pool.timers.schedule(() -> { }, 10, TimeUnit.SECONDS);
        }

        @Actor
        public void carrierGoesIdle(II_Result r) {
            Processor proc = pool.state.processors[0];
            if (!pool.idle.goIdle(proc, false)) {
                r.r1 = 1;
                return;
            }
            long until = pool.idle.watchDeadline(proc);
            r.r1 = until != TimerHeap.NONE && until - armedAt < TimeUnit.SECONDS.toNanos(7) ? 1 : 0;
        }

        @Actor
        public void platformThreadArms(II_Result r) {
            r.r2 = pool.timers.arm(new dev.shuttle.timers.Timer(() -> { }, System.nanoTime()
                    + TimeUnit.SECONDS.toNanos(5))) ? 1 : 0;
        }

        @Arbiter
        public void after(II_Result r) {
            pool.idle.sleepers.stopWatching(0);
        }
    }
}
