package dev.shuttle.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The anti-starvation bound: waiting stays bounded although sleepers form a LIFO stack. Measured in acquisitions,
 * not milliseconds: how many times other threads took the lock between two acquisitions of one thread. A thread left
 * at the bottom of the stack is overtaken for as long as the others keep the lock busy, a large share of the run;
 * a loaded machine that keeps a thread off its core for a while costs it only that while's share. (Wall-clock gaps
 * are printed; {@code ReentrantLock} itself showed 300-430 ms gaps at a load of 10.)
 */
class SpinBitStarvationTest {

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void noneOfEightPlatformThreadsIsOvertakenForATenthOfTheRun() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        int n = 8;
        long runNanos = TimeUnit.SECONDS.toNanos(5);
        long[] maxGap = new long[n];
        long[] maxOvertaken = new long[n];
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
                long lastSeq = -1;
                while (!stop.get()) {
                    lock.lock();
                    long now = System.nanoTime();
                    long seq = shared[0]++;
                    lock.unlock();
                    maxGap[id] = Math.max(maxGap[id], now - last);
                    if (lastSeq >= 0) {
                        maxOvertaken[id] = Math.max(maxOvertaken[id], seq - lastSeq - 1);
                    }
                    acquisitions[id]++;
                    last = now;
                    lastSeq = seq;
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
            report.append(String.format("thread %d: %d acquisitions, overtaken at most %d times in a row,"
                    + " max gap %.1f ms%n", i, acquisitions[i], maxOvertaken[i], maxGap[i] / 1e6));
        }
        System.out.print(report);
        assertEquals(total, shared[0]);
        for (int i = 0; i < n; i++) {
            assertTrue(acquisitions[i] > 0, "thread " + i + " never acquired\n" + report);
            assertTrue(maxOvertaken[i] < total / 10,
                    "thread " + i + " was overtaken for a tenth of all " + total + " acquisitions\n" + report);
        }
    }
}
