package dev.shuttle.bench.juc;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Exchanger;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.SynchronousQueue;

/**
 * A one-way channel from one sender thread to one receiver thread, built on the {@code java.util.concurrent} class
 * a benchmark's {@code channel} parameter names, so that one benchmark shape runs over every hand-off the JDK offers.
 * Each channel has exactly one sender and one receiver: an {@link Exchanger} pairs any two callers, so a second
 * sender could exchange with the first instead of with the receiver. Within one fork every channel is of one kind, so
 * the branches below are always taken the same way.
 */
final class Channel {
    static final String SYNCHRONOUS_QUEUE = "SynchronousQueue";
    static final String LINKED_TRANSFER_QUEUE = "LinkedTransferQueue";
    static final String EXCHANGER = "Exchanger";
    static final String ARRAY_BLOCKING_QUEUE = "ArrayBlockingQueue";
    static final String LINKED_BLOCKING_QUEUE = "LinkedBlockingQueue";

    /**
     * Capacity of the two buffered queues: small enough that a producer running ahead fills it and parks, as in a
     * buffered Go channel, so both ends keep waking each other.
     */
    static final int BUFFER = 16;

    /** The queue, or null for an exchanger. */
    private final BlockingQueue<Object> queue;
    /** The exchanger, or null for a queue. */
    private final Exchanger<Object> exchanger;
    /** Send with {@code transfer} (the queue is a LinkedTransferQueue), else with {@code put}. */
    private final boolean transfer;

    private Channel(BlockingQueue<Object> queue, Exchanger<Object> exchanger, boolean transfer) {
        this.queue = queue;
        this.exchanger = exchanger;
        this.transfer = transfer;
    }

    /**
     * A new channel of the named kind.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    static Channel open(String kind) {
        return switch (kind) {
            case SYNCHRONOUS_QUEUE -> new Channel(new SynchronousQueue<>(), null, false);
            case LINKED_TRANSFER_QUEUE -> new Channel(new LinkedTransferQueue<>(), null, true);
            case EXCHANGER -> new Channel(null, new Exchanger<>(), false);
            case ARRAY_BLOCKING_QUEUE -> new Channel(new ArrayBlockingQueue<>(BUFFER), null, false);
            case LINKED_BLOCKING_QUEUE -> new Channel(new LinkedBlockingQueue<>(BUFFER), null, false);
            default -> throw new IllegalArgumentException("unknown channel '" + kind + "': use " + SYNCHRONOUS_QUEUE
                    + ", " + LINKED_TRANSFER_QUEUE + ", " + EXCHANGER + ", " + ARRAY_BLOCKING_QUEUE + " or "
                    + LINKED_BLOCKING_QUEUE);
        };
    }

    /** Blocks until the receiver took {@code item} (rendezvous kinds) or there was room for it (buffered kinds). */
    void send(Object item) throws InterruptedException {
        if (exchanger != null) {
            exchanger.exchange(item);
        } else if (transfer) {
            ((LinkedTransferQueue<Object>) queue).transfer(item);
        } else {
            queue.put(item);
        }
    }

    /** Blocks until an item is there and returns it. */
    Object receive() throws InterruptedException {
        return exchanger != null ? exchanger.exchange(null) : queue.take();
    }
}
