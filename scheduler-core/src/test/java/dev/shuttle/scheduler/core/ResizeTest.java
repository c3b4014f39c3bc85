package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.ShuttleSchedulerMXBean;
import dev.shuttle.scheduler.observe.SchedulerMXBeanImpl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.management.JMX;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ResizeTest {

    /**
     * Many virtual threads sleep, park, yield, hand off through synchronous queues and schedule timers while the pool
     * goes 2 -> 1 -> 4 -> 2 several times. Every step and every timer is counted: a lost task or timer leaves a thread
     * unfinished or a count short, a task run twice or a timer fired twice makes a count too high.
     */
    @Test
    void resizingUnderLoadLosesNoTaskAndNoTimer() throws Exception {
        int pairs = 100;
        int steps = 200;
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            AtomicInteger stepsDone = new AtomicInteger();
            AtomicInteger handedOver = new AtomicInteger();
            AtomicInteger timersFired = new AtomicInteger();
            AtomicInteger timersScheduled = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < pairs; i++) {
                SynchronousQueue<Integer> channel = new SynchronousQueue<>();
                threads.add(shuttle.ofVirtual().start(() -> {
                    for (int k = 0; k < steps; k++) {
                        step(k, stepsDone);
                        try {
                            channel.put(k);
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        if (k % 10 == 0) {
                            timersScheduled.incrementAndGet();
                            shuttle.schedule(timersFired::incrementAndGet, 1 + k % 3, TimeUnit.MILLISECONDS);
                        }
                    }
                }));
                threads.add(shuttle.ofVirtual().start(() -> {
                    for (int k = 0; k < steps; k++) {
                        step(k + 1, stepsDone);
                        try {
                            assertEquals(k, channel.take());
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                        handedOver.incrementAndGet();
                    }
                }));
            }
            int cycles = 0;
            while (stepsDone.get() < pairs * steps && cycles < 20) {
                for (int size : new int[] {1, 4, 2}) {
                    shuttle.setParallelism(size);
                    assertEquals(size, shuttle.parallelism());
                    Thread.sleep(15);
                }
                cycles++;
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                assertTrue(!t.isAlive(), "a virtual thread never finished: a task or its timer was lost; " + shuttle);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (timersFired.get() < timersScheduled.get() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            Thread.sleep(20); // a timer fired twice would show now
            assertTrue(cycles >= 1, "the load ended before any resize");
            assertEquals(2 * pairs * steps, stepsDone.get());
            assertEquals(pairs * steps, handedOver.get());
            assertEquals(timersScheduled.get(), timersFired.get(), "scheduled timers fired exactly once each");
            assertEquals(2, shuttle.parallelism());
            assertEquals(0, SchedulerAccess.poolOf(shuttle).monitor.rescues(), "a wake-up was lost and only the monitor found it");
        }
    }

    private static void step(int k, AtomicInteger done) {
        switch (k % 4) {
            case 0 -> {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            case 1 -> LockSupport.parkNanos(200_000);
            case 2 -> Thread.yield();
            default -> {
                // runs through without parking
            }
        }
        done.incrementAndGet();
    }

    /**
     * After a grow and after a shrink, spinning virtual threads (they never park, so each keeps its carrier) reach a
     * barrier exactly as many at once as there are processors. The extra ones must not get through in half a second,
     * which no load can make them do: only a processor runs a virtual thread.
     */
    @Test
    void carriersRunAsManyThreadsAtOnceAsTheNewSize() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            shuttle.setParallelism(3);
            assertRunningAtOnce(shuttle, 3);
            shuttle.setParallelism(1);
            assertRunningAtOnce(shuttle, 1);
            shuttle.setParallelism(2);
            assertRunningAtOnce(shuttle, 2);
            Rescues.assertNone(shuttle);
        }
    }

    private static void assertRunningAtOnce(ShuttleScheduler shuttle, int size) throws InterruptedException {
        AtomicInteger arrived = new AtomicInteger();
        AtomicInteger release = new AtomicInteger();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < size + 2; i++) {
            spinners.add(shuttle.ofVirtual().start(() -> {
                arrived.incrementAndGet();
                while (release.get() == 0) {
                    Thread.onSpinWait();
                }
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (arrived.get() < size && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Thread.sleep(500);
        int atOnce = arrived.get();
        release.set(1);
        for (Thread t : spinners) {
            t.join();
        }
        assertEquals(size, atOnce, "virtual threads running at once with parallelism " + size);
        assertEquals(size, shuttle.parallelism());
        assertEquals(size, SchedulerAccess.poolOf(shuttle).getParallelism());
        assertEquals(size, SchedulerAccess.poolOf(shuttle).state.processors.length);
    }

    /** Timers of retired processors move to the remaining one, fire once, and not before their time. */
    @Test
    void timersOfRetiredProcessorsFireOnTimeOnTheRest() throws Exception {
        int sleepers = 200;
        long sleepNanos = TimeUnit.MILLISECONDS.toNanos(300);
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(4).build()) {
            CarrierPool pool = SchedulerAccess.poolOf(shuttle);
            AtomicInteger early = new AtomicInteger();
            AtomicInteger woke = new AtomicInteger();
            AtomicInteger asleep = new AtomicInteger();
            for (int i = 0; i < sleepers; i++) {
                shuttle.ofVirtual().start(() -> {
                    long start = System.nanoTime();
                    asleep.incrementAndGet();
                    LockSupport.parkNanos(sleepNanos);
                    if (System.nanoTime() - start < sleepNanos) {
                        early.incrementAndGet();
                    }
                    woke.incrementAndGet();
                });
            }
            while (asleep.get() < sleepers) {
                Thread.sleep(1);
            }
            shuttle.setParallelism(1);
            for (int i = 1; i < 4; i++) {
                assertTrue(pool.state.everCreated()[i].timers.isEmpty(), "a retired processor kept timers");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (woke.get() < sleepers && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(sleepers, woke.get(), "every timed park came back");
            assertEquals(0, early.get(), "no timer fired before its deadline");
            Rescues.assertNone(shuttle);
        }
    }

    /** Counters of retired processors stay in the totals; the MXBean follows the size. */
    @Test
    void countersOfRetiredProcessorsStayInTheTotals() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(4).build()) {
            CarrierPool pool = SchedulerAccess.poolOf(shuttle);
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                threads.add(shuttle.ofVirtual().start(() -> LockSupport.parkNanos(100_000)));
            }
            for (Thread t : threads) {
                t.join();
            }
            ShuttleSchedulerMXBean bean = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                    SchedulerMXBeanImpl.objectName(shuttle.name()), ShuttleSchedulerMXBean.class);
            long before = bean.getTasksRun();
            assertTrue(before >= 400, "tasks run " + before);
            shuttle.setParallelism(1);
            assertTrue(bean.getTasksRun() >= before, "tasks run of retired processors vanished from the total");
            assertEquals(1, bean.getParallelism());
            assertEquals(1, bean.getProcessors().length);
            shuttle.setParallelism(3);
            assertEquals(3, bean.getProcessors().length);
            assertTrue(bean.getTasksRun() >= before, "tasks run went backwards after a grow");
            assertEquals(4, pool.state.everCreated().length, "a grow brings retired processors back, not new ones");
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void badSizesThrowNamingTheValueAndChangeNothing() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2)
                .keepAlive(Duration.ofSeconds(30)).build()) {
            int carriers = shuttle.carrierThreads();
            for (int bad : new int[] {0, -1, 32768, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> shuttle.setParallelism(bad));
                assertTrue(e.getMessage().contains(Integer.toString(bad)), e.getMessage());
                IllegalArgumentException viaPool = assertThrows(IllegalArgumentException.class,
                        () -> SchedulerAccess.poolOf(shuttle).setParallelism(bad));
                assertTrue(viaPool.getMessage().contains(Integer.toString(bad)), viaPool.getMessage());
                assertEquals(2, shuttle.parallelism());
                assertEquals(carriers, shuttle.carrierThreads());
            }
            AtomicLong ran = new AtomicLong();
            shuttle.ofVirtual().start(ran::incrementAndGet).join();
            assertEquals(1, ran.get(), "the scheduler still runs after refused resizes");
        }
    }
}
