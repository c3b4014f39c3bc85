package dev.shuttle.timers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * The fields of TimerHeap that other threads touch, split by writer into superclasses with
 * 128 bytes of padding between them (a cache line plus the adjacent line the prefetcher
 * pulls in). The JVM lays out a superclass's fields before its subclass's, so the chain
 * fixes the order; @Contended would need -XX:-RestrictContended on every launch.
 *
 *   lock flag          written by whoever takes the lock: the owner on every scheduling
 *                      round, a stealing carrier now and then
 *   heap earliest      written by the lock holder when the top changes, read by every
 *                      carrier deciding how long it may sleep
 *   inbox, zombies     written by any thread arming or cancelling
 *
 * Keeping the published earliest deadline off the lock's line means the owner's lock/unlock
 * on every round does not invalidate the line other carriers poll.
 */

abstract class TimerHeapPadBeforeLock {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

abstract class TimerHeapLockField extends TimerHeapPadBeforeLock {
    private static final VarHandle LOCKED;

    static {
        try {
            LOCKED = MethodHandles.lookup().findVarHandle(TimerHeapLockField.class, "locked", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile boolean locked;

    /**
     * Test before CAS: a carrier that finds the lock held must not take the line exclusive,
     * which a failing CAS does on x86. The CAS has acquire semantics (it is volatile), so the
     * winner sees every heap write made before the previous holder's release.
     */
    final boolean tryLockField() {
        return !locked && LOCKED.compareAndSet(this, false, true);
    }

    /** Release store: orders the holder's heap writes before the next holder's acquire. */
    final void unlockField() {
        if (!locked) {
            throw new IllegalMonitorStateException("timer heap is not locked");
        }
        LOCKED.setRelease(this, false);
    }

    final boolean isLockedField() {
        return locked;
    }
}

abstract class TimerHeapPadAfterLock extends TimerHeapLockField {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

abstract class TimerHeapPublishedField extends TimerHeapPadAfterLock {
    /**
     * Deadline at the top of the heap as last published by the lock holder, or
     * {@link TimerHeap#NONE}. Volatile rather than release/acquire because the scheduler
     * pairs it with its own sleep flags in Dekker-style handshakes, which need a total order.
     */
    volatile long heapEarliest = TimerHeap.NONE;
}

abstract class TimerHeapPadAfterPublished extends TimerHeapPublishedField {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

abstract class TimerHeapInboxFields extends TimerHeapPadAfterPublished {
    private static final VarHandle INBOX;
    private static final VarHandle INBOX_EARLIEST;
    private static final VarHandle ZOMBIES;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            INBOX = lookup.findVarHandle(TimerHeapInboxFields.class, "inbox", Timer.class);
            INBOX_EARLIEST = lookup.findVarHandle(TimerHeapInboxFields.class, "inboxEarliest", long.class);
            ZOMBIES = lookup.findVarHandle(TimerHeapInboxFields.class, "zombies", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Top of a Treiber stack linked through {@link Timer#nextInInbox}; multi-producer, one consumer (the lock holder). */
    volatile Timer inbox;
    /** Lower bound of the deadlines pushed since the last drain, or {@link TimerHeap#NONE}. */
    volatile long inboxEarliest = TimerHeap.NONE;
    /**
     * Cancelled timers still in the heap or inbox. Incremented by the cancelling thread just
     * after its CAS, decremented by the lock holder when it drops one, so it may be briefly
     * negative; it is only a clean-up heuristic.
     */
    volatile int zombies;

    /**
     * Push, then lower the published bound: never the other way round. A drain resets the
     * bound before it takes the stack, so a bound lowered before our push could be reset
     * while our timer missed that drain, hiding it.
     */
    final void pushInbox(Timer t) {
        Timer head;
        do {
            head = inbox;
            t.nextInInbox = head;
        } while (!INBOX.weakCompareAndSet(this, head, t));
        long d = t.deadline();
        long cur = inboxEarliest;
        while (TimerHeap.isEarlier(d, cur)) {
            long witness = (long) INBOX_EARLIEST.compareAndExchange(this, cur, d);
            if (witness == cur) {
                break;
            }
            cur = witness;
        }
    }

    /**
     * Reset the bound, then take the whole stack (both volatile, in this order). Any push
     * that misses this take lands after the reset and lowers the bound again itself.
     * The drained timers are invisible to {@link TimerHeap#earliestDeadline()} until the
     * lock holder republishes the heap's top; that window is the drainer's own (it is awake
     * and will fire them), no timer is lost.
     */
    final Timer takeInbox() {
        // Reset even when the stack looks empty: a push whose timer an earlier drain took
        // may have lowered the bound afterwards, and a stale bound left in the past would
        // make the owner wake up over and over.
        if (inboxEarliest != TimerHeap.NONE) {
            inboxEarliest = TimerHeap.NONE;
        }
        if (inbox == null) {
            return null;
        }
        return (Timer) INBOX.getAndSet(this, (Timer) null);
    }

    final void zombieCreated() {
        ZOMBIES.getAndAdd(this, 1);
    }

    final void zombiesDropped(int n) {
        if (n != 0) {
            ZOMBIES.getAndAdd(this, -n);
        }
    }
}

abstract class TimerHeapPadAfterInbox extends TimerHeapInboxFields {
    long p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
}
