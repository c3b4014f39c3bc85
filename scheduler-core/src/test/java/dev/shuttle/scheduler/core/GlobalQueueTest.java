package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class GlobalQueueTest {
    /** Distinct tasks: a lambda that captures nothing is one shared instance. */
    private static Runnable[] tasks(int n) {
        Runnable[] t = new Runnable[n];
        for (int i = 0; i < n; i++) {
            int id = i;
            t[i] = () -> Integer.toString(id);
        }
        return t;
    }

    @Test
    void firstInFirstOutPastOneChunk() {
        GlobalQueue q = new GlobalQueue();
        Runnable[] t = tasks(3 * GlobalQueue.CHUNK + 7);
        for (Runnable task : t) {
            q.offer(task);
        }
        assertEquals(t.length, q.size());
        for (Runnable task : t) {
            assertSame(task, q.poll());
        }
        assertTrue(q.isEmpty());
        assertNull(q.poll());
    }

    @Test
    void aBatchTakesTheHeadAndAFairShareOfTheRest() {
        GlobalQueue q = new GlobalQueue();
        Runnable[] t = tasks(9);
        for (Runnable task : t) {
            q.offer(task);
        }
        List<Runnable> sunk = new ArrayList<>();
        // 8 left after the head, 4 consumers: a share of 2
        assertSame(t[0], q.pollAndShare(4, 100, sunk::add));
        assertEquals(List.of(t[1], t[2]), sunk);
        assertEquals(6, q.size());
        // the share is capped by max
        sunk.clear();
        assertSame(t[3], q.pollAndShare(1, 2, sunk::add));
        assertEquals(List.of(t[4], t[5]), sunk);
        assertEquals(3, q.size());
    }

    @Test
    void aTaskTheSinkRefusesGoesBackToTheTailAndEndsTheBatch() {
        GlobalQueue q = new GlobalQueue();
        Runnable[] t = tasks(5);
        for (Runnable task : t) {
            q.offer(task);
        }
        AtomicInteger offered = new AtomicInteger();
        assertSame(t[0], q.pollAndShare(1, 100, task -> offered.getAndIncrement() == 0));
        assertEquals(2, offered.get(), "the batch should stop at the first refusal");
        // t[1] went to the sink, t[2] was refused and re-queued behind t[3] and t[4]
        assertSame(t[3], q.poll());
        assertSame(t[4], q.poll());
        assertSame(t[2], q.poll());
        assertNull(q.pollAndShare(1, 100, task -> true), "an empty queue has no head");
    }

    /** Producers and both kinds of consumers at once: every task is taken exactly once. */
    @Test
    void concurrentProducersAndConsumersTakeEachTaskOnce() throws InterruptedException {
        GlobalQueue q = new GlobalQueue();
        int producers = 2;
        int perProducer = 200_000;
        Runnable[] t = tasks(producers * perProducer);
        Map<Runnable, Integer> ids = new IdentityHashMap<>();
        for (int i = 0; i < t.length; i++) {
            ids.put(t[i], i);
        }
        AtomicIntegerArray taken = new AtomicIntegerArray(t.length);
        AtomicInteger done = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int from = p * perProducer;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = from; i < from + perProducer; i++) {
                    q.offer(t[i]);
                }
            }));
        }
        for (int c = 0; c < 3; c++) {
            boolean batches = c > 0;
            threads.add(Thread.ofPlatform().start(() -> {
                List<Runnable> local = new ArrayList<>();
                while (done.get() < t.length) {
                    Runnable task = batches ? q.pollAndShare(3, 64, local::add) : q.poll();
                    if (task != null) {
                        local.add(task);
                    }
                    for (Runnable r : local) {
                        taken.incrementAndGet(ids.get(r));
                    }
                    done.addAndGet(local.size());
                    local.clear();
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join(60_000);
            assertFalse(thread.isAlive(), "a producer or consumer did not finish");
        }
        for (int i = 0; i < t.length; i++) {
            assertEquals(1, taken.get(i), "task " + i);
        }
        assertTrue(q.isEmpty());
    }
}
