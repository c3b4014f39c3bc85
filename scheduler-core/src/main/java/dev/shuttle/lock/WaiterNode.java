package dev.shuttle.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One waiting thread's entry on a sleeper stack or a condition queue.
 *
 * <p>Nodes are named by a small integer {@link #id} because the synchronizer's state word is a
 * {@code long}: it can hold the id of the stack's head but not a reference. Nodes are lent out by
 * {@link WaiterTable} for one wait and returned afterwards, so a contended acquire allocates
 * nothing once the table has as many nodes as there are concurrent waiters.
 *
 * <p>Ownership of the fields:
 * <ul>
 * <li>{@link #thread} is written by the borrowing thread before the node is published (by the CAS
 *     that pushes it, or by the lock that guards a condition queue) and read by its waker.
 * <li>{@link #next} links the sleeper stack. It is written by the pusher before its CAS, and
 *     afterwards only by the holder of the stack lock, who alone may unlink nodes.
 * <li>{@link #nextWaiter} links a condition queue and is guarded by the lock that owns it.
 * <li>{@link #spinGranted} is written by the waker before its release store of the status and
 *     read by the owner after seeing {@link #WOKEN}.
 * <li>{@link #status} is the hand-off between a waiter and whoever wakes or signals it.
 * </ul>
 */
final class WaiterNode {
    /** Lent out but not waiting anywhere yet. */
    static final int IDLE = 0;
    /** On a sleeper stack, or being pushed there; only a waker moves it on. */
    static final int SLEEPING = 1;
    /** Popped from the stack by a waker; the owner may run again and reuse or return the node. */
    static final int WOKEN = 2;
    /** On a condition queue, waiting for a signal. */
    static final int CONDITION = 3;
    /** Its condition wait ended by timeout or interrupt before any signal claimed it. */
    static final int CANCELLED = 4;

    private static final VarHandle STATUS;

    static {
        try {
            STATUS = MethodHandles.lookup().findVarHandle(WaiterNode.class, "status", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int id;
    Thread thread;
    WaiterNode next;
    WaiterNode nextWaiter;
    /** Set by the waker before {@link #wake}: the waker also set SPINNING for this waiter. */
    boolean spinGranted;
    private volatile int status;

    WaiterNode(int id) {
        this.id = id;
    }

    int status() {
        return status;
    }

    /** Plain store: the node is not yet visible to anyone; the publishing CAS or lock orders it. */
    void setStatusPlain(int s) {
        STATUS.set(this, s);
    }

    boolean casStatus(int expect, int update) {
        return STATUS.compareAndSet(this, expect, update);
    }

    /**
     * Hands the node back to its owner and unparks it. The thread is read before the release
     * store because once the owner sees {@link #WOKEN} it may return the node to the table and
     * another thread may borrow it; the waker must not touch the node after the store.
     */
    void wake() {
        Thread t = thread;
        STATUS.setRelease(this, WOKEN);
        LockSupport.unpark(t);
    }
}
