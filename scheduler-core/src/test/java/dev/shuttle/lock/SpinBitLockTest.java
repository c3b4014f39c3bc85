package dev.shuttle.lock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpinBitLockTest {
    /** Where the parameterized tests' virtual threads run (VirtualCarriers). */
    private final VirtualCarriers carriers = new VirtualCarriers();

    @AfterEach
    void closeCarriers() {
        carriers.close();
    }

    @ParameterizedTest
    @EnumSource(VirtualCarriers.Kind.class)
    void mutualExclusionWith32MixedThreads(VirtualCarriers.Kind kind) throws Exception {
        Thread.Builder.OfVirtual vthreads = carriers.open(kind);
        SpinBitLock lock = new SpinBitLock();
        int perThread = 20_000;
        long[] counter = {0};
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            Runnable body = () -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                for (int k = 0; k < perThread; k++) {
                    lock.lock();
                    try {
                        if (inside.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        counter[0]++;              // plain: lost updates would show a broken lock
                        inside.decrementAndGet();
                    } finally {
                        lock.unlock();
                    }
                }
            };
            threads.add(i % 2 == 0 ? Thread.ofPlatform().start(body) : vthreads.start(body));
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(0, overlaps.get());
        assertEquals(32L * perThread, counter[0]);
        assertFalse(lock.isLocked());
        assertFalse(lock.hasQueuedThreads());
        assertFalse(lock.hasSpinner());
        assertEquals(0, lock.getQueueLength());
    }

    @Test
    void reentrancyCountsHolds() {
        SpinBitLock lock = new SpinBitLock();
        assertEquals(0, lock.getHoldCount());
        assertFalse(lock.isHeldByCurrentThread());
        lock.lock();
        lock.lock();
        assertTrue(lock.tryLock());
        assertEquals(3, lock.getHoldCount());
        assertTrue(lock.isHeldByCurrentThread());
        lock.unlock();
        lock.unlock();
        assertTrue(lock.isLocked());
        assertEquals(1, lock.getHoldCount());
        lock.unlock();
        assertFalse(lock.isLocked());
        assertEquals(0, lock.getHoldCount());
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }

    @Test
    void unlockByNonOwnerThrows() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        lock.lock();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread other = Thread.ofVirtual().start(() -> {
            try {
                lock.unlock();
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        other.join();
        assertInstanceOf(IllegalMonitorStateException.class, thrown.get());
        assertTrue(lock.isHeldByCurrentThread());
        lock.unlock();
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }

    @Test
    void tryLockFailsWhileHeldElsewhereAndTimesOut() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().start(() -> {
            lock.lock();
            held.countDown();
            try {
                release.await();
            } catch (InterruptedException ignored) {
            }
            lock.unlock();
        });
        held.await();
        assertFalse(lock.tryLock());
        long t0 = System.nanoTime();
        assertFalse(lock.tryLock(100, TimeUnit.MILLISECONDS));
        long waited = System.nanoTime() - t0;
        assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(100), "returned early: " + waited);
        assertFalse(lock.tryLock(0, TimeUnit.SECONDS));
        assertFalse(lock.tryLock(-5, TimeUnit.SECONDS));
        assertFalse(lock.hasQueuedThreads(), "a timed-out waiter must leave the stack");
        release.countDown();
        assertTrue(lock.tryLock(10, TimeUnit.SECONDS));
        assertEquals(1, lock.getHoldCount());
        lock.unlock();
        holder.join();
    }

    @ParameterizedTest
    @EnumSource(VirtualCarriers.Kind.class)
    void tryLockWithTimeoutSucceedsWhenReleasedInTime(VirtualCarriers.Kind kind) throws Exception {
        Thread.Builder.OfVirtual vthreads = carriers.open(kind);
        SpinBitLock lock = new SpinBitLock();
        lock.lock();
        AtomicReference<Boolean> got = new AtomicReference<>();
        Thread waiter = vthreads.start(() -> {
            try {
                got.set(lock.tryLock(10, TimeUnit.SECONDS));
                lock.unlock();
            } catch (InterruptedException e) {
                got.set(null);
            }
        });
        awaitSleeper(lock);
        lock.unlock();
        waiter.join();
        assertEquals(Boolean.TRUE, got.get());
    }

    @Test
    void nullTimeUnitIsRejected() {
        SpinBitLock lock = new SpinBitLock();
        assertThrows(NullPointerException.class, () -> lock.tryLock(1, null));
        assertFalse(lock.isLocked());
    }

    @ParameterizedTest
    @EnumSource(VirtualCarriers.Kind.class)
    void lockInterruptiblyThrowsWhenInterruptedWhileWaiting(VirtualCarriers.Kind kind) throws Exception {
        Thread.Builder.OfVirtual vthreads = carriers.open(kind);
        for (boolean virtual : new boolean[] {false, true}) {
            SpinBitLock lock = new SpinBitLock();
            lock.lock();
            AtomicReference<Throwable> outcome = new AtomicReference<>();
            Thread waiter = (virtual ? vthreads : Thread.ofPlatform()).start(() -> {
                try {
                    lock.lockInterruptibly();
                    outcome.set(new AssertionError("acquired"));
                } catch (InterruptedException e) {
                    outcome.set(e);
                    if (Thread.currentThread().isInterrupted()) {
                        outcome.set(new AssertionError("interrupt status left set"));
                    }
                }
            });
            awaitSleeper(lock);
            waiter.interrupt();
            waiter.join();
            assertInstanceOf(InterruptedException.class, outcome.get());
            assertFalse(lock.hasQueuedThreads());
            lock.unlock();
            assertTrue(lock.tryLock(), "lock usable after a cancelled waiter");
            lock.unlock();
        }
    }

    @Test
    void lockInterruptiblyAndTryLockThrowIfAlreadyInterrupted() {
        SpinBitLock lock = new SpinBitLock();
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, lock::lockInterruptibly);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> lock.tryLock(1, TimeUnit.SECONDS));
        assertFalse(Thread.interrupted());
        assertFalse(lock.isLocked());
    }

    @Test
    void lockIgnoresInterruptButKeepsStatus() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        lock.lock();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            lock.lock();
            stillInterrupted.set(Thread.currentThread().isInterrupted());
            lock.unlock();
        });
        awaitSleeper(lock);
        waiter.interrupt();
        Thread.sleep(50);
        assertTrue(waiter.isAlive(), "lock() must not give up on interrupt");
        lock.unlock();
        waiter.join();
        assertEquals(Boolean.TRUE, stillInterrupted.get());
    }

    @ParameterizedTest
    @EnumSource(VirtualCarriers.Kind.class)
    void manyTimedWaitersTimeOutAndLeaveTheStackEmpty(VirtualCarriers.Kind kind) throws Exception {
        Thread.Builder.OfVirtual vthreads = carriers.open(kind);
        SpinBitLock lock = new SpinBitLock();
        lock.lock();
        AtomicInteger timedOut = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            long ms = 20 + 5 * i;
            Runnable r = () -> {
                try {
                    if (!lock.tryLock(ms, TimeUnit.MILLISECONDS)) {
                        timedOut.incrementAndGet();
                    } else {
                        lock.unlock();
                    }
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            };
            threads.add(i % 2 == 0 ? vthreads.start(r) : Thread.ofPlatform().start(r));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(16, timedOut.get());
        assertFalse(lock.hasQueuedThreads());
        assertFalse(lock.hasSpinner());
        lock.unlock();
    }

    @ParameterizedTest
    @EnumSource(VirtualCarriers.Kind.class)
    void sleepersAreAllWokenEventually(VirtualCarriers.Kind kind) throws Exception {
        Thread.Builder.OfVirtual vthreads = carriers.open(kind);
        SpinBitLock lock = new SpinBitLock();
        lock.lock();
        AtomicInteger done = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Runnable r = () -> {
                lock.lock();
                done.incrementAndGet();
                lock.unlock();
            };
            threads.add(i % 2 == 0 ? vthreads.start(r) : Thread.ofPlatform().start(r));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lock.getQueueLength() < 11 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(lock.getQueueLength() >= 11, "waiters should sleep, at most one spins");
        lock.unlock();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(12, done.get());
        assertFalse(lock.hasQueuedThreads());
    }

    static void awaitSleeper(SpinBitLock lock) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!lock.hasQueuedThreads()) {
            if (System.nanoTime() > deadline) {
                fail("no waiter went to sleep");
            }
            Thread.sleep(1);
        }
    }
}
