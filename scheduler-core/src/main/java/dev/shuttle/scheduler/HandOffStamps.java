package dev.shuttle.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When sampled virtual threads were handed to their scheduler, kept until a carrier starts them: the first half of the
 * scheduling-delay measurement ({@link DelayHistogram} is the second). Go keeps this in the goroutine
 * ({@code g.runnableTime}, set in {@code casgstatus} for one transition in {@code gTrackingPeriod = 8}). The JDK's
 * {@code VirtualThread} has no field to spare and, loaded at VM start, cannot be given one, so the stamps live here,
 * in a table indexed by a hash of the thread's id.
 *
 * <h2>Protocol</h2>
 * One 64-bit word per slot: a tag from the thread id (14 bits, never 0), the kind of hand-off (2 bits) and the low
 * 48 bits of {@link System#nanoTime()} (wrapping after 78 hours; a wait is the difference modulo 2<sup>48</sup>).
 * <ul>
 *   <li>{@link #stamp}, by whoever hands a thread to the scheduler, before the task is queued: one in
 *       {@value #SAMPLE_PERIOD} hand-offs draws a clock read and a release store of the word. The draw is
 *       {@link ThreadLocalRandom}: its seed lives in the current thread's own object, so deciding writes nothing
 *       shared, and a random draw is unbiased where a per-submitter counter could lock onto a pattern (a carrier
 *       handing two threads back and forth would sample only one of them).</li>
 *   <li>{@link #take}, by the carrier about to run a thread, for every task: an acquire load of one slot and, only
 *       when the tag matches, an opaque store of 0. The queue the task came through orders the stamp before the
 *       take; the thread cannot be handed off again before it has run, so the take is never late for its own
 *       stamp.</li>
 * </ul>
 * What can go wrong costs samples, never a wrong time: two sampled threads waiting at once in one slot (the later
 * stamp wins, and the earlier thread is simply not measured; with {@value #SLOTS} slots that is one in
 * {@value #SLOTS} per other waiting sampled thread, so only runs with tens of thousands of runnable threads lose a
 * noticeable share, and the longest waits the most), and a take clearing a stamp another thread wrote into its slot
 * in between. A tag can match another thread's stamp in the same slot with odds of 2<sup>-13</sup>; its wait is then
 * that other thread's so far, still a real wait.
 */
final class HandOffStamps {
    /** Kinds of hand-off, as {@code DelayHistogram} separates them. */
    static final int START = 0;
    static final int WAKE = 1;
    static final int YIELD = 2;
    static final int TIMER = 3;
    static final int KINDS = 4;
    static final String[] KIND_NAMES = {"start", "wake", "yield", "timer"};

    /** One hand-off in this many is timed (Go's {@code gTrackingPeriod}). */
    static final int SAMPLE_PERIOD = 8;
    static final int SLOT_BITS = 15;
    static final int SLOTS = 1 << SLOT_BITS;
    private static final int STAMP_BITS = 48;
    private static final long STAMP_MASK = (1L << STAMP_BITS) - 1;
    private static final int KIND_SHIFT = STAMP_BITS;
    private static final int TAG_SHIFT = STAMP_BITS + 2;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots = new long[SLOTS];

    /** Any thread: samples the hand-off of {@code vthread} as {@code kind}, before it is queued. */
    void stamp(Thread vthread, int kind) {
        if ((ThreadLocalRandom.current().nextInt() & (SAMPLE_PERIOD - 1)) != 0) {
            return;
        }
        long h = hash(vthread.threadId());
        long word = tag(h) << TAG_SHIFT | (long) kind << KIND_SHIFT | System.nanoTime() & STAMP_MASK;
        SLOT.setRelease(slots, slot(h), word);
    }

    /**
     * The carrier about to run {@code vthread}: its stamp, removed, or 0 if its hand-off was not sampled (or the
     * sample was lost). Decode with {@link #kind} and {@link #waited}.
     */
    long take(Thread vthread) {
        long h = hash(vthread.threadId());
        int i = slot(h);
        long word = (long) SLOT.getAcquire(slots, i);
        if (word == 0 || word >>> TAG_SHIFT != tag(h)) {
            return 0;
        }
        SLOT.setOpaque(slots, i, 0L);
        return word;
    }

    static int kind(long word) {
        return (int) (word >>> KIND_SHIFT) & 3;
    }

    /** Nanoseconds from the stamp in {@code word} to {@code now} ({@link System#nanoTime()}). */
    static long waited(long word, long now) {
        return (now - word) & STAMP_MASK;
    }

    private static long hash(long threadId) {
        return threadId * 0x9E3779B97F4A7C15L;
    }

    private static int slot(long h) {
        return (int) (h >>> (64 - SLOT_BITS));
    }

    private static long tag(long h) {
        return (h >>> 20) & 0x3FFF | 1;
    }
}
