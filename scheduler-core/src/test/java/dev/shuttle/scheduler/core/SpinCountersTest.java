package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.ShuttleSchedulerMXBean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.JMX;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The MXBean's spin counters: what a search's spin found, and carriers fighting for their cores. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpinCountersTest {

    /**
     * A carrier that runs out of work while the other processor runs a task that hands it nothing searches, spins,
     * finds nothing and parks: once per sleep of its thread.
     */
    @Test
    void aSearchBesideABusyProcessorThatFindsNothingIsAWastedSpin() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("spin-wasted-test").parallelism(2).build()) {
            ShuttleSchedulerMXBean bean = bean(shuttle);
            AtomicBoolean stop = new AtomicBoolean();
            Thread hog = shuttle.ofVirtual().start(() -> {
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
            long before = bean.getSpinsWasted();
            sleepTwentyTimes(shuttle);
            long wasted = bean.getSpinsWasted() - before;
            stop.set(true);
            hog.join();
            assertTrue(wasted >= 10, "20 sleeps beside a busy processor, yet " + wasted + " wasted spins");
            Rescues.assertNone(shuttle);
        }
    }

    /**
     * With no other processor busy nothing running could hand a searching carrier work, so it parks without a spin:
     * 20 sleeps of the only thread on the only processor, no spin.
     */
    @Test
    void aSearchWithEveryOtherProcessorIdleDoesNotSpin() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("spin-alone-test").parallelism(1).build()) {
            ShuttleSchedulerMXBean bean = bean(shuttle);
            long parksBefore = bean.getParks();
            long before = bean.getSpinsWasted() + bean.getSpinsFound();
            sleepTwentyTimes(shuttle);
            long spins = bean.getSpinsWasted() + bean.getSpinsFound() - before;
            long parks = bean.getParks() - parksBefore;
            assertTrue(parks >= 10, "20 sleeps of the only thread, yet only " + parks + " parks");
            assertEquals(0, spins, "a carrier alone spun before parking");
            Rescues.assertNone(shuttle);
        }
    }

    /**
     * A thread started by a task that keeps running lands in that carrier's runNext, which the other carrier may take
     * only after its search has paused once: a spin that found work.
     */
    @Test
    void aRunNextTakenAfterAPauseIsASpinThatFoundWork() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("spin-found-test").parallelism(2).build()) {
            ShuttleSchedulerMXBean bean = bean(shuttle);
            long before = bean.getSpinsFound();
            shuttle.ofVirtual().start(() -> {
                for (int i = 0; i < 20; i++) {
                    AtomicBoolean started = new AtomicBoolean();
                    Thread child = shuttle.ofVirtual().start(() -> started.set(true));
                    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    while (!started.get() && System.nanoTime() - giveUp < 0) {
                        Thread.onSpinWait();          // keep this carrier's tick still: the child waits in runNext
                    }
                    joinQuietly(child);
                    sleepMillis(1);                   // let the other carrier park before the next round
                }
            }).join();
            long found = bean.getSpinsFound() - before;
            assertTrue(found >= 1, "20 children taken from a running carrier's runNext, none after a spin: " + found);
            // A child in a busy processor's runNext is its owner's to run, not a lost wake-up (Monitor).
            Rescues.assertNone(shuttle);
        }
    }

    /**
     * More runnable platform threads than cores take a carrier's core while its virtual thread computes; the carrier
     * counts those switches when it parks. Needs native access, which the test JVM has.
     */
    @Test
    void aCarrierPreemptedByOtherThreadsCountsItsInvoluntarySwitches() throws Exception {
        assertTrue(InvoluntarySwitches.AVAILABLE, "the test JVM enables native access on Linux");
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("spin-switches-test").parallelism(1).build()) {
            ShuttleSchedulerMXBean bean = bean(shuttle);
            long before = bean.getInvoluntarySwitches();
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> hogs = new ArrayList<>();
            for (int i = 0; i <= Runtime.getRuntime().availableProcessors(); i++) {
                hogs.add(Thread.ofPlatform().daemon().start(() -> {
                    while (!stop.get()) {
                        Thread.onSpinWait();
                    }
                }));
            }
            try {
                shuttle.ofVirtual().start(() -> {
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                    while (System.nanoTime() - end < 0) {
                        Thread.onSpinWait();
                    }
                }).join();
            } finally {
                stop.set(true);
                for (Thread hog : hogs) {
                    hog.join();
                }
            }
            shuttle.ofVirtual().start(() -> sleepMillis(5)).join();   // the carrier parks and counts
            long switches = bean.getInvoluntarySwitches() - before;
            assertTrue(switches > 0, "300 ms of computing beside more busy threads than cores, no switch counted");
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void involuntarySwitchesAreMinusOneOnlyWhereTheyCannotBeRead() {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("spin-unavailable-test").parallelism(1).build()) {
            long switches = bean(shuttle).getInvoluntarySwitches();
            assertEquals(InvoluntarySwitches.AVAILABLE, switches >= 0, "reported " + switches);
        }
    }

    private static ShuttleSchedulerMXBean bean(ShuttleScheduler shuttle) {
        try {
            return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(),
                    new ObjectName("dev.shuttle:type=ShuttleScheduler,name=" + shuttle.name()),
                    ShuttleSchedulerMXBean.class);
        } catch (MalformedObjectNameException e) {
            throw new AssertionError(e);
        }
    }

    /** One virtual thread that sleeps 2 ms twenty times: twenty times its carrier runs out of work. */
    private static void sleepTwentyTimes(ShuttleScheduler shuttle) throws InterruptedException {
        shuttle.ofVirtual().start(() -> {
            for (int i = 0; i < 20; i++) {
                sleepMillis(2);
            }
        }).join();
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
