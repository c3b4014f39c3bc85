package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.SchedulingDelayMXBean;
import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.observe.JdkSchedulingDelays;
import dev.shuttle.scheduler.observe.SchedulerCounters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.scheduler.jdk.DelayHooksTransformer;
import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

import com.sun.management.ThreadMXBean;
import java.lang.invoke.MethodHandles;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMX;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SchedulingDelayTest {
    static final long MS = 1_000_000;
    /** Rounds of the known delay: at one sample in eight, none sampled has odds (7/8)^80, about 2 in 100,000. */
    static final int ROUNDS = 80;

    @TempDir
    Path dir;

    @Test
    void bucketsFollowGosLayout() {
        for (long v : new long[] {0, 1, 255, 256, 511, 512, 1000, 4_999_999, 5 * MS, 123_456_789, (1L << 39) - 1}) {
            int i = DelayHistogram.index(v);
            assertTrue(DelayHistogram.lowerBound(i) <= v && v < DelayHistogram.upperBound(i), "value " + v);
        }
        assertEquals(DelayHistogram.OVERFLOW, DelayHistogram.index(1L << 39));
        assertEquals(DelayHistogram.OVERFLOW, DelayHistogram.index(Long.MAX_VALUE));
        for (int i = 0; i < DelayHistogram.OVERFLOW; i++) {
            long lower = DelayHistogram.lowerBound(i);
            long upper = DelayHistogram.upperBound(i);
            assertTrue(lower < upper && upper - lower <= Math.max(32, lower / 4), "bucket " + i);
            assertEquals(i, DelayHistogram.index(lower));
            assertEquals(i, DelayHistogram.index(upper - 1));
        }
        // 5 ms lands in a bucket inside 4-6 ms, half a millisecond wide.
        int five = DelayHistogram.index(5 * MS);
        assertTrue(DelayHistogram.lowerBound(five) >= 4 * MS && DelayHistogram.upperBound(five) <= 6 * MS);
        long[] counts = new long[DelayHistogram.COUNTS];
        counts[DelayHistogram.index(1000)] = 98;
        counts[five] = 2;
        assertEquals(DelayHistogram.upperBound(DelayHistogram.index(1000)) - 1,
                DelayHistogram.Snapshot.quantile(counts, 0.5, 0));
        assertEquals(5 * MS, DelayHistogram.Snapshot.quantile(counts, 0.99, 5 * MS));
        assertEquals(0, DelayHistogram.Snapshot.quantile(new long[DelayHistogram.COUNTS], 0.99, 0));
    }

    /**
     * One processor: a driver starts a thread and computes for 5 ms before it lets the carrier go, so the started
     * thread waits 5 ms; every sampled start but the driver's own lands between 4 and 6 ms, through the MXBean, and
     * the threshold event names the waiter and the driver it waited behind.
     */
    @Test
    void aKnownFiveMillisecondWaitLandsInItsBucket() throws Exception {
        Path file = dir.resolve("delay.jfr");
        String name = "delay-known";
        Thread driver;
        try (Recording recording = new Recording();
             ShuttleScheduler shuttle = ShuttleScheduler.builder().name(name).parallelism(1).build()) {
            recording.enable("dev.shuttle.SchedulingDelay").with("minDelay", "3 ms");
            recording.start();
            driver = shuttle.ofVirtual().name("driver").start(SchedulingDelayTest::startAndCompute);
            driver.join();
            recording.stop();
            recording.dump(file);
            SchedulingDelayMXBean bean = JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                    new ObjectName("dev.shuttle:type=SchedulingDelay,name=" + name), SchedulingDelayMXBean.class);
            long[] bounds = bean.getSchedulingDelayBucketBoundsNanos();
            long[] starts = bean.schedulingDelayBucketCountsOf("start");
            long inFive = 0;
            long below = 0;
            for (int i = 0; i < starts.length; i++) {
                long upper = i + 1 < bounds.length ? bounds[i + 1] : Long.MAX_VALUE;
                if (bounds[i] >= 4 * MS && upper <= 6 * MS) {
                    inFive += starts[i];
                } else if (upper <= 4 * MS) {
                    below += starts[i];
                }
            }
            assertTrue(inFive >= 1, "no sampled start in 4-6 ms: " + java.util.Arrays.toString(starts));
            assertTrue(below <= 1, "starts that did not wait for the driver (only the driver's own may): " + below);
            assertTrue(bean.getSchedulingDelayMaxNanos() >= 4 * MS);
            assertTrue(bean.getSchedulingDelaySamples() >= inFive);
            assertTrue(bean.schedulingDelayPercentileNanos("start", 100) >= 4 * MS);
            assertThrows(IllegalArgumentException.class, () -> bean.schedulingDelayBucketCountsOf("sleep"));
            assertThrows(IllegalArgumentException.class, () -> bean.schedulingDelayPercentileNanos("all", 0));
            Rescues.assertNone(shuttle);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.shuttle.SchedulingDelay")
                        && name.equals(e.getString("scheduler"))).toList();
        assertTrue(!events.isEmpty(), () -> "no SchedulingDelay event past 3 ms: " + debug(file));
        for (RecordedEvent e : events) {
            assertTrue(e.getDuration("delay").toNanos() >= 3 * MS, e::toString);
            assertEquals("start", e.getString("kind"), e::toString);
            assertEquals("waiter", e.getThread("thread").getJavaName(), e::toString);
            assertEquals(driver.threadId(), e.getLong("previousThreadId"), e::toString);
        }
    }

    static String debug(Path file) {
        try {
            return RecordingFile.readAllEvents(file).stream().map(e -> e.getEventType().getName()).distinct().toList()
                    + " threshold " + SchedulingDelayEvent.minDelayNanos;
        } catch (Exception e) {
            return e.toString();
        }
    }

    static void startAndCompute() {
        for (int i = 0; i < ROUNDS; i++) {
            Thread waiter = Thread.ofVirtual().name("waiter").start(() -> { });
            long end = System.nanoTime() + 5 * MS;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            try {
                waiter.join();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /**
     * Two processors, then three, then one: the merged counts are the sum of every processor's, retired ones
     * included, they never go back across a resize, and they are about one in eight of the runs.
     */
    @Test
    void countsAddUpAcrossProcessorsAndResizes() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("delay-sum").parallelism(2).build()) {
            long before = 0;
            for (int size : new int[] {2, 3, 1}) {
                shuttle.setParallelism(size);
                yieldAndPark(shuttle, 8, 2000);
                DelayHistogram.Snapshot merged = SchedulingDelays.snapshot(SchedulerAccess.poolOf(shuttle).state);
                long total = DelayHistogram.Snapshot.total(merged.allKinds());
                long sum = 0;
                for (Processor p : SchedulerAccess.poolOf(shuttle).state.everCreated()) {
                    DelayHistogram.Snapshot one = new DelayHistogram.Snapshot();
                    p.delays.addTo(one);
                    sum += DelayHistogram.Snapshot.total(one.allKinds());
                }
                assertEquals(total, sum, "merged versus per processor at parallelism " + size);
                assertTrue(total >= before, "samples went back from " + before + " to " + total);
                before = total;
            }
            shuttle.setParallelism(1);
            long runs = SchedulerCounters.of(SchedulerAccess.poolOf(shuttle)).tasksRun();
            double expected = runs / (double) HandOffStamps.SAMPLE_PERIOD;
            double sigma = Math.sqrt(runs * (1.0 / 8) * (7.0 / 8));
            assertTrue(Math.abs(before - expected) < 6 * sigma, before + " samples of " + runs + " runs");
            long[] yields = SchedulingDelays.snapshot(SchedulerAccess.poolOf(shuttle).state).counts[HandOffStamps.YIELD];
            assertTrue(DelayHistogram.Snapshot.total(yields) > 0, "no yield sampled");
            Rescues.assertNone(shuttle);
        }
    }

    private static void yieldAndPark(ShuttleScheduler shuttle, int threads, int steps) throws InterruptedException {
        List<Thread> started = new ArrayList<>();
        AtomicLong done = new AtomicLong();
        for (int t = 0; t < threads; t++) {
            started.add(shuttle.ofVirtual().start(() -> {
                for (int i = 0; i < steps; i++) {
                    if (i % 2 == 0) {
                        Thread.yield();
                    } else {
                        java.util.concurrent.locks.LockSupport.parkNanos(1000);
                    }
                }
                done.incrementAndGet();
            }));
        }
        for (Thread t : started) {
            t.join();
        }
        assertEquals(threads, done.get());
    }

    /** The recording path, stamp to histogram, on this thread after warm-up: nothing allocated per hand-off. */
    @Test
    void recordingAllocatesNothing() throws Throwable {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        HandOffStamps stamps = new HandOffStamps();
        Processor proc = new PoolState(1, SpinPolicy.DEFAULT).processors[0];
        Thread vthread = JdkVirtualThreads.newBuilder(Runnable::run).unstarted(() -> { });
        Runnable task = (Runnable) MethodHandles.privateLookupIn(vthread.getClass(), MethodHandles.lookup())
                .findGetter(vthread.getClass(), "runContinuation", Runnable.class).invoke(vthread);
        long saved = SchedulingDelayEvent.minDelayNanos;
        SchedulingDelayEvent.minDelayNanos = Long.MAX_VALUE;
        try {
            burst(stamps, proc, vthread, task, 200_000);
            long id = Thread.currentThread().threadId();
            long start = threads.getThreadAllocatedBytes(id);
            burst(stamps, proc, vthread, task, 200_000);
            long allocated = threads.getThreadAllocatedBytes(id) - start;
            DelayHistogram.Snapshot s = new DelayHistogram.Snapshot();
            proc.delays.addTo(s);
            long samples = DelayHistogram.Snapshot.total(s.counts[HandOffStamps.WAKE]);
            assertTrue(samples > 40_000 && samples < 60_000, samples + " samples of 400,000");
            // One object per hand-off would be 3.2 MB at least; a few hundred bytes are the JIT's and the thread's own
            // bookkeeping over the burst (a lazily built lambda form, a deoptimisation), not the recording path.
            assertTrue(allocated < 64 * 1024, allocated + " bytes allocated by 200,000 hand-offs and starts");
        } finally {
            SchedulingDelayEvent.minDelayNanos = saved;
        }
    }

    /**
     * The JDK-default measuring mode's recording path ({@link JdkSchedulingDelays#accept}: a hand-off stamped into
     * the table, then the start that takes the stamp and records it in this carrier's histogram), after warm-up:
     * nothing allocated per hand-off either.
     */
    @Test
    void jdkDefaultRecordingAllocatesNothing() {
        ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        JdkSchedulingDelays delays = new JdkSchedulingDelays();
        Thread vthread = Thread.ofVirtual().unstarted(() -> { });
        long saved = SchedulingDelayEvent.minDelayNanos;
        SchedulingDelayEvent.minDelayNanos = Long.MAX_VALUE;
        try {
            jdkBurst(delays, vthread, 200_000);
            long id = Thread.currentThread().threadId();
            long start = threads.getThreadAllocatedBytes(id);
            jdkBurst(delays, vthread, 200_000);
            long allocated = threads.getThreadAllocatedBytes(id) - start;
            long samples = DelayHistogram.Snapshot.total(delays.snapshot().allKinds());
            assertTrue(samples > 40_000 && samples < 60_000, samples + " samples of 400,000");
            assertTrue(allocated < 64 * 1024, allocated + " bytes allocated by 200,000 hand-offs and starts");
        } finally {
            SchedulingDelayEvent.minDelayNanos = saved;
        }
    }

    /**
     * The JDK-default measuring mode: a carrier thread that ends leaves its histogram to the next one to enrol, and
     * the merged counts keep every sample of the ended ones; each carrier samples about one hand-off in eight.
     */
    @Test
    void jdkDefaultCountsSurviveCarriersThatEnd() throws InterruptedException {
        JdkSchedulingDelays delays = new JdkSchedulingDelays();
        Thread vthread = Thread.ofVirtual().unstarted(() -> { });
        long before = 0;
        for (int i = 0; i < 4; i++) {
            Thread carrier = new Thread(() -> jdkBurst(delays, vthread, 16_000));
            carrier.start();
            carrier.join();
            long total = DelayHistogram.Snapshot.total(delays.snapshot().allKinds());
            assertTrue(total - before > 1_000 && total - before < 3_000,
                    "carrier " + i + " added " + (total - before) + " samples of 16,000 hand-offs");
            before = total;
        }
    }

    private static void jdkBurst(JdkSchedulingDelays delays, Thread vthread, int n) {
        for (int i = 0; i < n; i++) {
            delays.accept(vthread, DelayHooksTransformer.HAND_OFF);
            delays.accept(vthread, DelayHooksTransformer.STARTING);
        }
    }

    private static void burst(HandOffStamps stamps, Processor proc, Thread vthread, Runnable task, int n) {
        for (int i = 0; i < n; i++) {
            Runnable queued = SchedulingDelays.handedOff(stamps, task, vthread, HandOffStamps.WAKE);
            if (SchedulingDelays.starting("alloc", proc, queued) != task) {
                throw new AssertionError("the carrier would have run " + queued + ", not its task");
            }
        }
    }

    @Test
    void aNegativeThresholdIsRefusedLikeTheOtherDurationSettings() {
        long saved = SchedulingDelayEvent.minDelayNanos;
        SchedulingDelayEvent.MinDelay setting = new SchedulingDelayEvent.MinDelay();
        setting.setValue("-5 ms");
        assertEquals("20 ms", setting.getValue());
        assertEquals(saved, SchedulingDelayEvent.minDelayNanos);
        assertEquals("5 ms", setting.combine(java.util.Set.of("-1 ms", "5 ms", "1 s")));
    }

    @Test
    void theOnOffPropertyAcceptsOnlyOnAndOff() {
        assertTrue(SchedulingDelays.parseEnabled(null));
        assertTrue(SchedulingDelays.parseEnabled("on"));
        assertEquals(false, SchedulingDelays.parseEnabled("off"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchedulingDelays.parseEnabled("yes"));
        assertEquals("-Dshuttle.schedulingDelay=yes: expected on or off", e.getMessage());
        assertEquals(false, JdkSchedulingDelays.parseMeasure(null));
        assertThrows(IllegalArgumentException.class, () -> JdkSchedulingDelays.parseMeasure("1"));
    }
}
