package dev.shuttle.lock;

import java.util.Date;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link Condition} of a {@link SpinBitSynchronizer}.
 *
 * <p>The wait queue is FIFO, linked through {@link WaiterNode#nextWaiter}, and guarded by the
 * synchronizer itself: only its holder enqueues (await) or dequeues (signal, and a cancelled
 * waiter after it has reacquired), so the queue needs no atomics.
 *
 * <p>A signal does not unpark the waiter, which would only find the lock held by the signaller
 * and go back to sleep. It moves the node straight onto the synchronizer's sleeper stack (status
 * CONDITION to SLEEPING by CAS, then a push while the signaller still holds the lock), so the
 * waiter is woken once, by a release, like any other sleeper. The status CAS is what closes the
 * race with a waiter that times out or is interrupted at the same moment: whoever moves the
 * status off CONDITION first decides whether the wait was signalled or cancelled.
 */
public final class SpinBitCondition implements Condition {
    private final SpinBitSynchronizer sync;
    private WaiterNode first;                   // guarded by sync
    private WaiterNode last;                    // guarded by sync

    SpinBitCondition(SpinBitSynchronizer sync) {
        this.sync = sync;
    }

    @Override
    public void await() throws InterruptedException {
        doAwait(true, false, 0L);
    }

    @Override
    public void awaitUninterruptibly() {
        try {
            doAwait(false, false, 0L);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public long awaitNanos(long nanosTimeout) throws InterruptedException {
        long deadline = deadlineAfter(nanosTimeout);
        doAwait(true, true, deadline);
        return deadline - System.nanoTime();
    }

    @Override
    public boolean await(long time, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        return doAwait(true, true, deadlineAfter(unit.toNanos(time)));
    }

    @Override
    public boolean awaitUntil(Date deadline) throws InterruptedException {
        Objects.requireNonNull(deadline, "deadline");
        long ms = deadline.getTime() - System.currentTimeMillis();
        return doAwait(true, true, deadlineAfter(TimeUnit.MILLISECONDS.toNanos(ms)));
    }

    @Override
    public void signal() {
        checkHeld();
        for (WaiterNode n = first; n != null; n = first) {
            dequeueFirst(n);
            if (transfer(n)) {
                return;
            }
        }
    }

    @Override
    public void signalAll() {
        checkHeld();
        for (WaiterNode n = first; n != null; n = first) {
            dequeueFirst(n);
            transfer(n);
        }
    }

    /**
     * Whether any thread waits on this condition; the caller must hold the lock.
     *
     * @return whether any thread waits on this condition
     */
    public boolean hasWaiters() {
        checkHeld();
        for (WaiterNode n = first; n != null; n = n.nextWaiter) {
            if (n.status() == WaiterNode.CONDITION) {
                return true;
            }
        }
        return false;
    }

    private static long deadlineAfter(long nanos) {
        long now = System.nanoTime();
        // Clamp so that a huge timeout does not overflow into the past.
        return nanos > Long.MAX_VALUE / 2 ? now + Long.MAX_VALUE / 2 : now + nanos;
    }

    private void checkHeld() {
        if (!sync.isHeldExclusively()) {
            throw new IllegalMonitorStateException("condition used by a thread that does not hold its lock");
        }
    }

    private boolean transfer(WaiterNode n) {
        if (!n.casStatus(WaiterNode.CONDITION, WaiterNode.SLEEPING)) {
            return false;                        // cancelled; its owner will look for it and not find it
        }
        sync.push(n);                            // we hold the lock: our release will see it
        return true;
    }

    private void dequeueFirst(WaiterNode n) {
        first = n.nextWaiter;
        if (first == null) {
            last = null;
        }
        n.nextWaiter = null;
    }

    private void unlinkCancelled(WaiterNode node) {
        WaiterNode prev = null;
        for (WaiterNode p = first; p != null; prev = p, p = p.nextWaiter) {
            if (p == node) {
                WaiterNode next = p.nextWaiter;
                if (prev == null) {
                    first = next;
                } else {
                    prev.nextWaiter = next;
                }
                if (last == node) {
                    last = prev;
                }
                node.nextWaiter = null;
                return;
            }
        }
    }

    /** Returns false if the wait timed out before a signal claimed it. */
    private boolean doAwait(boolean interruptible, boolean timed, long deadline) throws InterruptedException {
        checkHeld();
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException();
        }
        WaiterNode node = new WaiterNode(Thread.currentThread(), WaiterNode.CONDITION);
        if (last == null) {
            first = node;
        } else {
            last.nextWaiter = node;
        }
        last = node;
        long saved = sync.saveForWait();
        sync.releaseForWait();

        boolean interrupted = false;
        boolean cancelled = false;
        boolean cancelledByInterrupt = false;
        while (node.status() == WaiterNode.CONDITION) {
            if (timed) {
                long rem = deadline - System.nanoTime();
                if (rem <= 0L) {
                    if (node.casStatus(WaiterNode.CONDITION, WaiterNode.CANCELLED)) {
                        cancelled = true;
                        break;
                    }
                    continue;
                }
                LockSupport.parkNanos(this, rem);
            } else {
                LockSupport.park(this);
            }
            if (Thread.interrupted()) {
                interrupted = true;
                if (interruptible && node.casStatus(WaiterNode.CONDITION, WaiterNode.CANCELLED)) {
                    cancelled = true;
                    cancelledByInterrupt = true;
                    break;
                }
            }
        }

        if (cancelled) {
            sync.acquire();
            unlinkCancelled(node);
        } else {
            // Signalled: the node is on the sleeper stack; wait for a release to wake it.
            while (node.status() == WaiterNode.SLEEPING) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
            sync.acquireSlow(node, false, false, 0L);
        }
        sync.restoreAfterWait(saved);
        if (cancelledByInterrupt) {
            Thread.interrupted();                // an exception reports it; a signal did not consume the wait
            throw new InterruptedException();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();  // interrupted after the signal: keep the status, as AQS does
        }
        return !cancelled;
    }
}
