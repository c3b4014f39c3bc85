package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
public class ShuttleSchedulerTest {

    static boolean onShuttleCarrier() {
        return Thread.currentThread().isVirtual() && Thread.currentThread().toString().contains("@shuttle-carrier-");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 32_768, Integer.MIN_VALUE})
    void rejectsParallelismOutOfRangeNamingTheValue(int bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ShuttleScheduler.builder().parallelism(bad));
        assertTrue(e.getMessage().contains(String.valueOf(bad)), e.getMessage());
    }

    @Test
    void acceptsTheBoundsOfTheRange() {
        ShuttleScheduler.builder().parallelism(1).parallelism(ShuttleScheduler.MAX_PARALLELISM);
    }

    @Test
    void createUsesOneCarrierPerProcessor() {
        try (ShuttleScheduler shuttle = ShuttleScheduler.create()) {
            assertEquals(Runtime.getRuntime().availableProcessors(), shuttle.parallelism());
        }
    }

    @Test
    void carriersAreDaemonThreadsNamedByIndex() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(3).build()) {
            List<String> names = new ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("shuttle-carrier-")) {
                    assertTrue(t.isDaemon(), t + " is not a daemon");
                    names.add(t.getName());
                }
            }
            assertTrue(names.containsAll(List.of("shuttle-carrier-0", "shuttle-carrier-1", "shuttle-carrier-2")),
                    names.toString());
            AtomicReference<String> seen = new AtomicReference<>();
            shuttle.ofVirtual().start(() -> seen.set(Thread.currentThread().toString())).join();
            assertTrue(seen.get().matches("VirtualThread\\[#\\d+]/runnable@shuttle-carrier-[0-2]"), seen.get());
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void runsAHundredThousandShortThreadsOnShuttle() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            int n = 100_000;
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger elsewhere = new AtomicInteger();
            Thread[] threads = new Thread[n];
            Thread.Builder builder = shuttle.ofVirtual();
            for (int i = 0; i < n; i++) {
                threads[i] = builder.start(() -> {
                    if (!onShuttleCarrier()) {
                        elsewhere.incrementAndGet();
                    }
                    ran.incrementAndGet();
                });
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(n, ran.get());
            assertEquals(0, elsewhere.get());
            Rescues.assertNone(shuttle);
        }
    }

    /** A ring of threads passing one token: every hop is a park/unpark between two Shuttle threads. */
    public static void tokenRing(ShuttleScheduler shuttle, int size, int hops) throws InterruptedException {
        Thread[] ring = new Thread[size];
        AtomicInteger token = new AtomicInteger(-1);
        AtomicInteger wrongCarrier = new AtomicInteger();
        int[] received = new int[size];
        Thread.Builder builder = shuttle.ofVirtual();
        for (int i = 0; i < size; i++) {
            int me = i;
            ring[i] = builder.unstarted(() -> {
                while (true) {
                    int t;
                    while ((t = token.get()) < 0 || t % size != me || t >= hops) {
                        if (t >= hops) {
                            return;
                        }
                        LockSupport.park();
                    }
                    if (!onShuttleCarrier()) {
                        wrongCarrier.incrementAndGet();
                    }
                    received[me]++;
                    token.set(t + 1);
                    LockSupport.unpark(ring[(me + 1) % size]);
                    if (t + 1 >= hops) {
                        for (Thread other : ring) {
                            LockSupport.unpark(other);
                        }
                        return;
                    }
                }
            });
        }
        for (Thread t : ring) {
            t.start();
        }
        token.set(0);
        LockSupport.unpark(ring[0]);
        for (Thread t : ring) {
            t.join();
        }
        int total = 0;
        for (int r : received) {
            total += r;
        }
        assertEquals(hops, total, "every hop delivered once");
        assertEquals(0, wrongCarrier.get());
    }

    @Test
    void tokenRingOfAThousandThreadsMakesTwoHundredThousandHops() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            tokenRing(shuttle, 1_000, 200_000);
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void oversubscribedCarriersKeepEveryTask() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(8).build()) {
            tokenRing(shuttle, 64, 100_000);
            AtomicInteger ran = new AtomicInteger();
            try (ExecutorService executor = shuttle.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 50_000; i++) {
                    executor.execute(() -> {
                        Thread.yield();
                        ran.incrementAndGet();
                    });
                }
            }
            assertEquals(50_000, ran.get());
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void perTaskExecutorRunsTenThousandTasksOnShuttle() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build();
             ExecutorService executor = shuttle.newVirtualThreadPerTaskExecutor()) {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                results.add(executor.submit(ShuttleSchedulerTest::onShuttleCarrier));
            }
            for (Future<Boolean> f : results) {
                assertTrue(f.get());
            }
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void yieldLetsOtherThreadsRunOnOneCarrier() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(1).build()) {
            AtomicBoolean flag = new AtomicBoolean();
            AtomicInteger yields = new AtomicInteger();
            Thread spinner = shuttle.ofVirtual().start(() -> {
                while (!flag.get()) {
                    yields.incrementAndGet();
                    Thread.yield();
                }
            });
            while (yields.get() == 0) {
                Thread.onSpinWait();
            }
            Thread setter = shuttle.ofVirtual().start(() -> flag.set(true));
            assertTrue(spinner.join(java.time.Duration.ofSeconds(10)), "the spinner never let the setter run");
            setter.join();
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void aPingPongPairDoesNotStarveTheQueue() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(1).build()) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Thread> a = new AtomicReference<>();
            AtomicReference<Thread> b = new AtomicReference<>();
            AtomicInteger turn = new AtomicInteger();
            CountDownLatch started = new CountDownLatch(2);
            Runnable ping = () -> pingPong(0, turn, b, stop, started);
            Runnable pong = () -> pingPong(1, turn, a, stop, started);
            a.set(shuttle.ofVirtual().unstarted(ping));
            b.set(shuttle.ofVirtual().unstarted(pong));
            // Start the pair from a Shuttle thread so that their wake-ups go through runNext.
            shuttle.ofVirtual().start(() -> {
                a.get().start();
                b.get().start();
            }).join();
            started.await();
            Thread bystander = shuttle.ofVirtual().start(() -> { });
            assertTrue(bystander.join(java.time.Duration.ofSeconds(10)), "runNext hand-offs starved the queue");
            stop.set(true);
            LockSupport.unpark(a.get());
            LockSupport.unpark(b.get());
            a.get().join();
            b.get().join();
            Rescues.assertNone(shuttle);
        }
    }

    /**
     * Two hand-off pairs on one carrier: each turn wakes the partner into runNext, so a pair would keep the carrier
     * for as long as runNext is preferred. The other pair's woken thread, displaced to the queue, waits for at most
     * the limit's runNext picks of the first pair, plus the turn that displaced it and a queue turn taken by the
     * first pair's own displaced thread ahead of it.
     *
     * <p>The bound holds while the one processor stays with one carrier thread. When the monitor takes the carrier for
     * blocked in the kernel (off its core at two looks in a row, which a loaded machine can also do to a carrier that
     * only waits for a core) it hands the processor to another carrier thread, and the old carrier's wake-ups go to
     * the global queue; such a run says nothing about the bound and runs again, five times at most.
     */
    @Test
    void aThreadQueuedBehindARunNextPairWaitsForAtMostTheLimitOfItsHandOffs() throws Exception {
        for (int attempt = 1; ; attempt++) {
            try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(1).build()) {
                int maxGap = longestWaitBehindARunNextPair(shuttle, 2_000);
                Rescues.assertNone(shuttle);
                if (SchedulerAccess.poolOf(shuttle).monitor.retakes() == 0) {
                    assertTrue(maxGap <= Carrier.RUN_NEXT_LIMIT + 2,
                            "the other pair waited for " + maxGap + " hand-offs in a row");
                    return;
                }
                assertTrue(attempt < 5, "the monitor retook the processor in each of " + attempt + " runs");
            }
        }
    }

    /** The most turns the first of two hand-off pairs took between two turns of the second. */
    private static int longestWaitBehindARunNextPair(ShuttleScheduler shuttle, int turns) throws InterruptedException {
        AtomicInteger aTurns = new AtomicInteger();
        AtomicInteger lastSeen = new AtomicInteger();
        AtomicInteger maxGap = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        threads.addAll(handOffPair(shuttle, turns, aTurns::incrementAndGet));
        threads.addAll(handOffPair(shuttle, turns, () -> {
            int seen = aTurns.get();
            maxGap.accumulateAndGet(seen - lastSeen.getAndSet(seen), Math::max);
        }));
        // Started from a Shuttle thread, so that every wake-up goes through this carrier's runNext.
        shuttle.ofVirtual().start(() -> threads.forEach(Thread::start)).join();
        for (Thread t : threads) {
            assertTrue(t.join(java.time.Duration.ofSeconds(30)), "a hand-off pair never finished");
        }
        assertEquals(2 * turns, aTurns.get());
        return maxGap.get();
    }

    /** Two unstarted threads that take {@code turns} turns each, alternately, running {@code onTurn} on each. */
    private static List<Thread> handOffPair(ShuttleScheduler shuttle, int turns, Runnable onTurn) {
        AtomicInteger turn = new AtomicInteger();
        Thread[] pair = new Thread[2];
        for (int me = 0; me < 2; me++) {
            int self = me;
            pair[me] = shuttle.ofVirtual().unstarted(() -> {
                for (int i = 0; i < turns; i++) {
                    while (turn.get() != self) {
                        LockSupport.park();
                    }
                    onTurn.run();
                    turn.set(1 - self);
                    LockSupport.unpark(pair[1 - self]);
                }
            });
        }
        return List.of(pair);
    }

    private static void pingPong(int me, AtomicInteger turn, AtomicReference<Thread> other, AtomicBoolean stop,
                                 CountDownLatch started) {
        started.countDown();
        while (!stop.get()) {
            if (turn.get() == me) {
                turn.set(1 - me);
                LockSupport.unpark(other.get());
            } else {
                LockSupport.park();
            }
        }
        LockSupport.unpark(other.get());
    }

    @Test
    void aThreadStartedByABusyCarrierRunsOnAnotherCarrier() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            for (int round = 0; round < 20; round++) {
                AtomicBoolean childRan = new AtomicBoolean();
                AtomicBoolean parentGaveUp = new AtomicBoolean();
                shuttle.ofVirtual().start(() -> {
                    Thread.ofVirtual().start(() -> childRan.set(true));
                    // Never parks: the child, in this carrier's runNext, must be taken by the other carrier.
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    while (!childRan.get()) {
                        if (System.nanoTime() > until) {
                            parentGaveUp.set(true);
                            return;
                        }
                        Thread.onSpinWait();
                    }
                }).join();
                assertFalse(parentGaveUp.get(), "the child waited behind its busy parent's carrier (round " + round + ")");
            }
            // Each child waits in its busy parent's runNext, which the monitor does not count as lost.
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void childrenOfShuttleThreadsInheritShuttle() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            AtomicInteger onShuttle = new AtomicInteger();
            shuttle.ofVirtual().start(() -> {
                try {
                    Thread child = Thread.ofVirtual().start(() -> {
                        if (onShuttleCarrier()) {
                            onShuttle.incrementAndGet();
                        }
                        Thread grandchild = Thread.startVirtualThread(() -> {
                            if (onShuttleCarrier()) {
                                onShuttle.incrementAndGet();
                            }
                        });
                        join(grandchild);
                    });
                    child.join();
                    try (ExecutorService perTask = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
                        perTask.submit(() -> {
                            if (onShuttleCarrier()) {
                                onShuttle.incrementAndGet();
                            }
                        }).get();
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }).join();
            assertEquals(3, onShuttle.get());
            AtomicReference<String> platformChild = new AtomicReference<>();
            Thread.ofVirtual().start(() -> platformChild.set(Thread.currentThread().toString())).join();
            assertFalse(platformChild.get().contains("shuttle-carrier"),
                    "a virtual thread started from a platform thread keeps the JDK default: " + platformChild.get());
            Rescues.assertNone(shuttle);
        }
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void sleepIsNeverEarlyAndInterruptWakesASleeper() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            AtomicReference<Long> slept = new AtomicReference<>();
            shuttle.ofVirtual().start(() -> {
                long start = System.nanoTime();
                try {
                    Thread.sleep(30);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                slept.set(System.nanoTime() - start);
            }).join();
            assertTrue(slept.get() >= TimeUnit.MILLISECONDS.toNanos(30), "woke early: " + slept.get());

            AtomicBoolean interrupted = new AtomicBoolean();
            CountDownLatch sleeping = new CountDownLatch(1);
            Thread sleeper = shuttle.ofVirtual().start(() -> {
                sleeping.countDown();
                try {
                    Thread.sleep(TimeUnit.MINUTES.toMillis(5));
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
            });
            sleeping.await();
            sleeper.interrupt();
            sleeper.join();
            assertTrue(interrupted.get());

            AtomicBoolean flagSeen = new AtomicBoolean();
            CountDownLatch parking = new CountDownLatch(1);
            Thread parker = shuttle.ofVirtual().start(() -> {
                parking.countDown();
                while (!Thread.currentThread().isInterrupted()) {
                    LockSupport.park();
                }
                flagSeen.set(true);
            });
            parking.await();
            parker.interrupt();
            parker.join();
            assertTrue(flagSeen.get(), "interrupt unparks a parked thread and leaves its flag set");
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void threadLocalsBelongToEachVirtualThread() throws Exception {
        ThreadLocal<Integer> local = new ThreadLocal<>();
        InheritableThreadLocal<String> inherited = new InheritableThreadLocal<>();
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(1).build()) {
            int n = 1_000;
            AtomicInteger mismatches = new AtomicInteger();
            Thread[] threads = new Thread[n];
            for (int i = 0; i < n; i++) {
                int me = i;
                threads[i] = shuttle.ofVirtual().start(() -> {
                    if (local.get() != null) {
                        mismatches.incrementAndGet();
                    }
                    local.set(me);
                    Thread.yield();
                    if (local.get() != me) {
                        mismatches.incrementAndGet();
                    }
                });
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(0, mismatches.get(), "thread locals leaked between virtual threads sharing a carrier");

            inherited.set("parent value");
            AtomicReference<String> seen = new AtomicReference<>();
            shuttle.ofVirtual().start(() -> seen.set(inherited.get())).join();
            assertEquals("parent value", seen.get());
            shuttle.ofVirtual().inheritInheritableThreadLocals(false).start(() -> seen.set(inherited.get())).join();
            assertEquals(null, seen.get());
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void closeRefusesNewThreadsAndWaitsForStartedOnes() throws Exception {
        ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build();
        Thread.Builder.OfVirtual builder = shuttle.ofVirtual();
        ExecutorService executor = shuttle.newVirtualThreadPerTaskExecutor();
        Thread unstarted = builder.unstarted(() -> { });
        AtomicBoolean finished = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(1);
        Thread slow = builder.start(() -> {
            running.countDown();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            finished.set(true);
        });
        running.await();
        shuttle.close();
        assertTrue(finished.get(), "close returned before a started thread finished");
        assertFalse(slow.isAlive());
        assertTrue(shuttle.isClosed());
        assertThrows(RejectedExecutionException.class, () -> builder.start(() -> { }));
        assertThrows(RejectedExecutionException.class, unstarted::start,
                "a thread created before close but started after it is refused too");
        assertThrows(RejectedExecutionException.class, () -> executor.submit(() -> { }));
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            assertFalse(t.getName().startsWith("shuttle-carrier-") && t.isAlive() && carrierOf(shuttle, t),
                    "carrier still running after close: " + t);
        }
        shuttle.close();
        Rescues.assertNone(shuttle);
    }

    private static boolean carrierOf(ShuttleScheduler shuttle, Thread t) {
        return t instanceof Carrier c && c.state == SchedulerAccess.poolOf(shuttle).state;
    }

    @Test
    void closeWaitsForAThreadThatNeverFinishesUntilInterrupted() throws Exception {
        ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build();
        AtomicBoolean release = new AtomicBoolean();
        Thread stuck = shuttle.ofVirtual().start(() -> {
            while (!release.get()) {
                LockSupport.park();
            }
        });
        AtomicBoolean closeReturned = new AtomicBoolean();
        AtomicBoolean interruptKept = new AtomicBoolean();
        Thread closer = Thread.ofPlatform().start(() -> {
            shuttle.close();
            closeReturned.set(true);
            interruptKept.set(Thread.currentThread().isInterrupted());
        });
        closer.join(300);
        assertTrue(closer.isAlive(), "close returned while a started thread was still parked");
        closer.interrupt();
        closer.join();
        assertTrue(closeReturned.get());
        assertTrue(interruptKept.get(), "close swallowed the interrupt");
        assertTrue(stuck.isAlive());
        assertThrows(RejectedExecutionException.class, () -> shuttle.ofVirtual().start(() -> { }));

        // The carriers still serve the thread that close could not wait for.
        release.set(true);
        LockSupport.unpark(stuck);
        stuck.join();
        shuttle.close();
        Rescues.assertNone(shuttle);
    }

    @Test
    void closeFromOwnVirtualThreadIsRefused() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(1).build()) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            shuttle.ofVirtual().start(() -> {
                try {
                    shuttle.close();
                } catch (Throwable e) {
                    thrown.set(e);
                }
            }).join();
            assertNotNull(thrown.get());
            assertSame(IllegalStateException.class, thrown.get().getClass());
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void carriersParkWhenThereIsNoWork() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(4).build()) {
            tokenRing(shuttle, 16, 10_000);
            List<CarrierThread> carriers =
                    Arrays.stream(SchedulerAccess.poolOf(shuttle).state.processors).map(Processor::holder).toList();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            List<Thread.State> states;
            do {
                Thread.sleep(5);
                states = carriers.stream().map(Thread::getState).toList();
            } while (!states.stream().allMatch(ShuttleSchedulerTest::parked) && System.nanoTime() < deadline);
            assertTrue(states.stream().allMatch(ShuttleSchedulerTest::parked),
                    "an idle scheduler's carriers must all park, not spin: " + states);
            assertEquals(4, SchedulerAccess.poolOf(shuttle).state.idle.count());
            // Parked, and so is the monitor: next to no CPU.
            long before = CarrierCpu.nanos(SchedulerAccess.poolOf(shuttle));
            Thread.sleep(300);
            long burnt = CarrierCpu.nanos(SchedulerAccess.poolOf(shuttle)) - before;
            assertTrue(burnt < TimeUnit.MILLISECONDS.toNanos(20), "idle carriers used " + burnt + " ns in 300 ms");
            Rescues.assertNone(shuttle);
        }
    }

    private static boolean parked(Thread.State state) {
        return state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING;
    }

    @Test
    void theMonitorRescuesWorkThatNobodyWokeACarrierForAndCountsIt() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            CarrierPool pool = SchedulerAccess.poolOf(shuttle);
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch spinning = new CountDownLatch(1);
            // One processor busy, so the monitor is awake; the other idle.
            Thread busy = shuttle.ofVirtual().start(() -> {
                spinning.countDown();
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
            spinning.await();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (pool.state.idle.count() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(1, pool.state.idle.count(), "the second carrier did not go idle");
            long rescuesBefore = pool.monitor.rescues();
            CountDownLatch ran = new CountDownLatch(1);
            // Queued behind the scheduler's back, as a lost wake-up would leave it: no wakep.
            pool.state.global.offer(ran::countDown);
            try {
                assertTrue(ran.await(5, TimeUnit.SECONDS), "a task nobody woke a carrier for never ran");
                assertTrue(pool.monitor.rescues() > rescuesBefore, "the monitor did not count the rescue");
            } finally {
                stop.set(true);
                busy.join();
            }
        }
    }
}
