package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.observe.SchedulerCounters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the last searcher does once it has found a task ({@code Carrier.stopSearching}): it wakes another carrier for
 * work still in sight, and for nothing else. Tasks arriving one at a time from outside, as a server's dispatcher
 * thread submits requests, used to cost two wake-ups each, the second empty (Go's rule: wake one whatever is left).
 */
class LastSearcherWakeTest {
    private static final long MEET_NANOS = TimeUnit.SECONDS.toNanos(20);

    @Test
    void aTaskFromOutsideWakesOneCarrierNotTwo() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        pool.start();
        int rounds = 200;
        try {
            PoolQuiet.await(pool.state);
            SchedulerCounters before = SchedulerCounters.of(pool);
            for (int round = 0; round < rounds; round++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertTrue(ran.await(20, TimeUnit.SECONDS), "a task submitted from outside never ran");
                PoolQuiet.await(pool.state);
            }
            SchedulerCounters d = SchedulerCounters.of(pool).minus(before);
            // Each round wakes a carrier for its task unless the other one is still up; with Go's rule nearly every
            // round also woke the second carrier for nothing.
            assertTrue(d.wakeUps() >= rounds / 2, "the carriers were not parked between tasks, nothing tested: " + d);
            assertTrue(d.emptyWakeUps() <= rounds / 10, "wake-ups that found nothing: " + d);
            Rescues.assertNone(pool);
        } finally {
            pool.stop();
            pool.joinCarriers();
        }
    }

    /**
     * Two tasks queued together from outside: the first submitter wakes a carrier, the second sees it searching and
     * wakes nobody, so the carrier that takes the first must wake the other for the second. The first task does not
     * park until the second runs, so the second needs the other carrier; without the wake it waits for the monitor's
     * rescue, which the test counts.
     */
    @Test
    void aSecondQueuedTaskGetsTheOtherCarrier() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        pool.start();
        try {
            for (int round = 0; round < 50; round++) {
                PoolQuiet.await(pool.state);
                CountDownLatch started = new CountDownLatch(2);
                CountDownLatch done = new CountDownLatch(2);
                Runnable meet = () -> {
                    started.countDown();
                    long deadline = System.nanoTime() + MEET_NANOS;
                    while (started.getCount() > 0 && System.nanoTime() - deadline < 0) {
                        Thread.onSpinWait();
                    }
                    done.countDown();
                };
                pool.execute(meet);
                pool.execute(meet);
                assertTrue(done.await(30, TimeUnit.SECONDS), "the two tasks never both ran");
                assertEquals(0, started.getCount(), "a task gave up waiting for the other one to start");
            }
            assertEquals(0, pool.monitor.rescues(), "a queued task waited for the monitor: a wake-up was missed");
        } finally {
            pool.stop();
            pool.joinCarriers();
        }
    }
}
