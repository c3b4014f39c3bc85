package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Twice as many busy-looping virtual threads as processors. Without a time slice, half of them never run (as on the
 * JDK: a virtual thread cannot be preempted); with {@code timeSlice}, the monitor hands a processor whose thread ran
 * past the slice to another carrier thread, and the operating system shares the cores between all of them.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TimeSliceTest {
    static final long GENEROUS_MILLIS = 30_000;

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2})
    void withATimeSliceEveryBusyLoopMakesProgress(int parallelism) throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(parallelism)
                .timeSlice(Duration.ofMillis(5)).keepAlive(BlockedCarriersTest.KEEP_ALIVE).build()) {
            Spinners spinners = new Spinners(shuttle, 2 * parallelism);
            try {
                assertTrue(spinners.awaitRunning(2 * parallelism),
                        "not every busy loop ran: " + spinners + "; " + shuttle);
            } finally {
                spinners.stop();
            }
            assertTrue(SchedulerAccess.poolOf(shuttle).monitor.retakes() > 0, "no processor was handed on at the slice");
            BlockedCarriersTest.awaitCarrierThreads(shuttle, parallelism);
            Rescues.assertNone(shuttle);
        }
    }

    /** The same without a time slice: the starvation the option exists for, and what makes the test above fail. */
    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2})
    void withoutATimeSliceBusyLoopsStarveTheOthers(int parallelism) throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(parallelism)
                .keepAlive(BlockedCarriersTest.KEEP_ALIVE).build()) {
            Spinners spinners = new Spinners(shuttle, 2 * parallelism);
            try {
                assertTrue(spinners.awaitRunning(parallelism), "the busy loops did not start: " + spinners);
                Thread.sleep(300);
                assertTrue(spinners.running() < 2 * parallelism,
                        "every busy loop ran without a time slice: " + spinners);
            } finally {
                spinners.stop();
            }
            // The starved threads wait behind busy processors, not idle ones: the monitor calls that no lost wake-up.
            Rescues.assertNone(shuttle);
        }
    }

    /** Virtual threads that each count in their own slot until stopped, never parking or yielding. */
    static final class Spinners {
        private final AtomicLongArray counters;
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean stop;

        Spinners(ShuttleScheduler shuttle, int n) {
            counters = new AtomicLongArray(n);
            for (int i = 0; i < n; i++) {
                int k = i;
                threads.add(shuttle.ofVirtual().name("spinner-" + i).start(() -> {
                    while (!stop) {
                        counters.setOpaque(k, counters.getOpaque(k) + 1);
                    }
                }));
            }
        }

        /** How many have counted at least once. */
        int running() {
            int n = 0;
            for (int i = 0; i < counters.length(); i++) {
                n += counters.get(i) > 0 ? 1 : 0;
            }
            return n;
        }

        boolean awaitRunning(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GENEROUS_MILLIS);
            while (running() < n && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            return running() >= n;
        }

        void stop() throws InterruptedException {
            stop = true;
            for (Thread t : threads) {
                assertTrue(t.join(Duration.ofMillis(GENEROUS_MILLIS)), t + " did not stop");
            }
        }

        @Override
        public String toString() {
            return "counters " + counters;
        }
    }
}
