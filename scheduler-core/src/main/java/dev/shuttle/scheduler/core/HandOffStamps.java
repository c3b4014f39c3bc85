package dev.shuttle.scheduler.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When sampled virtual threads were handed to a Shuttle scheduler, carried with the task to the carrier that starts
 * it: the first half of the scheduling-delay measurement ({@link DelayHistogram} is the second). Go keeps this in the
 * goroutine ({@code g.tracking}, {@code g.runnableTime}, set in {@code casgstatus}); the JDK's {@code VirtualThread}
 * has no field to spare, so a sampled hand-off queues a {@link Stamp} in place of the task: the stamp holds the task,
 * the kind of hand-off and the time. An unsampled task travels as itself, so the carrier that dequeues a task learns
 * whether it was sampled from the class of the object it already holds, and the common path reads nothing shared.
 *
 * <h2>Ownership</h2>
 * One instance per carrier thread, owned by it: {@code CarrierPool.execute} runs on the submitting carrier, and only
 * that thread calls {@link #stamp}. A thread that is not one of Shuttle's carriers (a platform thread unparking a
 * virtual thread, a JDK carrier) has no instance and uses {@link #stampForeign}.
 *
 * <h2>Protocol</h2>
 * <ul>
 *   <li>Deciding, by the owner: a countdown in a plain field; an unsampled hand-off is a decrement and a compare. At
 *       zero it is reloaded with a gap drawn uniformly from 1 to 2 &times; {@value #SAMPLE_PERIOD} &minus; 1 (mean
 *       {@value #SAMPLE_PERIOD}, Go's {@code gTrackingPeriod}) by the owner's own xorshift. A random gap rather than a
 *       fixed period keeps a carrier that hands two threads back and forth from sampling only one of them.</li>
 *   <li>Stamping, by the owner: up to {@value #STAMPS} stamps, made as first needed and reused round robin, so
 *       sampling allocates nothing once they exist. A stamp is free when its task is null. The owner loads the next
 *       stamp's task with acquire; if it is not null the stamp is still queued or being read, and the sample is
 *       lost. Otherwise it writes the word and the task with plain stores and returns the stamp, which the caller
 *       queues; the queue's offer (a release or stronger) publishes both to the carrier whose poll (an acquire) takes
 *       it.</li>
 *   <li>Taking, by the carrier about to run a stamp's task, which it dequeued: {@link Stamp#task()} and
 *       {@link Stamp#take()}, plain reads, then a release store of null into the task. The reads happen before that
 *       store, and the owner's acquire load that sees the null orders its next writes into the stamp after it, so
 *       the carrier never reads a later hand-off's task or time, and the owner never reuses a stamp that still
 *       carries a task ({@code HandOffStampsStress}). A queue hands each entry to one taker, so a stamp is taken once
 *       per hand-off.</li>
 * </ul>
 * What can go wrong costs a sample, never a wrong time, a lost task or a task run twice: more than {@value #STAMPS}
 * sampled hand-offs of one carrier waiting at once (a backlog of some {@value #STAMPS} &times; {@value #SAMPLE_PERIOD}
 * tasks) find their stamp in use and go unmeasured until the backlog drains, so read the tail of such a burst as a
 * lower bound. A foreign submitter draws with {@link ThreadLocalRandom} (its seed is a field of the current thread)
 * and makes a new stamp for each sampled hand-off: foreign hand-offs are not a carrier's hot path.
 */
public final class HandOffStamps {
    /** Kinds of hand-off, as {@code DelayHistogram} separates them. */
    public static final int START = 0;
    public static final int WAKE = 1;
    public static final int YIELD = 2;
    static final int TIMER = 3;
    static final int KINDS = 4;
    public static final String[] KIND_NAMES = {"start", "wake", "yield", "timer"};

    /** One hand-off in this many is timed, on average (Go's {@code gTrackingPeriod}). */
    public static final int SAMPLE_PERIOD = 8;
    /** Stamps per carrier: how many of its sampled hand-offs may wait at once before samples are lost. */
    static final int STAMPS = 1024;
    private static final int TIME_BITS = 48;
    private static final long TIME_MASK = (1L << TIME_BITS) - 1;
    /** The bits a stamp word uses: the time, then the kind. */
    public static final int WORD_BITS = TIME_BITS + 2;

    private static final VarHandle TASK;

    static {
        try {
            TASK = MethodHandles.lookup().findVarHandle(Stamp.class, "task", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int samplePeriod;
    /** Owner: made on the first sampled hand-off, its entries as first needed. */
    private Stamp[] stamps;
    private final int stampMask;
    /** Owner: the stamp the next sampled hand-off tries. */
    private int next;
    /** Owner: hand-offs left until the next sampled one. */
    private int countdown;
    /** Owner: xorshift state for the gaps; never 0. */
    private int seed;

    public HandOffStamps() {
        this(SAMPLE_PERIOD, STAMPS);
    }

    /** {@code samplePeriod} at least 1 (1 samples every hand-off); {@code stamps} a power of two. */
    HandOffStamps(int samplePeriod, int stamps) {
        if (samplePeriod < 1 || Integer.bitCount(stamps) != 1) {
            throw new IllegalArgumentException("sample period " + samplePeriod + ", stamps " + stamps);
        }
        this.samplePeriod = samplePeriod;
        this.stampMask = stamps - 1;
        this.seed = ThreadLocalRandom.current().nextInt() | 1;
        this.countdown = gap();
    }

    /**
     * The owner, before it queues {@code task}: {@code task} itself, or, for a sampled hand-off, a stamp holding it
     * with {@code kind} and the time, to be queued instead.
     */
    Runnable stamp(Runnable task, int kind) {
        if (!sampled()) {
            return task;
        }
        Stamp[] all = stamps;
        if (all == null) {
            stamps = all = new Stamp[stampMask + 1];
        }
        Stamp s = all[next];
        if (s == null) {
            all[next] = s = new Stamp();
        } else if (TASK.getAcquire(s) != null) {
            return task;
        }
        next = (next + 1) & stampMask;
        s.word = word(kind, System.nanoTime());
        s.task = task;
        return s;
    }

    /**
     * The owner, for a hand-off: whether to time this one. An unsampled hand-off is a decrement and a compare of a
     * field only the owner writes; see the class comment for the gaps. {@link #stamp} decides with it, and so does the
     * JDK-default measuring mode ({@code JdkSchedulingDelays}), whose carriers own an instance they never stamp with.
     */
    public boolean sampled() {
        if (--countdown != 0) {
            return false;
        }
        countdown = gap();
        return true;
    }

    /** A thread that is not one of Shuttle's carriers, before it queues {@code task}: as {@link #stamp}. */
    static Runnable stampForeign(Runnable task, int kind) {
        if ((ThreadLocalRandom.current().nextInt() & (SAMPLE_PERIOD - 1)) != 0) {
            return task;
        }
        Stamp s = new Stamp();
        s.word = word(kind, System.nanoTime());
        s.task = task;
        return s;
    }

    private int gap() {
        int x = seed;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        seed = x;
        return 1 + (int) (((x & 0xFFFF_FFFFL) * (2L * samplePeriod - 1)) >>> 32);
    }

    /** A stamp word: {@code kind} over the low 48 bits of {@code now} ({@link System#nanoTime()}). */
    public static long word(int kind, long now) {
        return (long) kind << TIME_BITS | now & TIME_MASK;
    }

    public static int kind(long word) {
        return (int) (word >>> TIME_BITS) & 3;
    }

    /**
     * Nanoseconds from the stamp in {@code word} to {@code now} ({@link System#nanoTime()}): the difference modulo
     * 2<sup>48</sup>, so a wait is right across the clock's wrap and up to 78 hours long.
     */
    public static long waited(long word, long now) {
        return (now - word) & TIME_MASK;
    }

    /** A sampled hand-off in a queue; see the class comment for who writes and reads what. */
    static final class Stamp implements Runnable {
        /** The task; null while the stamp is free. Written by the owner, cleared with release by the taker. */
        private Runnable task;
        private long word;

        /** The taker, first: the task this stamp carries. */
        Runnable task() {
            return task;
        }

        /** The taker, after {@link #task()}: the stamp's word, and the stamp back to its owner. */
        long take() {
            long w = word;
            TASK.setRelease(this, (Runnable) null);
            return w;
        }

        /** Run by a path that does not measure: the task runs all the same, and the stamp goes back to its owner. */
        @Override
        public void run() {
            Runnable t = task;
            take();
            t.run();
        }
    }
}
