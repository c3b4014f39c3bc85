package dev.shuttle.bench.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void readsTheTimeOnACpuOfASchedstatLine() {
        assertEquals(383_542L, ThreadCpu.onCpuNanos("383542 98034 1\n"));
        assertThrows(IllegalStateException.class, () -> ThreadCpu.onCpuNanos("x 1 2"));
    }

    /** A thread named as a dispatcher that spins 50 ms of its own clock adds at least that to its role. */
    @Test
    void countsTheCpuOfALiveThreadUnderItsRole() throws Exception {
        assumeTrue(ThreadSwitches.available(), "Linux only");
        long spin = TimeUnit.MILLISECONDS.toNanos(50);
        AtomicLong used = new AtomicLong();
        CountDownLatch read = new CountDownLatch(1);
        Thread spinner = Thread.ofPlatform().name("HTTP-Dispatcher-cpu").unstarted(() -> {
            var bean = java.lang.management.ManagementFactory.getThreadMXBean();
            long start = bean.getCurrentThreadCpuTime();
            while (bean.getCurrentThreadCpuTime() - start < spin) {
                Thread.onSpinWait();
            }
            used.set(bean.getCurrentThreadCpuTime() - start);
            while (read.getCount() > 0) {
                LockSupport.park();                  // stays alive until the second reading, spurious returns too
            }
        });
        Map<ThreadSwitches.Role, Long> before = ThreadCpu.read();
        spinner.start();
        while (used.get() == 0 && spinner.isAlive()) {
            Thread.sleep(10);
        }
        Thread.sleep(10);
        Map<ThreadSwitches.Role, Long> after = ThreadCpu.read();
        read.countDown();
        LockSupport.unpark(spinner);
        spinner.join();
        long counted = after.get(ThreadSwitches.Role.DISPATCHER) - before.get(ThreadSwitches.Role.DISPATCHER);
        assertTrue(counted >= spin, "spun " + spin + " ns of CPU, " + counted + " ns counted");
    }
}
