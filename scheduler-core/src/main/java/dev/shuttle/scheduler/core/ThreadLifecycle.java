package dev.shuttle.scheduler.core;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;

/**
 * The virtual threads started on one scheduler and not yet finished, so that {@code close()} can refuse new ones
 * and wait for the rest.
 *
 * <p>Why a set and not a counter: a carrier learns that a thread finished by reading its state after running it,
 * and two carriers can both read {@code TERMINATED} for one thread (the first ran a segment that parked, the thread
 * was resumed and finished on the second before the first looked). Removing from a set is idempotent, so the race
 * costs nothing; a decrement would count the thread twice and let {@code close()} return early.
 *
 * <p>Admission races with closing as a Dekker pair: {@link #admit} adds, then reads {@code closed}; {@link #close}
 * writes {@code closed}, then reads the set. A start that {@code close} does not see has seen {@code closed} and
 * backs out with {@link RejectedExecutionException}.
 */
public final class ThreadLifecycle {
    private final Set<Thread> live = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    void admit(Thread vthread) {
        live.add(vthread);
        if (closed) {
            live.remove(vthread);
            throw new RejectedExecutionException("Shuttle scheduler is closed: cannot start " + vthread);
        }
    }

    void finished(Thread vthread) {
        live.remove(vthread);
    }

    public void close() {
        closed = true;
    }

    public boolean isClosed() {
        return closed;
    }

    public int liveCount() {
        return live.size();
    }

    /** Waits until every admitted thread has finished; returns early, with the flag set, if interrupted. */
    public boolean awaitAll() {
        for (Thread t : live) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            live.remove(t);
        }
        return live.isEmpty() || awaitAll();
    }
}
