package dev.shuttle.lock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpinBitConditionTest {
    /** Where the parameterized tests' virtual threads run (VirtualCarriers). */
    private final VirtualCarriers carriers = new VirtualCarriers();

    @AfterEach
    void closeCarriers() {
        carriers.close();
    }

    /** A bounded buffer over a SpinBitLock and two conditions, as in the Condition javadoc. */
    static final class BoundedBuffer {
        final SpinBitLock lock = new SpinBitLock();
        final SpinBitCondition notFull = lock.newCondition();
        final SpinBitCondition notEmpty = lock.newCondition();
        final long[] items = new long[64];
        int putIndex, takeIndex, count;

        void put(long x) throws InterruptedException {
            lock.lock();
            try {
                while (count == items.length) {
                    notFull.await();
                }
                items[putIndex] = x;
                putIndex = (putIndex + 1) % items.length;
                count++;
                notEmpty.signal();
            } finally {
                lock.unlock();
            }
        }

        long take() throws InterruptedException {
            lock.lock();
            try {
                while (count == 0) {
                    notEmpty.await();
                }
                long x = items[takeIndex];
                takeIndex = (takeIndex + 1) % items.length;
                count--;
                notFull.signal();
                return x;
            } finally {
                lock.unlock();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(VirtualCarriers.Kind.class)
    void boundedBufferMovesAMillionItems(VirtualCarriers.Kind kind) throws Exception {
        Thread.Builder.OfVirtual vthreads = carriers.open(kind);
        BoundedBuffer buf = new BoundedBuffer();
        int producers = 2, consumers = 2, perProducer = 500_000;
        AtomicLong sum = new AtomicLong();
        AtomicLong taken = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            Runnable r = () -> {
                try {
                    for (int i = 1; i <= perProducer; i++) {
                        buf.put(base + i);
                    }
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            };
            threads.add(p == 0 ? Thread.ofPlatform().start(r) : vthreads.start(r));
        }
        for (int c = 0; c < consumers; c++) {
            Runnable r = () -> {
                try {
                    for (int i = 0; i < producers * perProducer / consumers; i++) {
                        sum.addAndGet(buf.take());
                        taken.incrementAndGet();
                    }
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
            };
            threads.add(c == 0 ? vthreads.start(r) : Thread.ofPlatform().start(r));
        }
        for (Thread t : threads) {
            t.join();
        }
        long n = (long) producers * perProducer;
        assertEquals(n, taken.get());
        assertEquals(n * (n + 1) / 2, sum.get());
        assertEquals(0, buf.count);
    }

    @Test
    void awaitRequiresTheLock() {
        SpinBitLock lock = new SpinBitLock();
        SpinBitCondition c = lock.newCondition();
        assertThrows(IllegalMonitorStateException.class, c::await);
        assertThrows(IllegalMonitorStateException.class, c::signal);
        assertThrows(IllegalMonitorStateException.class, c::signalAll);
        assertThrows(IllegalMonitorStateException.class, () -> c.awaitNanos(1));
    }

    @Test
    void awaitReleasesFullyAndRestoresHoldCount() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        SpinBitCondition c = lock.newCondition();
        lock.lock();
        lock.lock();
        AtomicReference<Boolean> otherGotLock = new AtomicReference<>(false);
        Thread other = Thread.ofVirtual().start(() -> {
            lock.lock();
            otherGotLock.set(true);
            c.signal();
            lock.unlock();
        });
        c.awaitUninterruptibly();
        assertTrue(otherGotLock.get());
        assertEquals(2, lock.getHoldCount());
        lock.unlock();
        lock.unlock();
        other.join();
        assertFalse(lock.isLocked());
    }

    @Test
    void awaitNanosTimesOutWithTheLockHeld() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        SpinBitCondition c = lock.newCondition();
        lock.lock();
        long t0 = System.nanoTime();
        long left = c.awaitNanos(TimeUnit.MILLISECONDS.toNanos(50));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(50));
        assertTrue(left <= 0, "reported time left after timing out: " + left);
        assertTrue(lock.isHeldByCurrentThread());
        assertFalse(c.await(10, TimeUnit.MILLISECONDS));
        assertFalse(c.hasWaiters(), "a timed-out waiter must leave the condition queue");
        assertThrows(NullPointerException.class, () -> c.await(1, null));
        lock.unlock();
    }

    @Test
    void interruptedAwaitThrowsAndReacquires() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        SpinBitCondition c = lock.newCondition();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            lock.lock();
            try {
                c.await();
                outcome.set("returned normally");
            } catch (InterruptedException e) {
                outcome.set(lock.isHeldByCurrentThread() ? e : "lock not held after interrupt");
            } finally {
                lock.unlock();
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            lock.lock();
            boolean waiting = c.hasWaiters();
            lock.unlock();
            if (waiting || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(1);
        }
        waiter.interrupt();
        waiter.join();
        assertInstanceOf(InterruptedException.class, outcome.get());
        lock.lock();
        assertFalse(c.hasWaiters());
        lock.unlock();
    }

    @ParameterizedTest
    @EnumSource(VirtualCarriers.Kind.class)
    void signalAllWakesEveryWaiter(VirtualCarriers.Kind kind) throws Exception {
        Thread.Builder.OfVirtual vthreads = carriers.open(kind);
        SpinBitLock lock = new SpinBitLock();
        SpinBitCondition c = lock.newCondition();
        int n = 10;
        int[] waiting = {0};
        boolean[] go = {false};
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Runnable r = () -> {
                lock.lock();
                try {
                    waiting[0]++;
                    while (!go[0]) {
                        c.awaitUninterruptibly();
                    }
                    waiting[0]--;
                } finally {
                    lock.unlock();
                }
            };
            threads.add(i % 2 == 0 ? vthreads.start(r) : Thread.ofPlatform().start(r));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            lock.lock();
            int w = waiting[0];
            if (w == n || System.nanoTime() > deadline) {
                go[0] = true;
                c.signalAll();
                lock.unlock();
                break;
            }
            lock.unlock();
            Thread.sleep(1);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(0, waiting[0]);
    }
}
