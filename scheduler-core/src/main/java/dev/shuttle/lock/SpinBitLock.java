package dev.shuttle.lock;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/**
 * A reentrant mutual-exclusion lock with {@link java.util.concurrent.locks.ReentrantLock}'s
 * non-fair semantics and Go's spin-bit waiting: one waiter spins, the rest sleep on a LIFO stack,
 * an unlock skips the wake-up while a spinner exists, and the oldest sleeper is woken
 * periodically. Works for platform and virtual threads on any scheduler.
 *
 * <p>Not fair: an arriving thread may take the lock ahead of waiters, which is where the speed
 * under contention comes from. Waiting time is bounded by the periodic tail wake, not ordered.
 */
public class SpinBitLock implements Lock {
    private final Sync sync = new Sync();

    /** Lock bits: 0 free, 1 held. Owner and hold count live outside the atomic fields. */
    static final class Sync extends SpinBitSynchronizer {
        private static final int HELD = 1;

        /** Written by the holder only; published to the next holder by the release's volatile store. */
        Thread owner;
        int holds;

        @Override
        protected int tryAcquireBits(int bits) {
            return bits == 0 ? HELD : FAILED;
        }

        @Override
        protected boolean isHeldExclusively() {
            return owner == Thread.currentThread();
        }

        @Override
        protected long saveForWait() {
            long h = holds;
            holds = 0;
            owner = null;
            return h;
        }

        @Override
        protected void restoreAfterWait(long saved) {
            owner = Thread.currentThread();
            holds = (int) saved;
        }

        boolean reenter(Thread t) {
            if (owner != t) {
                return false;
            }
            if (holds == Integer.MAX_VALUE) {
                throw new Error("Maximum lock count exceeded");
            }
            holds++;
            return true;
        }

        void own(Thread t) {
            owner = t;
            holds = 1;
        }
    }

    /** Creates an unlocked lock. */
    public SpinBitLock() {
    }

    @Override
    public void lock() {
        Thread t = Thread.currentThread();
        if (!sync.tryAcquire()) {
            if (sync.reenter(t)) {
                return;
            }
            sync.acquire();
        }
        sync.own(t);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        Thread t = Thread.currentThread();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!sync.tryAcquire()) {
            if (sync.reenter(t)) {
                return;
            }
            sync.acquireInterruptibly();
        }
        sync.own(t);
    }

    @Override
    public boolean tryLock() {
        Thread t = Thread.currentThread();
        if (sync.tryAcquire()) {
            sync.own(t);
            return true;
        }
        return sync.reenter(t);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        Thread t = Thread.currentThread();
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (sync.tryAcquire()) {
            sync.own(t);
            return true;
        }
        if (sync.reenter(t)) {
            return true;
        }
        if (!sync.tryAcquireNanos(unit.toNanos(time))) {
            return false;
        }
        sync.own(t);
        return true;
    }

    /** @throws IllegalMonitorStateException if the current thread does not hold this lock */
    @Override
    public void unlock() {
        if (sync.owner != Thread.currentThread()) {
            throw new IllegalMonitorStateException("unlock by a thread that does not hold the lock");
        }
        if (--sync.holds == 0) {
            sync.owner = null;
            sync.release(Sync.HELD);
        }
    }

    @Override
    public SpinBitCondition newCondition() {
        return sync.newCondition();
    }

    /**
     * Whether the current thread holds this lock.
     *
     * @return whether the current thread holds this lock
     */
    public boolean isHeldByCurrentThread() {
        return sync.owner == Thread.currentThread();
    }

    /**
     * Holds by the current thread, 0 if it does not hold the lock.
     *
     * @return the current thread's holds, 0 if it does not hold the lock
     */
    public int getHoldCount() {
        return isHeldByCurrentThread() ? sync.holds : 0;
    }

    /**
     * Whether any thread holds the lock. A snapshot, for monitoring.
     *
     * @return whether any thread holds the lock
     */
    public boolean isLocked() {
        return sync.lockBits() != 0;
    }

    /**
     * Whether some thread sleeps waiting for this lock (Go's mutexContended). A snapshot.
     *
     * @return whether some thread sleeps waiting for this lock
     */
    public boolean hasQueuedThreads() {
        return sync.hasSleepers();
    }

    /** Whether a waiter currently holds the spin role. A snapshot, for this package's tests. */
    boolean hasSpinner() {
        return sync.hasSpinner();
    }

    /**
     * Number of sleeping waiters. Walks the sleeper stack; a snapshot, for monitoring only.
     *
     * @return the number of sleeping waiters
     */
    public int getQueueLength() {
        return sync.sleeperCount();
    }

    @Override
    public String toString() {
        Thread o = sync.owner;
        return super.toString() + (o == null ? "[Unlocked]" : "[Locked by thread " + o.getName() + "]");
    }
}
