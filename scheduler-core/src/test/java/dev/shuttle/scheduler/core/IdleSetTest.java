package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class IdleSetTest {

    @Test
    void addRemoveAndCountAcrossWords() {
        IdleSet set = new IdleSet(130);
        for (int i : new int[] {0, 63, 64, 129}) {
            set.add(i);
        }
        assertEquals(4, set.count());
        assertTrue(set.contains(64));
        assertFalse(set.contains(65));
        assertTrue(set.tryRemove(64));
        assertFalse(set.tryRemove(64), "a bit is cleared once");
        assertEquals(3, set.count());
        assertThrows(IllegalStateException.class, () -> set.add(0), "a carrier cannot be idle twice");
    }

    @Test
    void busyWordsCoverExactlyTheNonIdleCarriers() {
        IdleSet set = new IdleSet(70);
        set.add(3);
        set.add(65);
        BitSet busy = new BitSet();
        for (int w = 0; w < IdleSet.wordCount(70); w++) {
            long word = set.busyWord(w, 70);
            while (word != 0) {
                busy.set((w << 6) + Long.numberOfTrailingZeros(word));
                word &= word - 1;
            }
        }
        BitSet expected = new BitSet();
        expected.set(0, 70);
        expected.clear(3);
        expected.clear(65);
        assertEquals(expected, busy, "carriers past the size are never reported busy");
    }

    @Test
    void nextBusyAndNextIdleWalkTheirCarriersInOrder() {
        IdleSet set = new IdleSet(130);
        set.add(1);
        set.add(64);
        set.add(129);
        List<Integer> idle = new ArrayList<>();
        for (int i = set.nextIdle(0, 130); i >= 0; i = set.nextIdle(i + 1, 130)) {
            idle.add(i);
        }
        assertEquals(List.of(1, 64, 129), idle);
        int busy = 0;
        for (int i = set.nextBusy(0, 130); i >= 0; i = set.nextBusy(i + 1, 130)) {
            assertFalse(set.contains(i));
            busy++;
        }
        assertEquals(127, busy);
        assertEquals(-1, set.nextBusy(130, 130));
        assertEquals(65, set.nextBusy(64, 130));
    }

    @Test
    void pollAnyTakesEachIdleCarrierOnce() {
        IdleSet set = new IdleSet(200);
        for (int i = 0; i < 200; i += 3) {
            set.add(i);
        }
        BitSet taken = new BitSet();
        for (int i; (i = set.pollAny(150, 200)) >= 0; ) {
            assertFalse(taken.get(i), "taken twice: " + i);
            assertEquals(0, i % 3, "never idle: " + i);
            taken.set(i);
        }
        assertEquals(67, taken.cardinality());
        assertEquals(0, set.count());
    }

    /** A retiring processor's bit lies past the bound its callers give: no scan reports or claims it. */
    @Test
    void scansStopAtTheCallersBound() {
        IdleSet set = new IdleSet(ShuttleScheduler.MAX_PARALLELISM);
        set.add(1);
        set.add(70);
        assertEquals(1, set.pollAny(5, 64));
        assertEquals(-1, set.pollAny(0, 64), "bit 70 is past the bound");
        assertEquals(-1, set.nextIdle(0, 70));
        assertEquals(70, set.nextIdle(0, 71));
        assertEquals(-1, set.nextBusy(64, 64));
        assertEquals(0, set.busyWord(1, 64), "no carrier of word 1 exists below the bound");
        assertEquals(1, IdleSet.wordCount(64));
        assertEquals(512, IdleSet.wordCount(ShuttleScheduler.MAX_PARALLELISM));
        assertTrue(set.contains(70));
    }

    @Test
    void concurrentWakersAndSelfWakesHandOffEachBitOnce() throws InterruptedException {
        int carriers = 64;
        int rounds = 2_000;
        IdleSet set = new IdleSet(carriers);
        AtomicIntegerArray claims = new AtomicIntegerArray(carriers);
        for (int round = 0; round < rounds; round++) {
            for (int i = 0; i < carriers; i++) {
                set.add(i);
            }
            CountDownLatch go = new CountDownLatch(1);
            Thread waker = Thread.ofPlatform().start(() -> {
                await(go);
                for (int i; (i = set.pollAny(7, carriers)) >= 0; ) {
                    claims.incrementAndGet(i);
                }
            });
            go.countDown();
            for (int i = carriers - 1; i >= 0; i--) {
                if (set.tryRemove(i)) {
                    claims.incrementAndGet(i);
                }
            }
            waker.join();
            assertEquals(0, set.count());
        }
        for (int i = 0; i < carriers; i++) {
            assertEquals(rounds, claims.get(i), "carrier " + i + " was handed off a wrong number of times");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
