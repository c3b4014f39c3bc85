package dev.shuttle.scheduler.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Predicate;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;

/**
 * A carrier's run queue: a bounded JCTools {@link MpscVarHandleArrayQueue} plus Go's one-task {@code runnext} slot.
 * The VarHandle version of JCTools' MPSC array queue, not {@code jctools-core}'s, because that one reaches
 * {@code sun.misc.Unsafe}, which JDK 25 warns about on every JVM that runs Shuttle.
 *
 * <p>Producers: the processor's holder, a thief moving a batch into its own queue, and a carrier that lost this
 * processor while its virtual thread ran and still wakes threads from it ({@link Processor}); hence a
 * multi-producer queue. Nobody may assume free room stays free, so every offer has the pool's global queue behind it
 * as the overflow. Consumers: the
 * owner, and thieves. An MPSC queue has one consumer at a time, so consumption is guarded by a consumer flag taken
 * with a CAS: the owner holds it for one poll, a thief for one batch. The flag costs the owner one uncontended CAS
 * per task; JCTools' MPMC queue would cost the same CAS on its consumer index and could not take a batch at once.
 *
 * <p>{@code runNext} holds the task a thread on this carrier just woke; the owner runs it next (producer and
 * consumer stay on one warm cache). Owner and thieves take it with atomic swaps, so it is run once. It is not part
 * of {@link #hasStealableWork}: the owner will run it, so no carrier has to stay awake for it.
 */
public final class RunQueue {
    static final int CAPACITY = 256;

    private static final VarHandle RUN_NEXT;
    private static final VarHandle CONSUMER;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            RUN_NEXT = l.findVarHandle(RunQueue.class, "runNext", Runnable.class);
            CONSUMER = l.findVarHandle(RunQueue.class, "consumer", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MpscVarHandleArrayQueue<Runnable> queue = new MpscVarHandleArrayQueue<>(CAPACITY);
    private final GlobalQueue overflow;
    @SuppressWarnings("unused") // accessed through RUN_NEXT
    private volatile Runnable runNext;
    @SuppressWarnings("unused") // accessed through CONSUMER
    private volatile int consumer;
    /**
     * The thief's sink while it holds a victim's consumer flag: it offers into this queue, and to the overflow if a
     * carrier that lost this processor filled it meanwhile (a drain ignores a failed offer: the task would be lost).
     */
    private final MessagePassingQueue.Consumer<Runnable> intoThis = this::offerOrOverflow;
    /** {@link #offer} as the sink of a batch from the global queue ({@link GlobalQueue#pollAndShare}). */
    final Predicate<Runnable> offerer = this::offer;

    RunQueue(GlobalQueue overflow) {
        this.overflow = overflow;
    }

    /** Appends at the tail; false when full. */
    boolean offer(Runnable task) {
        return queue.offer(task);
    }

    /** Appends at the tail, or at the overflow queue when full. */
    void offerOrOverflow(Runnable task) {
        if (!queue.offer(task)) {
            overflow.offer(task);
        }
    }

    /** Puts {@code task} in runNext and returns the task it displaced, or null. */
    Runnable putRunNext(Runnable task) {
        return (Runnable) RUN_NEXT.getAndSet(this, task);
    }

    /** Owner: takes runNext, or null. */
    Runnable pollRunNext() {
        return RUN_NEXT.getAcquire(this) == null ? null : (Runnable) RUN_NEXT.getAndSet(this, (Runnable) null);
    }

    /** Owner: takes the head of the queue, or null. Waits out a thief holding the consumer flag. */
    Runnable poll() {
        if (queue.isEmpty()) {
            return null;
        }
        while (!CONSUMER.compareAndSet(this, 0, 1)) {
            Thread.onSpinWait();
        }
        try {
            return queue.poll();
        } finally {
            CONSUMER.setRelease(this, 0);
        }
    }

    /**
     * Thief: moves about half of this queue into {@code into} (the thief's own, empty queue) and returns one task to
     * run now, or null when there was nothing or another consumer held the flag.
     */
    Runnable stealInto(RunQueue into) {
        if (queue.isEmpty() || !CONSUMER.compareAndSet(this, 0, 1)) {
            return null;
        }
        try {
            Runnable first = queue.poll();
            if (first != null) {
                int half = Math.min(queue.size() / 2, CAPACITY - into.queue.size());
                if (half > 0) {
                    queue.drain(into.intoThis, half);
                }
            }
            return first;
        } finally {
            CONSUMER.setRelease(this, 0);
        }
    }

    /** Thief: takes runNext, or null; a CAS so that owner and thief never both take it. */
    Runnable stealRunNext() {
        Runnable task = (Runnable) RUN_NEXT.getAcquire(this);
        return task != null && RUN_NEXT.compareAndSet(this, task, null) ? task : null;
    }

    boolean hasRunNext() {
        return RUN_NEXT.getAcquire(this) != null;
    }

    boolean hasStealableWork() {
        return !queue.isEmpty();
    }

    boolean isEmpty() {
        return RUN_NEXT.getAcquire(this) == null && queue.isEmpty();
    }

    public int size() {
        return queue.size() + (RUN_NEXT.getAcquire(this) == null ? 0 : 1);
    }
}
