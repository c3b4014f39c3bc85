package dev.shuttle.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
        Path file = dir.resolve("late.jfr");
        long handOffs;
        try (Recording recording = new Recording();
             ShuttleScheduler shuttle = ShuttleScheduler.builder().name("jfr-late").parallelism(1).build()) {
            recording.enable("dev.shuttle.TimerLate");
            recording.enable("dev.shuttle.LongTask");
            recording.start();
            // The sleeper starts the hog (into its carrier's runNext) and sleeps: the only processor then runs the hog
            // for 100 ms, the sleeper's timer falls due behind it, and no other carrier can fire it (no time slice).
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
            Thread hog = hogHolder[0];
            hog.join();
            sleeper.join();
            handOffs = SchedulerCounters.of(shuttle.pool()).handOffs();
            recording.stop();
            recording.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        // On a heavily loaded machine the OS may keep the hog's carrier off the CPU long enough for the monitor to
        // take it for blocked and hand the processor off; the new carrier may then fire the timer in time, and the
        // spell ends as a CarrierBlocked, not a LongTask. Only then may either event be missing.
        boolean handedOff = handOffs > 0;
        List<RecordedEvent> late = named(events, "dev.shuttle.TimerLate");
        assertTrue(!late.isEmpty() || handedOff, "no TimerLate without a hand-off: " + events);
        for (RecordedEvent e : late) {
            assertEquals("jfr-late", e.getString("scheduler"));
            assertTrue(e.getDuration("lateness").toMillis() >= 20, e.toString());
            assertTrue(e.getInt("fired") >= 1, e.toString());
        }
        List<RecordedEvent> longTasks = named(events, "dev.shuttle.LongTask");
        assertTrue(!longTasks.isEmpty() || handedOff, "no LongTask without a hand-off: " + events);
        for (RecordedEvent e : longTasks) {
            assertEquals("hog", e.getThread("virtualThread").getJavaName());
            assertTrue(e.getDuration("runningFor").toNanos() >= LongTaskEvent.THRESHOLD_NANOS, e.toString());
            assertTrue(e.getString("stack").contains(JfrEventsTest.class.getName()), e.toString());
        }
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
