package dev.shuttle.timers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class TimerTest {

    private static final Runnable NOTHING = () -> { };

    @Test
    void nullActionIsRejected() {
        assertThrows(NullPointerException.class, () -> new Timer(null, 0));
    }

    @Test
    void cancelBeforeFireWinsAndTheActionNeverRuns() {
        AtomicInteger runs = new AtomicInteger();
        Timer t = new Timer(runs::incrementAndGet, 0);
        assertTrue(t.cancel(false));
        assertFalse(t.fire());
        assertFalse(t.cancel(true), "a second cancel prevents nothing");
        assertEquals(0, runs.get());
        assertTrue(t.isCancelled());
        assertTrue(t.isDone());
        assertEquals(Future.State.CANCELLED, t.state());
    }

    @Test
    void cancelAfterFireLoses() {
        AtomicInteger runs = new AtomicInteger();
        Timer t = new Timer(runs::incrementAndGet, 0);
        assertTrue(t.fire());
        assertFalse(t.cancel(false));
        assertFalse(t.fire(), "fires at most once");
        assertEquals(1, runs.get());
        assertFalse(t.isCancelled());
        assertTrue(t.isDone());
        assertEquals(Future.State.SUCCESS, t.state());
        assertNull(t.resultNow());
        assertThrows(IllegalStateException.class, t::exceptionNow);
    }

    @Test
    void pendingTimerIsRunningAndHasNoResult() {
        Timer t = new Timer(NOTHING, 0);
        assertFalse(t.isDone());
        assertEquals(Future.State.RUNNING, t.state());
        assertThrows(IllegalStateException.class, t::resultNow);
        assertThrows(IllegalStateException.class, t::exceptionNow);
    }

    @Test
    void actionExceptionPropagatesAfterTheTimerIsFired() {
        Timer t = new Timer(() -> { throw new IllegalArgumentException("boom"); }, 0);
        assertThrows(IllegalArgumentException.class, t::fire);
        assertTrue(t.isDone());
        assertFalse(t.cancel(false));
        assertFalse(t.fire());
    }

    @Test
    void concurrentFireRunsTheActionOnce() throws Exception {
        int threads = 4;
        for (int round = 0; round < 500; round++) {
            AtomicInteger runs = new AtomicInteger();
            AtomicInteger wins = new AtomicInteger();
            Timer t = new Timer(runs::incrementAndGet, 0);
            CyclicBarrier start = new CyclicBarrier(threads);
            Thread[] ts = new Thread[threads];
            for (int i = 0; i < threads; i++) {
                ts[i] = Thread.ofPlatform().start(() -> {
                    await(start);
                    if (t.fire()) {
                        wins.incrementAndGet();
                    }
                });
            }
            for (Thread th : ts) {
                th.join();
            }
            assertEquals(1, runs.get());
            assertEquals(1, wins.get());
        }
    }

    @Test
    void cancelRacingFireHasExactlyOneWinner() throws Exception {
        for (int round = 0; round < 500; round++) {
            AtomicInteger runs = new AtomicInteger();
            Timer t = new Timer(runs::incrementAndGet, 0);
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicReference<Boolean> cancelled = new AtomicReference<>();
            Thread canceller = Thread.ofPlatform().start(() -> {
                await(start);
                cancelled.set(t.cancel(false));
            });
            await(start);
            boolean fired = t.fire();
            canceller.join();
            assertTrue(fired ^ cancelled.get(), "exactly one of fire and cancel wins");
            assertEquals(fired ? 1 : 0, runs.get());
            assertEquals(cancelled.get(), t.isCancelled());
        }
    }

    @Test
    void getReturnsOnceFired() throws Exception {
        Timer t = new Timer(NOTHING, 0);
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<Object> outcome = new AtomicReference<>("unset");
        Thread waiter = Thread.ofPlatform().start(() -> {
            waiting.countDown();
            try {
                outcome.set(t.get());
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        waiting.await();
        awaitState(waiter, Thread.State.WAITING);
        assertEquals("unset", outcome.get(), "get() must block while pending");
        assertTrue(t.fire());
        waiter.join(5_000);
        assertFalse(waiter.isAlive());
        assertNull(outcome.get());
        assertNull(t.get(), "get() after firing returns at once");
    }

    @Test
    void getThrowsCancellationWhenCancelledWhileWaiting() throws Exception {
        Timer t = new Timer(NOTHING, 0);
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                outcome.set(t.get(10, TimeUnit.SECONDS));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        awaitState(waiter, Thread.State.TIMED_WAITING);
        assertTrue(t.cancel(false));
        waiter.join(5_000);
        assertInstanceOf(CancellationException.class, outcome.get());
        assertThrows(CancellationException.class, t::get);
    }

    @Test
    void getTimesOutWhilePending() {
        Timer t = new Timer(NOTHING, 0);
        long start = System.nanoTime();
        assertThrows(TimeoutException.class, () -> t.get(20, TimeUnit.MILLISECONDS));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(20));
        assertFalse(t.isDone());
    }

    @Test
    void getIsInterruptible() throws Exception {
        Timer t = new Timer(NOTHING, 0);
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                outcome.set(t.get());
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        awaitState(waiter, Thread.State.WAITING);
        waiter.interrupt();
        waiter.join(5_000);
        assertInstanceOf(InterruptedException.class, outcome.get());
        assertFalse(t.isDone());
    }

    @Test
    void getOnADoneTimerIgnoresTheInterruptFlag() throws Exception {
        Timer t = new Timer(NOTHING, 0);
        t.fire();
        Thread.currentThread().interrupt();
        try {
            assertNull(t.get());
        } finally {
            assertTrue(Thread.interrupted());
        }
    }

    @Test
    void completionRacingTheFirstWaiterIsNeverMissed() throws Exception {
        for (int round = 0; round < 500; round++) {
            Timer t = new Timer(NOTHING, 0);
            CyclicBarrier start = new CyclicBarrier(2);
            Thread firer = Thread.ofPlatform().start(() -> {
                await(start);
                t.fire();
            });
            await(start);
            assertNull(t.get(5, TimeUnit.SECONDS));
            firer.join();
        }
    }

    @Test
    void ordersByDeadlineAcrossNanoTimeWrapAround() {
        Timer beforeWrap = new Timer(NOTHING, Long.MAX_VALUE - 10);
        Timer afterWrap = new Timer(NOTHING, Long.MAX_VALUE + 10);
        assertTrue(beforeWrap.compareTo(afterWrap) < 0);
        assertTrue(afterWrap.compareTo(beforeWrap) > 0);
        assertEquals(0, beforeWrap.compareTo(new Timer(NOTHING, Long.MAX_VALUE - 10)));
    }

    @Test
    void delayCountsDownToTheDeadline() {
        Timer t = new Timer(NOTHING, System.nanoTime() + TimeUnit.SECONDS.toNanos(100));
        long delay = t.getDelay(TimeUnit.SECONDS);
        assertTrue(delay > 90 && delay <= 100, "delay " + delay);
        assertTrue(new Timer(NOTHING, System.nanoTime() - 1).getDelay(TimeUnit.NANOSECONDS) < 0);
    }

    @Test
    void armingTwiceIsRejectedAndArmingAFinishedTimerIsIgnored() {
        TimerHeap a = new TimerHeap();
        TimerHeap b = new TimerHeap();
        Timer t = new Timer(NOTHING, 0);
        a.arm(t);
        assertThrows(IllegalStateException.class, () -> b.arm(t));
        Timer done = new Timer(NOTHING, 0);
        done.cancel(false);
        b.arm(done);
        assertTrue(b.isEmpty());
        assertSame(NOTHING, t.action());
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void awaitState(Thread t, Thread.State state) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.getState() != state) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("thread never reached " + state + ", is " + t.getState());
            }
            Thread.sleep(1);
        }
    }
}
