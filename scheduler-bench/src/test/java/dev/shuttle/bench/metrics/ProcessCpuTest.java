package dev.shuttle.bench.metrics;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProcessCpuTest {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Test
    void availableWithNativeAccess() {
        assertNull(ProcessCpu.unavailableReason());
    }

    /**
     * A clock that counts scheduler ticks (the MXBean's, 4 or 10 ms on Linux) advances in steps of a tick while the
     * process spins; this one must advance in steps of about one reading. The median of 101 steps is used so that a
     * preemption or a GC between two readings cannot fail the test.
     */
    @Test
    void advancesInStepsFarBelowAClockTick() {
        long[] steps = new long[101];
        long last = ProcessCpu.nanos();
        for (int i = 0; i < steps.length; i++) {
            long now;
            while ((now = ProcessCpu.nanos()) == last) {
                Thread.onSpinWait();
            }
            steps[i] = now - last;
            last = now;
        }
        Arrays.sort(steps);
        long median = steps[steps.length / 2];
        assertTrue(median < 100_000, "median step " + median + " ns: the clock is not at nanosecond precision");
    }

    /** Other threads' CPU counts, also once they have ended: the clock is the whole process's, not the caller's. */
    @Test
    void countsCpuOfOtherThreadsThatEnded() throws InterruptedException {
        long spinNanos = 100_000_000L;
        AtomicLong spent = new AtomicLong();
        Runnable spin = () -> {
            long start = THREADS.getCurrentThreadCpuTime();
            long used;
            while ((used = THREADS.getCurrentThreadCpuTime() - start) < spinNanos) {
                Thread.onSpinWait();
            }
            spent.addAndGet(used);
        };
        long before = ProcessCpu.nanos();
        Thread a = Thread.ofPlatform().start(spin);
        Thread b = Thread.ofPlatform().start(spin);
        a.join();
        b.join();
        long delta = ProcessCpu.nanos() - before;
        // The two threads' own CPU is part of the process's; only the test thread's waiting and the JVM add to it.
        assertTrue(delta >= spent.get(), "process CPU " + delta + " ns < the spinning threads' " + spent.get()
                + " ns");
        assertTrue(spent.get() >= 2 * spinNanos, "the threads spun " + spent.get() + " ns");
    }
}
