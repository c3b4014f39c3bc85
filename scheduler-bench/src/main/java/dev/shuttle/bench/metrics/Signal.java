package dev.shuttle.bench.metrics;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A one-way hand-off between one sender and one receiver thread, built on park/unpark only, like an unbuffered Go
 * channel used in lockstep: the n-th {@link #await} returns once the n-th {@link #send} happened. It allocates
 * nothing per hand-off, so what a benchmark measures is the scheduler's wake-up path.
 */
public final class Signal {
    private static final VarHandle SENT;

    static {
        try {
            SENT = MethodHandles.lookup().findVarHandle(Signal.class, "sent", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through SENT
    private volatile long sent;
    private long received;
    private volatile Thread receiver;

    /** Names the thread that will {@link #await}; call before the sender first sends. */
    public void receiver(Thread thread) {
        receiver = thread;
    }

    /** Sender side: posts one hand-off and wakes the receiver. */
    public void send() {
        SENT.getAndAdd(this, 1L);
        LockSupport.unpark(receiver);
    }

    /** Receiver side: parks until the next hand-off has been sent. */
    public void await() {
        long want = ++received;
        while ((long) SENT.getVolatile(this) < want) {
            LockSupport.park(this);
        }
    }

    /** Hand-offs sent so far. */
    public long sent() {
        return sent;
    }
}
