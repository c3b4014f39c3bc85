package dev.shuttle.scheduler.observe;

import dev.shuttle.scheduler.core.HandOffStamps;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Hand-off stamps for the JDK's own scheduler, the JDK-default measuring mode ({@link JdkSchedulingDelays}): there the
 * task the pool queues cannot be replaced by a {@code HandOffStamps.Stamp} (the JDK's scheduling path stays as it is),
 * so a sampled hand-off leaves its stamp in a table indexed by a hash of the thread's id, and the carrier looks it up
 * on every start. Go keeps this in the goroutine ({@code g.runnableTime}); the JDK's {@code VirtualThread} has no
 * field to spare and, loaded at VM start, cannot be given one.
 *
 * <h2>Protocol</h2>
 * One 64-bit word per slot: a tag from the thread id (14 bits, never 0) over the word of {@link HandOffStamps#word}
 * (the kind of hand-off and the low 48 bits of {@link System#nanoTime()}).
 * <ul>
 *   <li>{@link #stamp}, by whoever hands a thread to the scheduler, before the task is queued, for a hand-off it
 *       has already decided to sample ({@link JdkSchedulingDelays}): a clock read and a release store of the
 *       word.</li>
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
public final class StampTable {
    static final int SLOT_BITS = 15;
    static final int SLOTS = 1 << SLOT_BITS;
    private static final int TAG_SHIFT = HandOffStamps.WORD_BITS;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] slots = new long[SLOTS];

    /** Any thread: stamps the sampled hand-off of {@code vthread} as {@code kind}, before it is queued. */
    void stamp(Thread vthread, int kind) {
        long h = hash(vthread.threadId());
        long word = tag(h) << TAG_SHIFT | HandOffStamps.word(kind, System.nanoTime());
        SLOT.setRelease(slots, slot(h), word);
    }

    /**
     * The carrier about to run {@code vthread}: its stamp, removed, or 0 if its hand-off was not sampled (or the
     * sample was lost). Decode with {@link HandOffStamps#kind} and {@link HandOffStamps#waited}.
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
