package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.scheduler.ShuttleScheduler;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DelayCountsTest {
    @Test
    void aReadingTravelsAsItsLineAndARunIsTheDifferenceOfTwo() {
        DelayCounts before = DelayCounts.parse("default 0-32:5 4096-4608:1");
        DelayCounts after = DelayCounts.parse("default 0-32:25 4096-4608:1 4194304-4718592:4");
        assertEquals("default 0-32:25 4096-4608:1 4194304-4718592:4", after.format());
        assertEquals(after, DelayCounts.parse(after.format()));
        DelayCounts run = after.since(before);
        assertArrayEquals(new long[] {20, 0, 4}, run.counts());
        assertEquals(24, run.samples());
        // 20 of 24 in the first bucket: p50 and p80 there, p90 and p99 in the 4.2-4.7 ms one, each its upper bound.
        assertEquals(32, run.percentileNanos(50));
        assertEquals(32, run.percentileNanos(83));
        assertEquals(4718592, run.percentileNanos(90));
        assertEquals(4718592, run.percentileNanos(99));
        assertTrue(Double.isNaN(before.since(before).percentileNanos(99)), "no sample, no percentile");
        assertEquals(1L << 39, DelayCounts.parse("default " + (1L << 39) + "-" + Long.MAX_VALUE + ":1")
                .percentileNanos(99), "the overflow bucket has no upper bound: its lower one");
        assertEquals(0, DelayCounts.parse("jdk-default").samples(), "a bean with no sample yet");
    }

    @Test
    void aDifferenceWithAnotherSchedulerOrFewerCountsIsRefused() {
        DelayCounts shuttle = DelayCounts.parse("default 0-32:5");
        IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                () -> DelayCounts.parse("jdk-default 0-32:6").since(shuttle));
        assertEquals("scheduling delays of jdk-default after a reading of default", other.getMessage());
        IllegalArgumentException lost = assertThrows(IllegalArgumentException.class,
                () -> DelayCounts.parse("default 32-64:6").since(shuttle));
        assertEquals("scheduling delays went down in the bucket from 0 ns: not an earlier reading of the same"
                + " scheduler", lost.getMessage());
    }

    @Test
    void malformedLinesAreRefusedQuotedWithWhy() {
        List<String> messages = new ArrayList<>();
        for (String line : List.of("", " 0-32:1", "default 0-32", "default 32-0:1", "default 0-32:0",
                "default 0-x:1", "default 64-96:1 0-32:1", "default 0-32:1  64-96:1")) {
            messages.add(assertThrows(IllegalArgumentException.class, () -> DelayCounts.parse(line)).getMessage());
        }
        assertEquals(List.of(
                "malformed scheduling delays ``: no scheduler name",
                "malformed scheduling delays ` 0-32:1`: no scheduler name",
                "malformed scheduling delays `default 0-32`: `0-32` is not lower-upper:count",
                "malformed scheduling delays `default 32-0:1`: bucket `32-0:1` is empty or out of order",
                "malformed scheduling delays `default 0-32:0`: bucket `0-32:0` has no count",
                "malformed scheduling delays `default 0-x:1`: `0-x:1` is not lower-upper:count in whole numbers",
                "malformed scheduling delays `default 64-96:1 0-32:1`: bucket `0-32:1` is empty or out of order",
                "malformed scheduling delays `default 0-32:1  64-96:1`: `` is not lower-upper:count"), messages);
    }

    /**
     * The server's {@code /delay} reads the bean of the scheduler named {@code default}, as the agent names the one
     * it installs: here a Shuttle scheduler of that name in this JVM, which ran a few hundred starts and yields.
     */
    @Test
    void theServerAnswersTheDefaultSchedulersBean() throws Exception {
        ServerHandlers handlers = ServerHandlers.prepare();
        assertEquals("", handlers.control(ServerHandlers.DELAY), "no scheduling-delay bean yet");
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("default").parallelism(1).build()) {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                threads.add(shuttle.ofVirtual().start(Thread::yield));
            }
            for (Thread t : threads) {
                t.join();
            }
            DelayCounts counts = DelayCounts.parse(handlers.control(ServerHandlers.DELAY));
            assertEquals("default", counts.scheduler());
            // 400 hand-offs, one in eight sampled: 50 expected, a standard deviation of about 7.
            assertTrue(counts.samples() > 10 && counts.samples() < 100, counts.format());
        }
    }
}
