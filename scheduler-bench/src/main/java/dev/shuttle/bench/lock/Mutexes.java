package dev.shuttle.bench.lock;

import dev.shuttle.lock.SpinBitLock;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The locks under comparison, behind one small interface so that a benchmark loop is the same
 * for all of them. Each forked run uses one implementation, so the call site stays monomorphic
 * and the JIT inlines the lock operations into the loop.
 */
abstract class Mutexes {
    /** Leading padding so the lock's word shares no cache line with the counter (Go pads too). */
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    /** Takes the lock, increments the counter it guards, releases; returns the new count. */
    abstract long increment();

    /** Takes the lock (for the handoff benchmark, which needs lock and unlock apart). */
    abstract void lock();

    abstract void unlock();

    /** Whether a thread sleeps (or is queued) waiting for the lock: Go's MutexContended. */
    abstract boolean contended();

    /** Resets the guarded counter; only called while no worker runs. */
    abstract void reset();

    static Mutexes create(String kind) {
        return switch (kind) {
            case "spinbit" -> {
                SpinBitLock lock = new SpinBitLock();
                yield new Explicit(lock, lock::hasQueuedThreads);
            }
            case "reentrant" -> {
                ReentrantLock lock = new ReentrantLock();
                yield new Explicit(lock, lock::hasQueuedThreads);
            }
            case "synchronized" -> new Monitor();
            default -> throw new IllegalArgumentException("unknown lock: " + kind);
        };
    }

    /** A counter on its own cache lines: the lock protects it, the padding keeps it apart. */
    static final class Counter {
        long p00, p01, p02, p03, p04, p05, p06, p07;
        long count;
        long q00, q01, q02, q03, q04, q05, q06, q07;
    }

    /**
     * A {@link Lock} guarding the counter: {@link SpinBitLock} or {@link ReentrantLock}. One class for both keeps the
     * loops identical; the field's type is the interface, but each fork loads one implementation, so the JIT sees one
     * receiver type and inlines it.
     */
    static final class Explicit extends Mutexes {
        final Lock lock;
        final BooleanSupplier queued;
        final Counter c = new Counter();

        Explicit(Lock lock, BooleanSupplier queued) {
            this.lock = lock;
            this.queued = queued;
        }

        @Override
        long increment() {
            lock.lock();
            long ours = ++c.count;
            lock.unlock();
            return ours;
        }

        @Override
        void lock() {
            lock.lock();
        }

        @Override
        void unlock() {
            lock.unlock();
        }

        @Override
        boolean contended() {
            return queued.getAsBoolean();
        }

        @Override
        void reset() {
            c.count = 0;
        }
    }

    static final class Monitor extends Mutexes {
        final Object monitor = new Object();
        final Counter c = new Counter();

        @Override
        long increment() {
            synchronized (monitor) {
                return ++c.count;
            }
        }

        @Override
        void lock() {
            throw new UnsupportedOperationException("a monitor cannot be entered and exited apart");
        }

        @Override
        void unlock() {
            throw new UnsupportedOperationException("a monitor cannot be entered and exited apart");
        }

        @Override
        boolean contended() {
            throw new UnsupportedOperationException();
        }

        @Override
        void reset() {
            synchronized (monitor) {
                c.count = 0;
            }
        }
    }
}
