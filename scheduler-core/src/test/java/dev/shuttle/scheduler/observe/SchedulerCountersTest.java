package dev.shuttle.scheduler.observe;

import dev.shuttle.scheduler.core.Rescues;
import dev.shuttle.scheduler.core.SchedulerAccess;
import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.core.CarrierPool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerCountersTest {

    @Test
    void countersSeeWhatTheThreadsDid() throws Exception {
        int threads = 200;
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            CarrierPool pool = SchedulerAccess.poolOf(shuttle);
            SchedulerCounters before = SchedulerCounters.of(pool);
            Thread[] started = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                started[i] = shuttle.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                });
            }
            for (Thread t : started) {
                t.join();
            }
            // Idle again: both carriers parked at least once after the work.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.state.idle.count() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            SchedulerCounters d = SchedulerCounters.of(pool).minus(before);
            // Each thread runs once to its sleep and once after it; a run may be split further, never merged.
            assertTrue(d.tasksRun() >= 2L * threads, "tasksRun " + d);
            // Every sleep armed its timer on a carrier and every timer fired, once. Firing is counted by the loop's
            // one runner, so exactly; an arm may lose its count only to a carrier that lost its processor (at most
            // one per hand-off, which a loaded machine can cause by keeping a carrier off the CPU).
            assertEquals(threads, d.timersFired(), d.toString());
            assertTrue(d.timersArmed() <= threads && d.timersArmed() >= threads - d.handOffs(), d.toString());
            assertTrue(d.timersStolen() <= d.timersFired(), d.toString());
            assertTrue(d.parks() >= 1, d.toString());
            assertTrue(d.parks() >= d.wakeUps(), "every wake-up ends a sleep: " + d);
            assertTrue(d.emptyWakeUps() <= d.wakeUps(), "an empty wake-up is a wake-up: " + d);
            Rescues.assertNone(shuttle);
        }
    }
}
