package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.observe.SchedulerCounters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Netpoll} in a pool of its own, driving a stand-in for a JDK poller: an eventfd that is "ready" once written,
 * whose poll drains it and hands the pool a task, as the JDK's {@code Poller.poll} unparks a thread. The agent's
 * end-to-end tests drive the JDK's real pollers (NetpollIT). Time bounds are only "it happens at all" (20 s). A
 * carrier that a broken wake-up leaves in {@code epoll_wait} would also hang the pool's stop: the timeout interrupts
 * the join.
 */
@Timeout(120)
class NetpollTest {
    private static final long WAIT_SECONDS = 20;

    @BeforeEach
    void nativeAccess() {
        assumeTrue(EPoll.available(), "epoll needs Linux and --enable-native-access");
    }

    /** A poller stand-in: ready while its eventfd is written; polling drains it and submits {@code onReady}. */
    private static final class FakePoller implements Netpoll.Pollers {
        final int fd = EPoll.eventFd();
        final EPoll.Buffer buffer = new EPoll.Buffer(1);
        final CarrierPool pool;
        final AtomicReference<Thread> polledBy = new AtomicReference<>();
        volatile Runnable onReady = () -> { };

        FakePoller(CarrierPool pool) {
            this.pool = pool;
        }

        void makeReady() {
            EPoll.signal(fd, new EPoll.Buffer(1));
        }

        @Override
        public int[] descriptors() {
            return new int[] {fd};
        }

        @Override
        public int pollNow(int index) {
            assertEquals(0, index);
            EPoll.drain(fd, buffer);
            polledBy.set(Thread.currentThread());
            pool.execute(onReady);
            return 1;
        }
    }

    /** Submits a no-op so the pool's parked carriers get up, and waits until one sleeps in the poll. */
    private static CarrierThread awaitPollSleeper(CarrierPool pool) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        pool.execute(ran::countDown);
        assertTrue(ran.await(WAIT_SECONDS, TimeUnit.SECONDS));
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        CarrierThread w;
        while ((w = pool.netpoll.waiter()) == null && System.nanoTime() < end) {
            Thread.sleep(1);
        }
        assertNotNull(w, "no idle carrier went to sleep in the poll");
        return w;
    }

    @Test
    void readinessGetsThePollSleeperUpAndItRunsWhatThePollUnparked() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        pool.start();
        try {
            FakePoller poller = new FakePoller(pool);
            pool.netpoll.adopt(poller);
            CarrierThread sleeper = awaitPollSleeper(pool);
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            poller.onReady = () -> {
                ranOn.set(Thread.currentThread());
                ran.countDown();
            };
            poller.makeReady();
            assertTrue(ran.await(WAIT_SECONDS, TimeUnit.SECONDS), "readiness never reached the task");
            assertTrue(poller.polledBy.get() instanceof CarrierThread, "polled by " + poller.polledBy.get());
            assertSame(poller.polledBy.get(), ranOn.get(), "the carrier that polled runs what the poll unparked");
            SchedulerCounters c = SchedulerCounters.of(pool);
            assertTrue(c.pollsBlocking() >= 1, "the sleeper " + sleeper.getName() + " never returned from the poll");
            assertEquals(1, c.polledDescriptors(), "one descriptor was ready once");
            Rescues.assertNone(pool);
        } finally {
            pool.stop();
            pool.joinCarriers();
        }
    }

    @Test
    void aTaskFromOutsideWakesTheCarrierSleepingInThePoll() throws InterruptedException {
        CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);
        pool.start();
        try {
            pool.netpoll.adopt(new FakePoller(pool));
            for (int round = 0; round < 50; round++) {
                awaitPollSleeper(pool);
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertTrue(ran.await(WAIT_SECONDS, TimeUnit.SECONDS), "the poll sleeper was not woken");
            }
            // A lost eventfd wake-up would have been found by the monitor's rescue instead.
            Rescues.assertNone(pool);
        } finally {
            pool.stop();
            pool.joinCarriers();
        }
    }

    @Test
    void theMonitorPollsWhileEveryCarrierIsBusy() throws InterruptedException {
        CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);
        pool.start();
        try {
            FakePoller poller = new FakePoller(pool);
            pool.netpoll.adopt(poller);
            awaitPollSleeper(pool);
            CountDownLatch spinning = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
            pool.execute(() -> {
                spinning.countDown();
                while (poller.polledBy.get() == null && System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                done.countDown();
            });
            assertTrue(spinning.await(WAIT_SECONDS, TimeUnit.SECONDS));
            poller.makeReady();
            assertTrue(done.await(WAIT_SECONDS + 5, TimeUnit.SECONDS));
            Thread polledBy = poller.polledBy.get();
            assertNotNull(polledBy, "nobody polled while the only carrier was busy");
            assertFalse(polledBy instanceof CarrierThread, "polled by " + polledBy.getName());
            assertTrue(SchedulerCounters.of(pool).pollsByMonitor() >= 1);
        } finally {
            pool.stop();
            pool.joinCarriers();
        }
    }

    @Test
    void theSwitchTakesOnOrOffOnly() {
        assertTrue(NetpollInstall.parse(null));
        assertTrue(NetpollInstall.parse("on"));
        assertFalse(NetpollInstall.parse("off"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NetpollInstall.parse("yes"));
        assertEquals("-Dshuttle.netpoll=yes: must be on or off", e.getMessage());
    }
}
