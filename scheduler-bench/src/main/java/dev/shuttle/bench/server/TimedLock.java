package dev.shuttle.bench.server;

import dev.shuttle.bench.metrics.Spin;
import java.util.concurrent.locks.Lock;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * A lock endpoint's lock, timing each request's wait for it and hold of it. The end-to-end latency also includes the
 * generator and the OS, so only times taken in the handler say whether a lock endpoint's requests lose their time at
 * the lock. Recording is wait-free ({@link Recorder}: no lock, no allocation once its histograms have grown to the
 * values seen), so timing adds no lock of its own for the requests to queue on.
 */
final class TimedLock {
    private final Lock lock;
    private final Recorder waits = new Recorder(3);
    private final Recorder holds = new Recorder(3);
    /**
     * The histograms of the previous interval, handed back to be recorded into next: fresh ones would have to grow to
     * the values seen again, allocating and locking in the handlers' recording.
     */
    private Histogram lastWaits;
    private Histogram lastHolds;

    TimedLock(Lock lock) {
        this.lock = lock;
    }

    /**
     * Spins for {@code nanos} under the lock. The wait runs from before {@code lock()} to its return, so a waiter that
     * parked counts until its scheduler runs it again; the hold from then to the return of {@code unlock()}.
     */
    void spinUnder(long nanos) {
        long start = System.nanoTime();
        lock.lock();
        long acquired = System.nanoTime();
        try {
            Spin.forNanos(nanos);
        } finally {
            lock.unlock();
        }
        long released = System.nanoTime();
        // After the unlock, so that recording does not lengthen the hold that the other requests wait out.
        waits.recordValue(acquired - start);
        holds.recordValue(released - acquired);
    }

    /** The waits and holds recorded since the previous call (or since this lock was made), which this call resets. */
    synchronized LockTimes interval() {
        lastWaits = waits.getIntervalHistogram(lastWaits);
        lastHolds = holds.getIntervalHistogram(lastHolds);
        return new LockTimes(LockTimes.Distribution.of(lastWaits), LockTimes.Distribution.of(lastHolds));
    }
}
