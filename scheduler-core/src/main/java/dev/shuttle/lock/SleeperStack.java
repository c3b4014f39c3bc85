package dev.shuttle.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state word of a {@link SpinBitSynchronizer} and the LIFO stack of sleepers it heads: push,
 * the wake decision (Go's unlock2Wake), and withdrawal of a sleeper that gives up. The acquire
 * and release policy (spinning, sleeping, handoff) lives in the subclass; the layout and every
 * transition are described in the package documentation.
 *
 * <p>Only a holder of STACK_LOCKED pops or relinks nodes, so {@code WaiterNode.next} of a node on
 * the stack needs no atomics: pushers write it before their CAS, the stack-lock holder writes it
 * before the CAS that releases STACK_LOCKED, and readers read it after acquiring STACK_LOCKED.
 */
abstract class SleeperStack {
    static final long LOCK_MASK = 0xFFFFL;
    static final long SPINNING = 1L << 16;
    static final long STACK_LOCKED = 1L << 17;
    static final long HANDOFF = 1L << 18;
    static final long FLAG_MASK = 0xFFFF_FFFFL;
    static final int HEAD_SHIFT = 32;

    static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SleeperStack.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Lock bits, SPINNING, STACK_LOCKED, HANDOFF, and the head sleeper's id in the upper 32 bits. */
    volatile long state;

    SleeperStack() {
    }

    /** Number of sleepers, counted under the stack lock. */
    final int countSleepers() {
        long v = lockStack();
        int n = 0;
        for (WaiterNode p = WaiterTable.get((int) (v >>> HEAD_SHIFT)); p != null; p = p.next) {
            n++;
        }
        unlockStack();
        return n;
    }

    /**
     * Takes a sleeping node off the stack on behalf of its owner, who gave up waiting. Returns
     * true if it was removed; false if a waker had already popped it (the owner then proceeds as
     * woken, since that waker made a promise to it). Either way, releases that found the stack
     * lock taken by us skipped their wake, so we make the wake decision for them.
     */
    final boolean withdraw(WaiterNode node) {
        long v = lockStack();
        boolean removed = false;
        for (;;) {
            WaiterNode head = WaiterTable.get((int) (v >>> HEAD_SHIFT));
            if (head == node) {
                long next = headBits(node.next) | (v & FLAG_MASK & ~STACK_LOCKED);
                long w = (long) STATE.compareAndExchange(this, v, next);
                if (w == v) {
                    removed = true;
                    break;
                }
                v = w;                 // a new sleeper pushed on top of us; look again
                continue;
            }
            for (WaiterNode p = head; p != null; p = p.next) {
                if (p.next == node) {
                    p.next = node.next;
                    removed = true;
                    break;
                }
            }
            unlockStack();
            break;
        }
        if (!removed) {
            while (node.status() != WaiterNode.WOKEN) {
                Thread.onSpinWait();   // the waker is between its CAS and its status store
            }
        }
        node.next = null;
        wakeSleeper(false);
        return removed;
    }

    /**
     * Go's unlock2Wake. Does nothing if a spinner exists (unless waking the oldest), if there are
     * no sleepers, or if someone else holds the stack lock: that holder is a waker who will make
     * this same decision on a fresher word, or a withdrawing waiter who will call us afterwards.
     */
    final void wakeSleeper(boolean antiStarve) {
        long v = state;
        if (!antiStarve && (v & SPINNING) != 0) {
            return;
        }
        for (;;) {
            if ((v >>> HEAD_SHIFT) == 0 || (v & STACK_LOCKED) != 0) {
                return;
            }
            long w = (long) STATE.compareAndExchange(this, v, v | STACK_LOCKED);
            if (w == v) {
                v |= STACK_LOCKED;
                break;
            }
            v = w;
        }
        // We own the stack lock: others may push, but only we may pop or relink.
        WaiterNode committed = null;
        for (;;) {
            WaiterNode head = WaiterTable.get((int) (v >>> HEAD_SHIFT));
            WaiterNode wake = committed;
            if (committed == null) {
                if ((v & SPINNING) == 0) {
                    wake = head;
                }
                if (antiStarve) {
                    WaiterNode prev = head;
                    WaiterNode tail = head;
                    while (tail.next != null) {
                        prev = tail;
                        tail = tail.next;
                    }
                    if (tail != head) {
                        prev.next = null;  // published by the CAS below, read only under the stack lock
                        committed = tail;
                    }
                    wake = tail;
                }
            }
            long headPart = wake == head ? headBits(head.next) : v & ~FLAG_MASK;
            // Hand the spin role to the sleeper we wake if nobody holds it: until that thread
            // runs (microseconds), later releases see a spinner and do not wake a herd.
            boolean grant = wake != null && (v & SPINNING) == 0;
            long flags = (v & FLAG_MASK & ~STACK_LOCKED) | (grant ? SPINNING : 0L);
            long w = (long) STATE.compareAndExchange(this, v, headPart | flags);
            if (w == v) {
                if (wake != null) {
                    wake.spinGranted = grant;
                    wake.wake();
                }
                return;
            }
            v = w;
        }
    }

    /**
     * Pushes a node whose status is already {@link WaiterNode#SLEEPING} while the caller holds
     * the synchronizer, so the holder's release will see it (a condition signal's transfer).
     */
    final void pushSleeper(WaiterNode node) {
        long v = state;
        for (;;) {
            node.next = WaiterTable.get((int) (v >>> HEAD_SHIFT));
            long w = (long) STATE.compareAndExchange(this, v, ((long) node.id << HEAD_SHIFT) | (v & FLAG_MASK));
            if (w == v) {
                return;
            }
            v = w;
        }
    }

    final long lockStack() {
        long v = state;
        for (int spins = 0; ; spins++) {
            if ((v & STACK_LOCKED) == 0) {
                long w = (long) STATE.compareAndExchange(this, v, v | STACK_LOCKED);
                if (w == v) {
                    return v | STACK_LOCKED;
                }
                v = w;
                continue;
            }
            // Held only for a short walk by a waker or a withdrawing waiter, never while parked.
            if ((spins & 63) == 63) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
            v = state;
        }
    }

    final void unlockStack() {
        long v = state;
        for (;;) {
            long w = (long) STATE.compareAndExchange(this, v, v & ~STACK_LOCKED);
            if (w == v) {
                return;
            }
            v = w;
        }
    }

    private static long headBits(WaiterNode n) {
        return n == null ? 0L : (long) n.id << HEAD_SHIFT;
    }
}
