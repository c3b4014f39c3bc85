package dev.shuttle.scheduler.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The set of parked carriers, one bit per carrier (Go's {@code idlepMask}, seed 001).
 *
 * <p>Why a bitmap and not a stack of parked workers (kotlinx's {@code CoroutineScheduler}): work stealing must skip
 * idle carriers in O(busy carriers), which needs "is carrier i idle?" in O(1) and "every busy carrier" as a scan of
 * {@code parallelism / 64} words; a stack answers neither. Agrona and JCTools have no atomic bitset.
 *
 * <p>Ownership: a carrier sets its own bit, just before it parks. The bit is cleared either by the carrier itself
 * ({@link #tryRemove}, when it wakes on its own or changes its mind) or by a waker ({@link #pollAny}), and whoever
 * clears it owns the wake-up: the clearing is the hand-off. Bits change with {@code getAndBitwiseOr/And}, full
 * fences, so a set bit and the carrier's later re-check of the queues are ordered (see package-info).
 *
 * <p>Sized for the most processors the pool may ever have ({@code ShuttleScheduler.MAX_PARALLELISM}: 512 words, 4
 * KiB), not replaced on resize: a carrier's bit is live state (it sleeps until a waker clears it), and swapping the
 * bitmap under parked carriers would need every sleeper and every waker to agree which bitmap they use, a second
 * protocol for a rare event. The price is the memory only: every scan takes as its bound the length of the {@code
 * processors} array its caller indexes with the result, so a thief or waker that read the array before a resize never
 * gets an index past it, and a scan costs words of processors in use, not of the capacity. A retiring processor's bit
 * (its carrier sleeps until the resize wakes it) lies past the new bound, so no waker claims it.
 *
 * <p>{@code count} duplicates the population so that a submitter's "is anyone idle?" is one read; it is updated
 * after the bit, so it may briefly lag the bitmap: a skipped wake-up is covered by the parking carrier's re-check,
 * and a wake-up attempt that finds no bit by the waker's own look at the queues ({@code Idle.wakep}).
 */
public final class IdleSet {
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] words;
    private final AtomicInteger count = new AtomicInteger();

    /** A set for carriers {@code 0 .. capacity - 1}. */
    IdleSet(int capacity) {
        this.words = new long[wordCount(capacity)];
    }

    void add(int i) {
        long bit = 1L << i;
        long old = (long) WORDS.getAndBitwiseOr(words, i >>> 6, bit);
        if ((old & bit) != 0) {
            throw new IllegalStateException("carrier " + i + " is already idle");
        }
        count.incrementAndGet();
    }

    /** Clears bit {@code i}; true only for the one caller that cleared it. */
    boolean tryRemove(int i) {
        long bit = 1L << i;
        long old = (long) WORDS.getAndBitwiseAnd(words, i >>> 6, ~bit);
        if ((old & bit) == 0) {
            return false;
        }
        count.decrementAndGet();
        return true;
    }

    public boolean contains(int i) {
        return ((long) WORDS.getVolatile(words, i >>> 6) & (1L << i)) != 0;
    }

    public int count() {
        return count.get();
    }

    /** Removes and returns some idle carrier below {@code size}, scanning from {@code start}; -1 when none is idle. */
    int pollAny(int start, int size) {
        int n = wordCount(size);
        int first = start >>> 6;
        for (int k = 0; k <= n; k++) {
            int w = (first + k) % n;
            long word = (long) WORDS.getVolatile(words, w);
            word &= validBits(w, size);
            while (word != 0) {
                int i = (w << 6) + Long.numberOfTrailingZeros(word);
                if (tryRemove(i)) {
                    return i;
                }
                word &= word - 1;
            }
        }
        return -1;
    }

    /**
     * The word of busy (not idle) bits covering carriers {@code 64*w .. 64*w+63}: the steal loop walks these so its
     * cost follows the busy carriers, not the parallelism.
     */
    long busyWord(int w, int size) {
        return ~(long) WORDS.getVolatile(words, w) & validBits(w, size);
    }

    /** The bits of word {@code w} that stand for carriers below {@code size}. */
    private static long validBits(int w, int size) {
        int base = w << 6;
        return size - base >= 64 ? -1L : size <= base ? 0L : (1L << (size - base)) - 1;
    }

    /**
     * The first busy carrier at or after {@code from} and below {@code size}, or -1: {@code for (i = nextBusy(0, n);
     * i >= 0; i = nextBusy(i + 1, n))}.
     */
    int nextBusy(int from, int size) {
        for (int w = from >>> 6, n = wordCount(size); w < n; w++) {
            long busy = busyWord(w, size);
            if (w == from >>> 6) {
                busy &= -1L << (from & 63);
            }
            if (busy != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(busy);
            }
        }
        return -1;
    }

    /** The first idle carrier at or after {@code from} and below {@code size}, or -1. */
    int nextIdle(int from, int size) {
        for (int w = from >>> 6, n = wordCount(size); w < n; w++) {
            long idle = (long) WORDS.getVolatile(words, w) & validBits(w, size);
            if (w == from >>> 6) {
                idle &= -1L << (from & 63);
            }
            if (idle != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(idle);
            }
        }
        return -1;
    }

    /** Words covering carriers {@code 0 .. size - 1}. */
    static int wordCount(int size) {
        return (size + 63) >>> 6;
    }
}
