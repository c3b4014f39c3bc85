package dev.shuttle.bench.timer;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.PrimaryMetric;
import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.ProcessCpu;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code threads} virtual threads each sleeping 1 ms in a loop, started once per trial (PLATFORM.md's "threads
 * sleeping 1 ms" rows). One operation is a {@value #WINDOW_MILLIS} ms observation window; JMH's score is only the
 * window's length, so reports show the secondary results instead: {@code ops_per_s} = wake-ups per second (primary),
 * {@code cpu_us_per_op} = process CPU per wake-up, {@code cores_used}, and lateness percentiles (wake time minus
 * sleep start + 1 ms).
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
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Fifteen warm-up seconds: CPU per wake-up is meant to be the scheduler's, not the JIT's. A carrier loop runs a few
// thousand times a second, so its methods reach C2 late and one by one, and a deoptimisation recompiles a large
// inlined method. Per second, 10 sleepers on Shuttle (2026-11-22): C2 used 83 ms at second 5, 31 at second 7, 70 at
// second 18, against 25-30 ms for the carriers themselves, and the carriers got cheaper until second 10 (40 -> 25 ms);
// on the JDK's scheduler C2 used 69 ms at second 4 and 25 at second 10. With five seconds the measurement (seconds
// 5-11) counted those bursts as CPU per wake-up.
@Warmup(iterations = 15, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
@PrimaryMetric("ops_per_s")
public class Tickers extends OnScheduler {
    static final long WINDOW_MILLIS = 100;
    private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final int SLEEPS_PER_CALL = 100;
    /** Longs per sleeper's counter slot: 128 bytes, so that no two sleepers' counters share a cache line. */
    private static final int SLOT = 16;

    @Param({"10", "1000", "10000"})
    public int threads;

    private Thread[] sleepers;
    private volatile boolean running;
    /** Sleeper i's wake-ups at index i * SLOT; written by that sleeper only. */
    private AtomicLongArray wakeups;
    private int sampleEvery;
    private final Recorder lateness = new Recorder(3);
    private Histogram interval;

    @Override
    protected void afterOpen() {
        running = true;
        sleepers = new Thread[threads];
        wakeups = new AtomicLongArray(threads * SLOT);
        sampleEvery = Math.max(1, threads / 100);
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

    @Setup(Level.Iteration)
    public void dropSamplesBetweenIterations() {
        interval = lateness.getIntervalHistogram(interval);
    }

    @Override
    protected void beforeClose() throws InterruptedException {
        running = false;
        for (Thread t : sleepers) {
            tasks.join(t);
        }
    }

    private long wakeups() {
        long sum = 0;
        for (int i = 0; i < threads; i++) {
            sum += wakeups.get(i * SLOT);
        }
        return sum;
    }

    @Benchmark
    public void window(CpuStats cpu, LatencyStats latency) throws InterruptedException {
        long wake0 = wakeups();
        long cpu0 = ProcessCpu.nanos();
        long wall0 = System.nanoTime();
        Thread.sleep(WINDOW_MILLIS);
        cpu.add(ProcessCpu.nanos() - cpu0, System.nanoTime() - wall0, wakeups() - wake0);
        interval = lateness.getIntervalHistogram(interval);
        latency.add(interval);
        tasks.check();
    }
}
