package dev.shuttle.scheduler.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Predicate;
import org.jctools.queues.varhandle.MpscUnboundedVarHandleArrayQueue;

/**
 * The pool's global injection queue (Go's {@code sched.runq}): external submissions, yields, local-queue overflow and
 * the tasks of a retired processor. Unbounded, because a submitter from outside has nowhere else to put a task.
 *
 * <p>Why this queue: JCTools' unbounded MPMC queue ({@code MpmcUnboundedXaddArrayQueue}) exists only in
 * {@code jctools-core}, whose queues reach {@code sun.misc.Unsafe}, and JDK 25 then warns on every JVM that runs
 * Shuttle. {@code jctools-core-jdk11} has VarHandle versions of JCTools' queues but no unbounded MPMC one, so this is
 * its unbounded MPSC queue, {@link MpscUnboundedVarHandleArrayQueue}, made multi-consumer by a consumer flag, as a
 * {@link RunQueue} is. The flag costs a consumer one CAS per take, which the MPMC queue's consumer index cost as well,
 * and a consumer that moves a batch into its run queue ({@link #pollAndShare}) pays it once for the batch. A
 * {@code ConcurrentLinkedQueue} would allocate a node per task and count its size in O(n), and {@link #size} is read
 * by every batch. The linked-array queue allocates only when more than {@value #CHUNK} tasks wait at once: while
 * consumers keep up, its producers wrap around in the chunk they have.
 *
 * <p>Producers: any thread, lock-free. Consumers: carriers and resizes, one at a time, under the flag; a consumer
 * waits out another's batch, which is bounded by {@link RunQueue#CAPACITY}. {@link #isEmpty} and {@link #size} read
 * the indexes without the flag, so a carrier that sees nothing queued takes no lock and writes nothing shared.
 */
public final class GlobalQueue {
    /** Slots per chunk of the linked-array queue. */
    static final int CHUNK = 1024;

    private static final VarHandle CONSUMER;

    static {
        try {
            CONSUMER = MethodHandles.lookup().findVarHandle(GlobalQueue.class, "consumer", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MpscUnboundedVarHandleArrayQueue<Runnable> queue = new MpscUnboundedVarHandleArrayQueue<>(CHUNK);
    @SuppressWarnings("unused") // accessed through CONSUMER
    private volatile int consumer;

    /** Appends at the tail; never fails. */
    void offer(Runnable task) {
        queue.offer(task);
    }

    /** Takes the head, or null when the queue is empty. Waits out another consumer's batch. */
    Runnable poll() {
        if (queue.isEmpty()) {
            return null;
        }
        lockConsumer();
        try {
            return queue.poll();
        } finally {
            CONSUMER.setRelease(this, 0);
        }
    }

    /**
     * Takes the head and moves a fair share of the rest, {@code size / consumers} and at most {@code max}, into
     * {@code sink} (a carrier's run queue) under one hold of the flag (Go's {@code globrunqget}). A task the sink
     * refuses goes back to the tail and ends the batch. Returns the head, or null when the queue was empty.
     */
    Runnable pollAndShare(int consumers, int max, Predicate<Runnable> sink) {
        if (queue.isEmpty()) {
            return null;
        }
        lockConsumer();
        try {
            Runnable first = queue.poll();
            if (first != null) {
                int share = Math.min(queue.size() / consumers, max);
                for (int i = 0; i < share; i++) {
                    Runnable next = queue.poll();
                    if (next == null) {
                        break;
                    }
                    if (!sink.test(next)) {
                        queue.offer(next);
                        break;
                    }
                }
            }
            return first;
        } finally {
            CONSUMER.setRelease(this, 0);
        }
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    public int size() {
        return queue.size();
    }

    private void lockConsumer() {
        while (!CONSUMER.compareAndSet(this, 0, 1)) {
            Thread.onSpinWait();
        }
    }
}
