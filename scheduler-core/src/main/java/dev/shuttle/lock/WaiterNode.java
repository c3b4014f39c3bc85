package dev.shuttle.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One wait of one thread: an entry on a synchronizer's sleeper stack, or on a condition queue
 * and then on the sleeper stack.
 *
 * <p>A node is pushed onto a sleeper stack at most once and never reused, so a reference to it
 * names one wait for as long as anyone holds it: a popper's CAS of the stack head cannot succeed
 * on a node that left and came back (no ABA), and a status that has left {@link #SLEEPING} never
 * returns to it. That is what lets a waiter give up, and the oldest sleeper be woken, by a status
 * CAS alone, leaving the node on the stack for a popper to discard.
 *
 * <p>Ownership of the fields:
 * <ul>
 * <li>{@link #thread} is final.
 * <li>{@link #next} links the sleeper stack. The pusher writes it before the CAS that publishes the
 *     node; afterwards it is only ever shortened to cut off nodes that are all no longer
 *     {@link #SLEEPING} (see {@code SpinBitSynchronizer.wakeOldest}), so a reader that sees either
 *     value skips only dead nodes.
 * <li>{@link #nextWaiter} links a condition queue and is guarded by the lock that owns it.
 * <li>{@link #status} is the hand-off between the waiter and whoever wakes, signals or cancels it:
 *     every move away from {@link #SLEEPING} or {@link #CONDITION} is a CAS, and its winner decides.
 * </ul>
 */
final class WaiterNode {
    /** On a condition queue, waiting for a signal. */
    static final int CONDITION = 0;
    /** On a sleeper stack (or being pushed there); a waker or the waiter itself moves it on. */
    static final int SLEEPING = 1;
    /** Popped by a waker that also handed this waiter the spin role. */
    static final int GRANTED = 2;
    /** Woken without the spin role: the periodic wake of the oldest sleeper. */
    static final int WOKEN = 3;
    /** Its wait ended by timeout or interrupt before anyone woke or signalled it. */
    static final int CANCELLED = 4;

    private static final VarHandle STATUS;

    static {
        try {
            STATUS = MethodHandles.lookup().findVarHandle(WaiterNode.class, "status", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread;
    WaiterNode next;
    WaiterNode nextWaiter;
    private volatile int status;

    WaiterNode(Thread thread, int status) {
        this.thread = thread;
        STATUS.set(this, status);   // published with the node by the CAS or lock that shares it
    }

    int status() {
        return status;
    }

    boolean casStatus(int expect, int update) {
        return STATUS.compareAndSet(this, expect, update);
    }

    /**
     * Wakes the sleeping owner with {@code how} ({@link #GRANTED} or {@link #WOKEN}); false if the
     * node is no longer sleeping (cancelled, or already woken by someone else).
     */
    boolean wake(int how) {
        if (!STATUS.compareAndSet(this, SLEEPING, how)) {
            return false;
        }
        LockSupport.unpark(thread);
        return true;
    }
}
