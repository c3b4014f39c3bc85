package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class RunQueueTest {

    private static Runnable[] tasks(int n) {
        Runnable[] tasks = new Runnable[n];
        for (int i = 0; i < n; i++) {
            int id = i;
            tasks[i] = new Runnable() {
                @Override
                public void run() {
                }

                @Override
                public String toString() {
                    return "task-" + id;
                }
            };
        }
        return tasks;
    }

    @Test
    void runNextDisplacesToTheCaller() {
        RunQueue q = new RunQueue(new GlobalQueue());
        Runnable[] t = tasks(2);
        assertNull(q.putRunNext(t[0]));
        assertSame(t[0], q.putRunNext(t[1]));
        assertSame(t[1], q.pollRunNext());
        assertNull(q.pollRunNext());
        assertTrue(q.isEmpty());
    }

    @Test
    void queueIsFifoAndBounded() {
        RunQueue q = new RunQueue(new GlobalQueue());
        Runnable[] t = tasks(RunQueue.CAPACITY + 1);
        for (int i = 0; i < RunQueue.CAPACITY; i++) {
            assertTrue(q.offer(t[i]));
        }
        assertFalse(q.offer(t[RunQueue.CAPACITY]), "a full queue refuses, so the caller can overflow globally");
        for (int i = 0; i < RunQueue.CAPACITY; i++) {
            assertSame(t[i], q.poll());
        }
        assertNull(q.poll());
    }

    @Test
    void runNextIsNotStealableWorkButCanBeStolen() {
        RunQueue victim = new RunQueue(new GlobalQueue());
        RunQueue thief = new RunQueue(new GlobalQueue());
        Runnable[] t = tasks(1);
        victim.putRunNext(t[0]);
        assertFalse(victim.hasStealableWork(), "its owner runs runNext next: nobody must stay awake for it");
        assertNull(victim.stealInto(thief));
        assertSame(t[0], victim.stealRunNext());
        assertNull(victim.pollRunNext(), "taken once");
    }

    @Test
    void stealMovesAboutHalfAndReturnsTheHead() {
        RunQueue victim = new RunQueue(new GlobalQueue());
        RunQueue thief = new RunQueue(new GlobalQueue());
        Runnable[] t = tasks(11);
        for (Runnable task : t) {
            victim.offer(task);
        }
        assertSame(t[0], victim.stealInto(thief));
        assertEquals(5, thief.size());
        assertEquals(5, victim.size());
        assertSame(t[1], thief.poll(), "stolen tasks keep their order");
        assertSame(t[6], victim.poll());
    }

    @Test
    void ownerAndThievesTakeEveryTaskExactlyOnce() throws InterruptedException {
        int total = 200_000;
        Runnable[] t = tasks(total);
        java.util.IdentityHashMap<Runnable, Integer> ids = new java.util.IdentityHashMap<>();
        for (int i = 0; i < total; i++) {
            ids.put(t[i], i);
        }
        AtomicIntegerArray taken = new AtomicIntegerArray(total);
        RunQueue owner = new RunQueue(new GlobalQueue());
        AtomicBoolean producing = new AtomicBoolean(true);
        Thread[] thieves = new Thread[3];
        for (int k = 0; k < thieves.length; k++) {
            thieves[k] = Thread.ofPlatform().start(() -> {
                RunQueue mine = new RunQueue(new GlobalQueue());
                while (producing.get() || !owner.isEmpty()) {
                    Runnable task = owner.stealInto(mine);
                    if (task == null) {
                        task = owner.stealRunNext();
                    }
                    for (; task != null; task = mine.poll()) {
                        taken.incrementAndGet(ids.get(task));
                    }
                }
            });
        }
        for (int i = 0; i < total; i++) {
            Runnable displaced = (i % 3 == 0) ? owner.putRunNext(t[i]) : t[i];
            while (displaced != null && !owner.offer(displaced)) {
                Runnable own = owner.poll();
                if (own != null) {
                    taken.incrementAndGet(ids.get(own));
                }
            }
            if (i % 5 == 0) {
                Runnable own = owner.pollRunNext();
                if (own != null) {
                    taken.incrementAndGet(ids.get(own));
                }
            }
        }
        producing.set(false);
        for (Thread thief : thieves) {
            thief.join();
        }
        for (Runnable task; (task = owner.poll()) != null || (task = owner.pollRunNext()) != null; ) {
            taken.incrementAndGet(ids.get(task));
        }
        for (int i = 0; i < total; i++) {
            assertEquals(1, taken.get(i), "task " + i);
        }
    }
}
