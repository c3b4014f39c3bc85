package dev.shuttle.timers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.ToLongBiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TimerHeapTest {

    private static final Consumer<Throwable> RETHROW = e -> { throw new AssertionError(e); };

    private TimerHeap heap;

    @BeforeEach
    void lock() {
        heap = new TimerHeap(0);
        assertTrue(heap.tryLock());
    }

    @AfterEach
    void unlock() {
        heap.unlock();
    }

    @Test
    void hundredThousandRandomTimersFireInDeadlineOrder() {
        SplittableRandom random = new SplittableRandom(42);
        List<Long> firedDeadlines = new ArrayList<>();
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            long deadline = random.nextLong(1_000_000_000L);
            heap.add(new Timer(() -> firedDeadlines.add(deadline), deadline));
        }
        assertEquals(n, heap.size());
        assertEquals(n, heap.fireExpired(Long.MAX_VALUE - 1, Integer.MAX_VALUE, RETHROW));
        assertEquals(n, firedDeadlines.size());
        for (int i = 1; i < n; i++) {
            assertTrue(firedDeadlines.get(i - 1) <= firedDeadlines.get(i), "out of order at " + i);
        }
        assertEquals(0, heap.size());
        assertEquals(TimerHeap.NONE, heap.earliestDeadline());
    }

    @Test
    void cleaningAHeapOfOnlyZombiesLeavesItEmpty() {
        List<Timer> all = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Timer t = new Timer(() -> { }, 1_000 + i);
            heap.add(t);
            all.add(t);
        }
        for (Timer t : all) {
            assertTrue(t.cancel(false));
        }
        assertEquals(0, heap.cancelIf(t -> true), "nothing left to cancel");
        assertEquals(0, heap.size());
        assertEquals(TimerHeap.NONE, heap.earliestDeadline());
        Timer later = new Timer(() -> { }, 5);
        heap.add(later);
        assertSame(later, heap.peek(), "the emptied heap still works");
    }

    /** Random add/remove/cancel/fire against a PriorityQueue model of the live timers. */
    @Test
    void randomInterleavingsMatchAPriorityQueueModel() {
        matchesAPriorityQueueModel(7, (random, now) -> now + random.nextLong(1, 10_000));
    }

    /**
     * Deadlines mostly in arming order, as a sleep loop arms them: nearly every timer goes to the ascending queue,
     * and removals and cancels leave holes and zombies in it; the odd earlier one goes to the heap.
     */
    @Test
    void mostlyAscendingInterleavingsMatchAPriorityQueueModel() {
        matchesAPriorityQueueModel(11, (random, now) -> now + 5_000 + random.nextLong(-20, 20));
    }

    private void matchesAPriorityQueueModel(long seed, ToLongBiFunction<SplittableRandom, Long> deadlineAt) {
        SplittableRandom random = new SplittableRandom(seed);
        PriorityQueue<Timer> model = new PriorityQueue<>(Comparator.comparingLong(Timer::deadline));
        List<Timer> live = new ArrayList<>();
        List<Timer> fired = new ArrayList<>();
        long now = 0;
        for (int step = 0; step < 50_000; step++) {
            int op = random.nextInt(10);
            if (op < 4 || live.isEmpty()) {
                Timer[] self = new Timer[1];
                self[0] = new Timer(() -> fired.add(self[0]), deadlineAt.applyAsLong(random, now));
                if (random.nextBoolean()) {
                    heap.add(self[0]);
                } else {
                    heap.arm(self[0]);
                }
                model.add(self[0]);
                live.add(self[0]);
            } else if (op < 6) {
                Timer t = live.remove(random.nextInt(live.size()));
                assertTrue(heap.remove(t));
                assertFalse(heap.remove(t));
                model.remove(t);
            } else if (op < 8) {
                Timer t = live.remove(random.nextInt(live.size()));
                assertTrue(t.cancel(false));
                model.remove(t);
            } else {
                now += random.nextLong(0, 3_000);
                fired.clear();
                int max = random.nextInt(1, 20);
                int n = heap.fireExpired(now, max, RETHROW);
                List<Timer> expected = new ArrayList<>();
                while (expected.size() < max && !model.isEmpty() && model.peek().deadline() <= now) {
                    expected.add(model.poll());
                }
                assertEquals(expected.size(), n);
                assertEquals(deadlines(expected), deadlines(fired));
                // Of timers with equal deadlines the heap may fire another than the model took: keep identities in step.
                model.addAll(expected);
                model.removeAll(fired);
                live.removeAll(fired);
            }
            long expectedEarliest = model.isEmpty() ? TimerHeap.NONE : model.peek().deadline();
            assertTrue(heap.earliestDeadline() <= expectedEarliest,
                    "published earliest may be early (zombies), never late");
        }
        heap.drainInbox();
        Timer top = heap.peek();
        assertEquals(model.isEmpty() ? null : model.peek().deadline(), top == null ? null : top.deadline());
    }

    @Test
    void cancelledTimersNeverFireAndCancelReportsWhoWon() {
        AtomicInteger runs = new AtomicInteger();
        Timer cancelled = new Timer(runs::incrementAndGet, 10);
        Timer kept = new Timer(runs::incrementAndGet, 20);
        heap.add(cancelled);
        heap.add(kept);
        assertTrue(cancelled.cancel(false));
        assertEquals(1, heap.fireExpired(100, 10, RETHROW));
        assertEquals(1, runs.get());
        assertFalse(kept.cancel(false), "cancel after firing prevented nothing");
        assertTrue(kept.isDone());
        assertEquals(0, heap.size());
    }

    @Test
    void fireExpiredStopsAtMaxAndAtTheFirstFutureDeadline() {
        for (int i = 0; i < 10; i++) {
            heap.add(new Timer(() -> { }, i));
        }
        assertEquals(3, heap.fireExpired(100, 3, RETHROW));
        assertEquals(3, heap.earliestDeadline());
        assertEquals(2, heap.fireExpired(4, 100, RETHROW));
        assertEquals(5, heap.peek().deadline());
        assertEquals(5, heap.size());
    }

    @Test
    void actionExceptionsGoToOnErrorAndFiringContinues() {
        List<Throwable> errors = new ArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        heap.add(new Timer(() -> { throw new IllegalStateException("first"); }, 1));
        heap.add(new Timer(runs::incrementAndGet, 2));
        assertEquals(2, heap.fireExpired(5, 10, errors::add));
        assertEquals(1, errors.size());
        assertEquals("first", errors.get(0).getMessage());
        assertEquals(1, runs.get());
    }

    @Test
    void armFromManyThreadsThenDrainLosesNone() throws Exception {
        int threads = 4;
        int perThread = 20_000;
        int total = threads * perThread;
        CyclicBarrier start = new CyclicBarrier(threads);
        boolean[] fired = new boolean[total];
        Thread[] armers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            int base = i * perThread;
            armers[i] = Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                for (int j = 0; j < perThread; j++) {
                    int id = base + j;
                    heap.arm(new Timer(() -> fired[id] = true, id));
                }
            });
        }
        int firedCount = 0;
        while (anyAlive(armers)) {
            firedCount += heap.fireExpired(Long.MAX_VALUE - 1, 100, RETHROW);
        }
        for (Thread t : armers) {
            t.join();
        }
        int firstUnfired = 0;
        while (firstUnfired < total && fired[firstUnfired]) {
            firstUnfired++;
        }
        if (firstUnfired < total) {
            assertTrue(heap.earliestDeadline() <= firstUnfired,
                    "unfired timer " + firstUnfired + " not advertised: " + heap.earliestDeadline());
        }
        firedCount += heap.fireExpired(Long.MAX_VALUE - 1, Integer.MAX_VALUE, RETHROW);
        assertEquals(total, firedCount);
        for (int id = 0; id < total; id++) {
            assertTrue(fired[id], "timer " + id + " lost");
        }
        assertTrue(heap.isEmpty());
    }

    @Test
    void zombieCleanupBoundsTheHeap() {
        int n = 10_000;
        List<Timer> timers = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Timer t = new Timer(() -> { }, 1_000 + i);
            timers.add(t);
            heap.add(t);
        }
        for (int i = 0; i < n; i++) {
            if (i % 100 != 0) {
                assertTrue(timers.get(i).cancel(false));
            }
        }
        assertEquals(n, heap.size(), "cancellation is lazy");
        assertEquals(0, heap.fireExpired(0, 10, RETHROW));
        assertEquals(n / 100, heap.size());
        assertEquals(n / 100, heap.fireExpired(Long.MAX_VALUE - 1, n, RETHROW));
    }

    @Test
    void cancelledTimersKeepTheHeapBoundedWithoutFiring() {
        for (int round = 0; round < 100_000; round++) {
            Timer t = new Timer(() -> { }, 1_000_000 + round);
            heap.arm(t);
            t.cancel(false);
            if (round % 64 == 0) {
                heap.drainInbox();
            }
        }
        Timer kept = new Timer(() -> { }, 5);
        for (int round = 0; round < 100_000; round++) {
            Timer t = new Timer(() -> { }, 1_000_000 + round);
            heap.add(t);
            t.cancel(false);
            if (round == 0) {
                heap.add(kept);
            }
            heap.drainInbox();
            assertTrue(heap.size() <= 2, "zombies pile up: size " + heap.size());
        }
        assertSame(kept, heap.peek());
    }

    /** Go's BenchmarkReset as a caller would write it with our timers: cancel, arm anew, never fire, never drain. */
    @Test
    void armingAndCancellingWithoutFiringKeepsTheHeapBounded() {
        Timer kept = new Timer(() -> { }, 7);
        heap.add(kept);
        Timer t = new Timer(() -> { }, 1_000_000);
        heap.add(t);
        for (int round = 1; round <= 100_000; round++) {
            t.cancel(false);
            t = new Timer(() -> { }, 1_000_000 + round);
            heap.add(t);
            assertTrue(heap.size() <= 8, "round " + round + ": zombies pile up, size " + heap.size());
        }
        assertSame(kept, heap.peek());
        assertEquals(2, heap.fireExpired(Long.MAX_VALUE - 1, 10, RETHROW), "the kept and the last armed timer");
    }

    @Test
    void addCountsTheInboxsZombiesOutBeforeItRebuilds() {
        for (int i = 0; i < 1_000; i++) {
            Timer viaInbox = new Timer(() -> { }, 1_000 + i);
            heap.arm(viaInbox);
            viaInbox.cancel(false);
        }
        heap.add(new Timer(() -> { }, 5));
        assertFalse(heap.isZombieHeavy(), "the add merged the inbox and dropped its cancelled timers");
        assertEquals(1, heap.size());
    }

    @Test
    void isZombieHeavyTellsTheOwnerWhenADrainWouldClean() {
        assertFalse(heap.isZombieHeavy());
        List<Timer> timers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            Timer t = new Timer(() -> { }, 1_000 + i);
            heap.add(t);
            timers.add(t);
        }
        for (int i = 0; i < 25; i++) {
            timers.get(i).cancel(false);
        }
        assertFalse(heap.isZombieHeavy(), "25 of 100 is not more than a quarter");
        timers.get(25).cancel(false);
        assertTrue(heap.isZombieHeavy());
        heap.drainInbox();
        assertFalse(heap.isZombieHeavy());
        assertEquals(74, heap.size());

        Timer viaInbox = new Timer(() -> { }, 5_000);
        heap.unlock();
        try {
            heap.arm(viaInbox);
            viaInbox.cancel(false);
            for (int i = 26; i < 50; i++) {
                timers.get(i).cancel(false);
            }
            assertTrue(heap.isZombieHeavy(), "a cancel in the inbox counts, and so does any thread's");
        } finally {
            assertTrue(heap.tryLock());
        }
        heap.drainInbox();
        assertFalse(heap.isZombieHeavy());
        assertEquals(50, heap.size());
    }

    @Test
    void earliestDeadlineIsPublishedForArmAddAndFire() {
        assertEquals(TimerHeap.NONE, heap.earliestDeadline());
        assertTrue(heap.isEmpty());
        heap.arm(new Timer(() -> { }, 50));
        assertEquals(50, heap.earliestDeadline(), "armed timers are advertised before any drain");
        assertFalse(heap.isEmpty());
        heap.arm(new Timer(() -> { }, 70));
        assertEquals(50, heap.earliestDeadline(), "arm only lowers the advertised deadline");
        heap.add(new Timer(() -> { }, 30));
        assertEquals(30, heap.earliestDeadline());
        heap.drainInbox();
        assertEquals(30, heap.earliestDeadline());
        assertEquals(1, heap.fireExpired(40, 10, RETHROW));
        assertEquals(50, heap.earliestDeadline());
        assertEquals(2, heap.fireExpired(100, 10, RETHROW));
        assertEquals(TimerHeap.NONE, heap.earliestDeadline());
        assertTrue(heap.isEmpty());
    }

    @Test
    void cancellationLeavesAtMostAnEarlyDeadlineUntilTheHolderCleansUp() {
        Timer early = new Timer(() -> { }, 10);
        heap.add(early);
        heap.add(new Timer(() -> { }, 20));
        early.cancel(false);
        assertEquals(10, heap.earliestDeadline(), "stale but early: a spurious wake-up at worst");
        assertEquals(0, heap.fireExpired(15, 10, RETHROW));
        assertEquals(20, heap.earliestDeadline());
    }

    @Test
    void removedTimersCanBeArmedAgain() {
        AtomicInteger runs = new AtomicInteger();
        Timer t = new Timer(runs::incrementAndGet, 10);
        heap.arm(t);
        assertTrue(heap.remove(t), "remove finds timers still in the inbox");
        assertEquals(TimerHeap.NONE, heap.earliestDeadline());
        heap.add(t);
        assertEquals(1, heap.fireExpired(10, 10, RETHROW));
        assertEquals(1, runs.get());
        assertFalse(heap.remove(t));
    }

    @Test
    void removeIgnoresTimersOfOtherHeaps() {
        TimerHeap other = new TimerHeap();
        assertTrue(other.tryLock());
        Timer mine = new Timer(() -> { }, 1);
        Timer theirs = new Timer(() -> { }, 2);
        heap.add(mine);
        other.add(theirs);
        assertFalse(heap.remove(theirs), "same heapIndex, different heap");
        assertTrue(other.remove(theirs));
        assertSame(mine, heap.peek());
        other.unlock();
    }

    @Test
    void cancelIfCancelsMatchingTimersInHeapAndInbox() {
        List<Timer> all = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Timer t = new Timer(() -> { }, i);
            all.add(t);
            if (i % 2 == 0) {
                heap.add(t);
            } else {
                heap.arm(t);
            }
        }
        assertTrue(all.get(3).cancel(false));
        int n = heap.cancelIf(t -> t.deadline() < 10);
        assertEquals(9, n, "0..9 minus the one already cancelled");
        Set<Long> left = new HashSet<>();
        for (Timer t : all) {
            if (!t.isCancelled()) {
                left.add(t.deadline());
            }
        }
        assertEquals(10, left.size());
        assertEquals(10, heap.fireExpired(Long.MAX_VALUE - 1, 100, RETHROW));
    }

    @Test
    void deadlinesAcrossNanoTimeWrapAroundFireInOrder() {
        List<Long> order = new ArrayList<>();
        long[] deadlines = {Long.MAX_VALUE - 5, Long.MIN_VALUE + 4, Long.MAX_VALUE - 10, Long.MIN_VALUE, Long.MAX_VALUE - 1};
        for (long d : deadlines) {
            heap.add(new Timer(() -> order.add(d), d));
        }
        assertEquals(Long.MAX_VALUE - 10, heap.earliestDeadline());
        long justAfterWrap = Long.MIN_VALUE + 1;
        assertEquals(4, heap.fireExpired(justAfterWrap, 100, RETHROW));
        assertEquals(List.of(Long.MAX_VALUE - 10, Long.MAX_VALUE - 5, Long.MAX_VALUE - 1, Long.MIN_VALUE), order);
        assertEquals(Long.MIN_VALUE + 4, heap.earliestDeadline());
    }

    @Test
    void armAcrossWrapAroundLowersTheAdvertisedDeadline() {
        heap.arm(new Timer(() -> { }, Long.MIN_VALUE + 5));
        heap.arm(new Timer(() -> { }, Long.MAX_VALUE - 5));
        assertEquals(Long.MAX_VALUE - 5, heap.earliestDeadline());
    }

    @Test
    void lockIsExclusiveAndUnlockRequiresIt() {
        assertFalse(heap.tryLock());
        heap.unlock();
        assertThrows(IllegalMonitorStateException.class, heap::unlock);
        assertTrue(heap.tryLock());
    }

    private static List<Long> deadlines(List<Timer> timers) {
        List<Long> out = new ArrayList<>();
        for (Timer t : timers) {
            out.add(t.deadline());
        }
        return out;
    }

    private static boolean anyAlive(Thread[] threads) {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return true;
            }
        }
        return false;
    }

    @Test
    void timersInArmingOrderFireInOrderThroughRingWrapGrowthAndRemovals() {
        List<Timer> expected = new ArrayList<>();
        List<Timer> fired = new ArrayList<>();
        long deadline = 0;
        for (int round = 0; round < 50; round++) {
            // Append 40, take out every third from the middle, fire 20: the ring's head moves, so later appends
            // wrap around its end, and growth must keep the order of wrapped entries.
            List<Timer> appended = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Timer[] self = new Timer[1];
                self[0] = new Timer(() -> fired.add(self[0]), ++deadline);
                heap.add(self[0]);
                appended.add(self[0]);
            }
            for (int i = 1; i < appended.size(); i += 3) {
                assertTrue(heap.remove(appended.get(i)));
                assertFalse(heap.remove(appended.get(i)));
            }
            for (int i = 0; i < appended.size(); i++) {
                if (i % 3 != 1) {
                    expected.add(appended.get(i));
                }
            }
            heap.fireExpired(deadline, 20, RETHROW);
        }
        heap.fireExpired(Long.MAX_VALUE - 1, Integer.MAX_VALUE, RETHROW);
        assertEquals(deadlines(expected), deadlines(fired));
        assertEquals(0, heap.size());
    }

    @Test
    void anEarlierTimerAfterAscendingOnesStillFiresFirst() {
        List<Long> fired = new ArrayList<>();
        for (long d : new long[] {100, 200, 300, 50, 250, 300, 10}) {
            heap.add(new Timer(() -> fired.add(d), d));
        }
        assertEquals(10, heap.earliestDeadline());
        assertEquals(7, heap.fireExpired(1_000, 10, RETHROW));
        assertEquals(List.of(10L, 50L, 100L, 200L, 250L, 300L, 300L), fired);
    }

    @Test
    void peekOnEmptyHeapIsNull() {
        assertNull(heap.peek());
    }
}
