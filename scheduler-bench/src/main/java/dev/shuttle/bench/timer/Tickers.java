package dev.shuttle.bench.timer;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.PrimaryMetric;
import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.ProcessCpu;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
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
 * {@code threads} virtual threads each sleeping 1 ms in a loop ({@link TickerSleepers}), started once per trial
 * (PLATFORM.md's "threads sleeping 1 ms" rows). One operation is a {@value #WINDOW_MILLIS} ms observation window;
 * JMH's score is only the window's length, so reports show the secondary results instead: {@code ops_per_s} =
 * wake-ups per second (primary), {@code cpu_us_per_op} = process CPU per wake-up, {@code cores_used}, and lateness
 * percentiles (wake time minus sleep start + 1 ms). {@link TickerSleepers} says how the counting and the JIT are kept
 * out of what is measured.
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

    @Param({"10", "1000", "10000"})
    public int threads;

    private TickerSleepers sleepers;
    private Histogram interval;

    @Override
    protected void afterOpen() {
        sleepers = new TickerSleepers(tasks, threads);
    }

    @Setup(Level.Iteration)
    public void dropSamplesBetweenIterations() {
        interval = sleepers.lateness(interval);
    }

    @Override
    protected void beforeClose() throws InterruptedException {
        sleepers.stop();
    }

    @Benchmark
    public void window(CpuStats cpu, LatencyStats latency) throws InterruptedException {
        long wake0 = sleepers.wakeups();
        long cpu0 = ProcessCpu.nanos();
        long wall0 = System.nanoTime();
        Thread.sleep(WINDOW_MILLIS);
        cpu.add(ProcessCpu.nanos() - cpu0, System.nanoTime() - wall0, sleepers.wakeups() - wake0);
        interval = sleepers.lateness(interval);
        latency.add(interval);
        tasks.check();
    }
}
