package dev.shuttle.bench.timer;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.ProcessCpu;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
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
 * sleeping 1 ms" rows). One operation is a {@value #WINDOW_MILLIS} ms observation window; the primary score is
 * only the window's length. Read the secondary results: {@code ops_per_s} = wake-ups per second,
 * {@code cpu_us_per_op} = process CPU per wake-up, {@code cores_used}, and lateness percentiles (wake time minus
 * sleep start + 1 ms).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Five warm-up seconds, not two: with 10 sleepers the JIT's compiler threads still used 6-12 ms of CPU per second
// in the first measurement seconds and about 2 ms/s ten seconds later, while the whole process used 60-130 ms/s.
// CPU per wake-up is meant to be the scheduler's, not the JIT's.
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
public class Tickers extends OnScheduler {
    static final long WINDOW_MILLIS = 100;
    private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    @Param({"10", "1000", "10000"})
    public int threads;

    private Thread[] sleepers;
    private volatile boolean running;
    private final LongAdder wakeups = new LongAdder();
    private final Recorder lateness = new Recorder(3);
    private Histogram interval;

    @Override
    protected void afterOpen() {
        running = true;
        sleepers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            sleepers[i] = tasks.start(this::sleepLoop);
        }
    }

    private void sleepLoop() {
        try {
            while (running) {
                long due = System.nanoTime() + SLEEP_NANOS;
                Thread.sleep(1);
                lateness.recordValue(Math.max(0, System.nanoTime() - due));
                wakeups.increment();
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException("nothing interrupts the sleepers", e);
        }
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

    @Benchmark
    public void window(CpuStats cpu, LatencyStats latency) throws InterruptedException {
        long wake0 = wakeups.sum();
        long cpu0 = ProcessCpu.nanos();
        long wall0 = System.nanoTime();
        Thread.sleep(WINDOW_MILLIS);
        cpu.add(ProcessCpu.nanos() - cpu0, System.nanoTime() - wall0, wakeups.sum() - wake0);
        interval = lateness.getIntervalHistogram(interval);
        latency.add(interval);
        tasks.check();
    }
}
