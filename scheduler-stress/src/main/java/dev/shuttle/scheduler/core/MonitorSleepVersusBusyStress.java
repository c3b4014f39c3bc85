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
 * The monitor deciding to sleep without a timeout (every processor idle, no timer, nothing queued) versus the first
 * carrier getting busy: its idle bit cleared, then {@code Idle.processorBusy}. The monitor publishes
 * {@code asleep} and then looks at the idle set again; the carrier clears its bit and then reads {@code asleep}. On
 * the real pool and monitor; nothing is started (the actors play the monitor and a waker).
 *
 * <p>Results: r1 = the monitor decided to sleep ({@code Monitor.prepareToSleep}); r2 = it is still asleep afterwards,
 * i.e. nobody is going to wake it although a processor is busy.
 *
 * <p>Mutants ({@code ./shuttle mutants MonitorSleepVersusBusyStress};
 * scheduler-stress/mutants/MonitorSleepVersusBusyStress): {@code no-second-look}, forbidden "1, 1" in 7 of 8
 * configurations of {@code -m quick -sc false} (both tests).
 */
public class MonitorSleepVersusBusyStress {

    /** A carrier is woken with nothing queued (a last searcher handing on, a timer's wake): only the bit changes. */
    @JCStressTest
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the monitor saw the busy processor and stays up")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the monitor sleeps; the busy carrier saw it and woke it")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "the monitor sleeps without a timeout while a processor is busy")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "the monitor stays up but says it sleeps: nobody would wake it")
    @State
    public static class Woken {
        final CarrierPool pool = allIdle();

        @Actor
        public void monitorSleeps(II_Result r) {
            r.r1 = pool.monitor.prepareToSleep() ? 1 : 0;
        }

        @Actor
        public void waker() {
            if (!pool.idle.wakep()) {
                throw new IllegalStateException("with every processor idle and nobody searching, wakep wakes one");
            }
        }

        @Arbiter
        public void after(II_Result r) {
            r.r2 = pool.idle.monitorAsleep() ? 1 : 0;
        }
    }

    /** A platform thread submits the first task: it is queued before a carrier is woken for it. */
    @JCStressTest
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the monitor saw the task or the busy processor; stays up")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the monitor sleeps; the busy carrier saw it and woke it")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "the monitor sleeps without a timeout while a processor is busy")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "the monitor stays up but says it sleeps: nobody would wake it")
    @State
    public static class Submitted {
        final CarrierPool pool = allIdle();

        @Actor
        public void monitorSleeps(II_Result r) {
            r.r1 = pool.monitor.prepareToSleep() ? 1 : 0;
        }

        @Actor
        public void platformThreadSubmits() {
            pool.execute(() -> { });
        }

        @Arbiter
        public void after(II_Result r) {
            r.r2 = pool.idle.monitorAsleep() ? 1 : 0;
        }
    }

    static CarrierPool allIdle() {
        CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        pool.state.idle.add(0);
        pool.state.idle.add(1);
        return pool;
    }
}
