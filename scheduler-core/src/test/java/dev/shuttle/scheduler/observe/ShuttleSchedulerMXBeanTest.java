package dev.shuttle.scheduler.observe;

import dev.shuttle.scheduler.core.Rescues;
import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.ShuttleSchedulerMXBean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShuttleSchedulerMXBeanTest {
    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @Test
    void registeredUnderItsNameReadableAndGoneAfterClose() throws Exception {
        ObjectName name = new ObjectName("dev.shuttle:type=ShuttleScheduler,name=mxbean-test");
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("mxbean-test").parallelism(2).build()) {
            assertEquals("mxbean-test", shuttle.name());
            assertTrue(SERVER.isRegistered(name));
            assertEquals(2, SERVER.getAttribute(name, "Parallelism"));
            assertEquals("mxbean-test", SERVER.getAttribute(name, "Name"));

            // One thread running and holding its processor: the bean sees it as running, its tick standing still.
            CountDownLatch running = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread spinner = shuttle.ofVirtual().start(() -> {
                running.countDown();
                while (release.getCount() > 0) {
                    Thread.onSpinWait();
                }
            });
            running.await();
            CompositeData[] processors = (CompositeData[]) SERVER.getAttribute(name, "Processors");
            assertEquals(2, processors.length);
            long runningCount = 0;
            for (CompositeData p : processors) {
                if ("running".equals(p.get("phase"))) {
                    runningCount++;
                    assertTrue(((String) p.get("carrier")).startsWith("shuttle-carrier-"), p.toString());
                }
            }
            assertEquals(1, runningCount, java.util.Arrays.toString(processors));
            assertTrue((int) SERVER.getAttribute(name, "BusyProcessors") >= 1);
            assertTrue((int) SERVER.getAttribute(name, "LiveVirtualThreads") >= 1);
            release.countDown();
            spinner.join();

            ShuttleSchedulerMXBean proxy = JMX.newMXBeanProxy(SERVER, name, ShuttleSchedulerMXBean.class);
            long before = proxy.getTasksRun();
            Thread[] threads = new Thread[50];
            for (int i = 0; i < threads.length; i++) {
                threads[i] = shuttle.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                });
            }
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(proxy.getTasksRun() - before >= 2L * threads.length, "tasksRun " + proxy.getTasksRun());
            assertTrue(proxy.getTimersFired() >= threads.length, "timersFired " + proxy.getTimersFired());
            assertEquals(2, proxy.getProcessors().length);
            Rescues.assertNone(shuttle);
        }
        assertFalse(SERVER.isRegistered(name), "unregistered at close");
    }

    /** One carrier, so every timer is in the heap whose rounds drop the cancelled ones. */
    @Test
    void timersPendingCountsSleepsAndFallsWhenTheyEndEarly() throws Exception {
        ObjectName name = new ObjectName("dev.shuttle:type=ShuttleScheduler,name=timers-pending-test");
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("timers-pending-test").parallelism(1).build()) {
            ShuttleSchedulerMXBean proxy = JMX.newMXBeanProxy(SERVER, name, ShuttleSchedulerMXBean.class);
            assertEquals(0, proxy.getTimersPending());
            Thread[] sleepers = new Thread[100];
            for (int i = 0; i < sleepers.length; i++) {
                sleepers[i] = shuttle.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(TimeUnit.HOURS.toMillis(1));
                        throw new AssertionError("slept an hour");
                    } catch (InterruptedException expected) {
                        // the early end this test is about
                    }
                });
            }
            for (Thread t : sleepers) {
                while (t.getState() != Thread.State.TIMED_WAITING) {
                    Thread.sleep(1);
                }
            }
            assertEquals(sleepers.length, proxy.getTimersPending());
            for (Thread t : sleepers) {
                t.interrupt();
            }
            for (Thread t : sleepers) {
                t.join();
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (proxy.getTimersPending() != 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            assertEquals(0, proxy.getTimersPending(), "cancelled timers left in the heap");
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void aDuplicateNameIsRefusedAndLeavesNothingRunning() {
        try (ShuttleScheduler first = ShuttleScheduler.builder().name("duplicate-test").parallelism(1).build()) {
            int carriersBefore = carrierThreadCount();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ShuttleScheduler.builder().name("duplicate-test").parallelism(1).build());
            assertTrue(e.getMessage().contains("\"duplicate-test\" is already registered"), e.getMessage());
            assertTrue(carrierThreadCount() <= carriersBefore, "the refused scheduler started no carrier");
            assertEquals("duplicate-test", first.name());
        }
        // The name is free again once the first is closed.
        ShuttleScheduler.builder().name("duplicate-test").parallelism(1).build().close();
    }

    @Test
    void blankNamesAreRefusedAndGeneratedNamesAreUnique() throws Exception {
        for (String blank : new String[] {"", " ", "\t"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ShuttleScheduler.builder().name(blank));
            assertTrue(e.getMessage().contains("must not be blank"), e.getMessage());
        }
        try (ShuttleScheduler a = ShuttleScheduler.builder().parallelism(1).build();
             ShuttleScheduler b = ShuttleScheduler.builder().parallelism(1).build();
             ShuttleScheduler odd = ShuttleScheduler.builder().name("a,b=c:\"d\"").parallelism(1).build()) {
            assertNotEquals(a.name(), b.name());
            Set<ObjectName> names = SERVER.queryNames(new ObjectName("dev.shuttle:type=ShuttleScheduler,*"), null);
            assertTrue(names.contains(new ObjectName("dev.shuttle:type=ShuttleScheduler,name=" + a.name())), names.toString());
            assertTrue(names.contains(new ObjectName("dev.shuttle:type=ShuttleScheduler,name="
                    + ObjectName.quote("a,b=c:\"d\""))), names.toString());
        }
    }

    private static int carrierThreadCount() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("shuttle-carrier-") || t.getName().equals("shuttle-monitor"))
                .count();
    }
}
