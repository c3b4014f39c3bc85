package dev.shuttle.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.*;

/** The anti-starvation bound: waiting time stays bounded although sleepers form a LIFO stack. */
class SpinBitStarvationTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void eightPlatformThreadsNeverWaitMoreThan250ms() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        int n = 8;
        long runNanos = TimeUnit.SECONDS.toNanos(5);
        long[] maxGap = new long[n];
        long[] acquisitions = new long[n];
        long[] shared = {0};
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            int id = i;
            threads[i] = Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                long last = System.nanoTime();
                while (!stop.get()) {
                    lock.lock();
                    long now = System.nanoTime();
                    shared[0]++;
                    lock.unlock();
                    maxGap[id] = Math.max(maxGap[id], now - last);
                    acquisitions[id]++;
                    last = now;
                }
                // The final wait ends in our own acquisition, measured above.
            });
        }
        start.countDown();
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(runNanos));
        stop.set(true);
        for (Thread t : threads) {
            t.join();
        }
        long total = 0;
        StringBuilder report = new StringBuilder();
        for (int i = 0; i < n; i++) {
            total += acquisitions[i];
            report.append(String.format("thread %d: %d acquisitions, max gap %.1f ms%n",
                    i, acquisitions[i], maxGap[i] / 1e6));
        }
        System.out.print(report);
        assertEquals(total, shared[0]);
        for (int i = 0; i < n; i++) {
            assertTrue(acquisitions[i] > 0, "thread " + i + " never acquired\n" + report);
            assertTrue(maxGap[i] < TimeUnit.MILLISECONDS.toNanos(250),
                    "thread " + i + " waited too long\n" + report);
        }
    }
}
