package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.observe.SchedulerCounters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Shuttle's JFR events, recorded in-process and read back. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JfrEventsTest {

    @Test
    void aCarrierBlockedInAFifoReadIsRecordedWithTheReadInItsStack(@TempDir Path dir) throws Exception {
        Path fifo = BlockedCarriersTest.mkfifo(dir.resolve("fifo"));
        Path file = dir.resolve("blocked.jfr");
        try (Recording recording = new Recording();
             ShuttleScheduler shuttle = ShuttleScheduler.builder().name("jfr-blocked").parallelism(1).build()) {
            recording.enable("dev.shuttle.CarrierBlocked");
            recording.start();
            AtomicInteger read = new AtomicInteger(-2);
            Thread reader = shuttle.ofVirtual().name("fifo-reader").start(() -> {
                try (FileInputStream in = new FileInputStream(fifo.toFile())) {
                    read.set(in.read());
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                // The reader has opened its end and goes on to read(), which blocks its carrier: the only one.
                Thread.sleep(20);
                Thread other = shuttle.ofVirtual().start(() -> { });
                assertTrue(other.join(Duration.ofSeconds(20)), "work waiting behind the blocked carrier ran");
                out.write(7);
            }
            reader.join();
            assertEquals(7, read.get());
            Rescues.assertNone(shuttle);
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        RecordedEvent blocked = events.stream()
                .filter(e -> e.getEventType().getName().equals("dev.shuttle.CarrierBlocked"))
                .filter(e -> e.getThread("virtualThread") != null
                        && "fifo-reader".equals(e.getThread("virtualThread").getJavaName()))
                .findFirst().orElseThrow(() -> new AssertionError("no CarrierBlocked for fifo-reader: " + events));
        assertEquals("jfr-blocked", blocked.getString("scheduler"));
        assertTrue(blocked.getString("carrier").startsWith("shuttle-carrier-"), blocked.toString());
        assertFalse(blocked.getBoolean("marked"), "a FIFO read is not a call the JDK marks");
        assertTrue(blocked.getDuration("blockedFor").toNanos() >= Monitor.STUCK_NANOS, blocked.toString());
        String stack = blocked.getString("stack");
        assertTrue(stack.contains("java.io.FileInputStream.read"), stack);
        assertTrue(stack.contains(JfrEventsTest.class.getName()), stack);
    }

    @Test
    void aTimerHeldUpByALongTaskIsRecordedLateAndTheTaskLong(@TempDir Path dir) throws Exception {
        // On a heavily loaded machine the OS may keep the hog's carrier off the CPU long enough for the monitor to
        // take it for blocked and hand the processor off; the new carrier may then fire the timer in time, and the
        // spell ends as a CarrierBlocked, not a LongTask. Such a run says nothing about these events and runs again,
        // five times at most, so that the events are checked on a run without a hand-off.
        HogRun run;
        for (int attempt = 1; ; attempt++) {
            Path attemptDir = Files.createDirectories(dir.resolve("attempt-" + attempt));
            run = hogDelaysATimer(attemptDir, "jfr-late", recording -> {
                recording.enable("dev.shuttle.TimerLate");
                recording.enable("dev.shuttle.LongTask");
            });
            if (!run.handedOff) {
                break;
            }
            assertTrue(attempt < 5, "the monitor handed the hog's processor off in each of " + attempt + " runs");
        }
        List<RecordedEvent> late = named(run.events, "dev.shuttle.TimerLate");
        assertFalse(late.isEmpty(), "no TimerLate: " + run.events);
        for (RecordedEvent e : late) {
            assertEquals("jfr-late", e.getString("scheduler"));
            assertTrue(e.getDuration("lateness").toMillis() >= 20, e.toString());
            assertTrue(e.getInt("fired") >= 1, e.toString());
        }
        List<RecordedEvent> longTasks = named(run.events, "dev.shuttle.LongTask");
        assertFalse(longTasks.isEmpty(), "no LongTask: " + run.events);
        for (RecordedEvent e : longTasks) {
            assertEquals("hog", e.getThread("virtualThread").getJavaName());
            assertTrue(e.getDuration("runningFor").toMillis() >= 20, e.toString());
            assertTrue(e.getString("stack").contains(JfrEventsTest.class.getName()), e.toString());
        }
    }

    @Test
    void aRecordingSetsItsOwnMinimumsForLateTimersAndLongTasks(@TempDir Path dir) throws Exception {
        // The same 100 ms hog as above, whose late timer and long task pass the default 20 ms: with minimums of 10 s
        // neither is recorded, and while the recording runs the emitters' guards hold its values.
        HogRun run = hogDelaysATimer(dir, "jfr-settings", recording -> {
            recording.enable("dev.shuttle.TimerLate").with("minLateness", "10 s");
            recording.enable("dev.shuttle.LongTask").with("minRunningFor", "10 s");
        });
        assertEquals(10_000_000_000L, run.minLatenessDuring);
        assertEquals(10_000_000_000L, run.minRunningForDuring);
        assertEquals(List.of(), named(run.events, "dev.shuttle.TimerLate"));
        assertEquals(List.of(), named(run.events, "dev.shuttle.LongTask"));
    }

    @Test
    void durationSettingsParseAsJfrWritesThemAndTheSmallestWins() {
        assertEquals(20_000_000L, DurationSetting.parseNanos("20 ms"));
        assertEquals(5_000_000L, DurationSetting.parseNanos("5ms"));
        assertEquals(1_000_000_000L, DurationSetting.parseNanos("1 s"));
        assertEquals(7_000L, DurationSetting.parseNanos("7 us"));
        assertEquals(0L, DurationSetting.parseNanos("0"));
        assertEquals(-1L, DurationSetting.parseNanos("20"));
        assertEquals(-1L, DurationSetting.parseNanos("-5 ms"));
        assertEquals(-1L, DurationSetting.parseNanos("fast"));
        TimerLateEvent.MinLateness setting = new TimerLateEvent.MinLateness();
        assertEquals("3 ms", setting.combine(Set.of("1 s", "3 ms", "20 ms", "soon")));
        assertEquals("20 ms", setting.combine(Set.of("soon")));
    }

    private record HogRun(List<RecordedEvent> events, boolean handedOff, long minLatenessDuring,
                          long minRunningForDuring) {
    }

    /**
     * With one processor, a sleeper starts a hog (into its carrier's runNext) and sleeps 5 ms: the processor then runs
     * the hog for 100 ms, the sleeper's timer falls due behind it, and no other carrier can fire it (no time slice).
     */
    private static HogRun hogDelaysATimer(Path dir, String name, Consumer<Recording> enable)
            throws Exception {
        Path file = dir.resolve(name + ".jfr");
        long handOffs;
        long minLateness;
        long minRunningFor;
        try (Recording recording = new Recording();
             ShuttleScheduler shuttle = ShuttleScheduler.builder().name(name).parallelism(1).build()) {
            enable.accept(recording);
            recording.start();
            minLateness = TimerLateEvent.minLatenessNanos;
            minRunningFor = LongTaskEvent.minRunningForNanos;
            Thread[] hogHolder = new Thread[1];
            Thread sleeper = shuttle.ofVirtual().start(() -> {
                hogHolder[0] = Thread.ofVirtual().name("hog").start(() -> {
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                    while (System.nanoTime() < end) {
                        Thread.onSpinWait();
                    }
                });
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            sleeper.join();
            hogHolder[0].join();
            handOffs = SchedulerCounters.of(SchedulerAccess.poolOf(shuttle)).handOffs();
            // The overdue timer waits behind the busy processor, the only one: the monitor calls that no lost wake-up.
            Rescues.assertNone(shuttle);
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                .filter(e -> !e.hasField("scheduler") || name.equals(e.getString("scheduler"))).toList();
        return new HogRun(events, handOffs > 0, minLateness, minRunningFor);
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).toList();
    }

    @Test
    void statisticsCountWhatTheThreadsDid(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("stats.jfr");
        int threads = 300;
        try (Recording recording = new Recording();
             ShuttleScheduler shuttle = ShuttleScheduler.builder().name("jfr-stats").parallelism(2).build()) {
            recording.enable("dev.shuttle.SchedulerStatistics").withPeriod(Duration.ofMillis(100));
            recording.start();
            Thread[] started = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                started[i] = shuttle.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(3);
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                });
            }
            for (Thread t : started) {
                t.join();
            }
            // Two more periods after the work, so that the deltas cover all of it.
            Thread.sleep(300);
            recording.stop();
            recording.dump(file);
            Rescues.assertNone(shuttle);
        }
        List<RecordedEvent> stats = RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().equals("dev.shuttle.SchedulerStatistics"))
                .filter(e -> "jfr-stats".equals(e.getString("scheduler"))).toList();
        assertTrue(stats.size() >= 2, "periodic events: " + stats.size());
        long run = stats.stream().mapToLong(e -> e.getLong("tasksRun")).sum();
        long fired = stats.stream().mapToLong(e -> e.getLong("timersFired")).sum();
        long armed = stats.stream().mapToLong(e -> e.getLong("timersArmed")).sum();
        assertTrue(run >= 2L * threads, "tasks run " + run);
        assertEquals(threads, fired, "timers fired");
        assertTrue(armed <= threads && armed >= threads - stats.stream().mapToLong(e -> e.getLong("handOffs")).sum(),
                "timers armed " + armed);
        RecordedEvent last = stats.get(stats.size() - 1);
        assertEquals(2, last.getInt("parallelism"));
        assertEquals(0, last.getLong("tasksRun"), "nothing ran in the last period: " + last);
    }
}
