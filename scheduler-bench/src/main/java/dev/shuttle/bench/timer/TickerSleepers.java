package dev.shuttle.bench.timer;

import dev.shuttle.bench.VirtualTasks;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Virtual threads each sleeping 1 ms in a loop, counting their wake-ups and sampling how late each woke (wake time
 * minus sleep start + 1 ms): the load of {@link Tickers} and of {@code dev.shuttle.bench.server.PollerTickersBench},
 * which runs it in a JVM whose network pollers exist.
 *
 * <p>The counting itself must not be what is measured. Each sleeper counts its wake-ups in its own padded slot, and
 * only one wake-up in {@code max(1, threads / 100)} goes into the shared lateness recorder. With a shared counter
 * and every wake-up recorded (a {@code LongAdder} and HdrHistogram's {@code Recorder}: four or five atomic updates of
 * shared cache lines per wake-up, which virtual threads moving between carriers keep bouncing between the two
 * vCPUs), 10,000 sleepers on Shuttle measured 0.94 to 1.74 us of CPU per wake-up from fork to fork, and the slow
 * forks spent three times as long in the recorder.
 *
 * <p>Nor must the JIT's luck. A sleeper's outermost frame lives as long as the sleeper, and one that began in the
 * interpreter stays interpreted until an on-stack replacement happens to catch it; every freeze and thaw of a stack
 * with an interpreted frame takes the continuation's slow path. Slow forks showed that path and the interpreter in
 * their profiles, fast forks did not. So the loop returns every {@value #SLEEPS_PER_CALL} sleeps: the outer frame is
 * thawed once per {@value #SLEEPS_PER_CALL} wake-ups, and the method that sleeps is entered often enough to be
 * compiled like any other.
 *
 * <p>Ownership: sleeper {@code i} alone writes its slot; any thread may read the counts and drain the recorder.
 */
public final class TickerSleepers {
    static final int SLEEPS_PER_CALL = 100;
    private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Longs per sleeper's counter slot: 128 bytes, so that no two sleepers' counters share a cache line. */
    private static final int SLOT = 16;

    private final VirtualTasks tasks;
    private final Thread[] sleepers;
    private final int sampleEvery;
    /** Sleeper i's wake-ups at index i * SLOT; written by that sleeper only. */
    private final AtomicLongArray wakeups;
    private final Recorder lateness = new Recorder(3);
    private volatile boolean running = true;

    /** Starts {@code threads} sleepers through {@code tasks}, whose failures {@link #stop} rethrows. */
    public TickerSleepers(VirtualTasks tasks, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("at least one sleeper: " + threads);
        }
        this.tasks = tasks;
        this.sleepers = new Thread[threads];
        this.sampleEvery = Math.max(1, threads / 100);
        this.wakeups = new AtomicLongArray(threads * SLOT);
        for (int i = 0; i < threads; i++) {
            int slot = i * SLOT;
            sleepers[i] = tasks.start(() -> {
                long count = 0;
                while (running) {
                    count = sleepRepeatedly(slot, count);
                }
            });
        }
    }

    /** Sleeps up to {@link #SLEEPS_PER_CALL} times; returns the sleeper's wake-up count. */
    private long sleepRepeatedly(int slot, long count) {
        try {
            for (int n = 0; n < SLEEPS_PER_CALL && running; n++) {
                long due = System.nanoTime() + SLEEP_NANOS;
                Thread.sleep(1);
                long late = System.nanoTime() - due;
                if (++count % sampleEvery == 0) {
                    lateness.recordValue(Math.max(0, late));
                }
                wakeups.lazySet(slot, count);
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException("nothing interrupts the sleepers", e);
        }
        return count;
    }

    /** The wake-ups of every sleeper so far. */
    public long wakeups() {
        long sum = 0;
        for (int i = 0; i < sleepers.length; i++) {
            sum += wakeups.get(i * SLOT);
        }
        return sum;
    }

    /**
     * The lateness samples (ns) recorded since the previous call, into {@code recycle} when not null (HdrHistogram's
     * {@link Recorder#getIntervalHistogram(Histogram)}); a call before a window drops what came before it.
     */
    public Histogram lateness(Histogram recycle) {
        return lateness.getIntervalHistogram(recycle);
    }

    /** Stops every sleeper, waits for it, and rethrows the first failure of any. */
    public void stop() throws InterruptedException {
        running = false;
        for (Thread t : sleepers) {
            tasks.join(t);
        }
    }
}
