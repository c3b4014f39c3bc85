package dev.shuttle.bench.timer;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.PrimaryMetric;
import dev.shuttle.bench.VirtualTasks;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.Spin;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Go's BenchmarkStaggeredTickerLatency (seed 002): tickers with a 3 ms period, started 3 ms / carriers apart, each
 * doing CPU-bound work after every tick. {@code load} is {@code work/tickersPerCarrier}, exactly Go's cases: work
 * 300 µs with 1 to 10 tickers per carrier, and 2 ms with 1 (Go stops where the work would exceed the period). One
 * operation runs every ticker for {@value #TICKS} ticks. Lateness of a tick = wake time minus its due time, due
 * times advancing by the period as Go's {@code expectedWakeup} does. JMH's score is only the operation's length (20
 * periods plus the stagger); the primary metric is the lateness p99.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Fifteen warm-up seconds, not one: on 2 cores a C2 compilation takes a core from a carrier that is busy most of
// the time here, and the tickers it delays come out milliseconds late. Counted per operation (2 ms/1, 2026-11-22):
// 14-16 of Shuttle's operations after the first 20 had a ticker over 3 ms late, all but one while C2 was compiling,
// and the JDK's 10-14, about half of them. Between 20 and 40 s, 2 of Shuttle's 300 operations had a ticker over
// 1.2 ms late (one during a late recompile) and 13 of the JDK's.
// Shuttle's code costs the JIT more (C2 used 674-796 ms against the JDK's 320 ms in operations 20-200), which the
// first seconds of a process pay; docs/design.md, "Known limits", says more. This benchmark is about timers, so it
// waits.
@Warmup(iterations = 15, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
@PrimaryMetric("p99_us")
public class StaggeredTickerLatency extends OnScheduler {
    static final int TICKS = 20;
    static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(3);

    @Param({"300us/1", "300us/2", "300us/3", "300us/4", "300us/5", "300us/6", "300us/7", "300us/8", "300us/9",
            "300us/10", "2ms/1"})
    public String load;

    private long workNanos;
    private int tickers;

    @Override
    protected void afterOpen() {
        String[] parts = load.split("/");
        workNanos = switch (parts[0]) {
            case "300us" -> TimeUnit.MICROSECONDS.toNanos(300);
            case "2ms" -> TimeUnit.MILLISECONDS.toNanos(2);
            default -> throw new IllegalArgumentException("load work must be 300us or 2ms: " + load);
        };
        tickers = schedulers.parallelism() * Integer.parseInt(parts[1]);
    }

    @Benchmark
    public void tick(LatencyStats lateness) throws InterruptedException {
        long stagger = PERIOD_NANOS / schedulers.parallelism();
        Thread driver = tasks.start(() -> {
            Thread[] started = new Thread[tickers];
            for (int i = 0; i < tickers; i++) {
                Spin.forNanos(stagger);
                long firstDue = System.nanoTime() + PERIOD_NANOS;
                started[i] = tasks.start(() -> ticker(firstDue, lateness));
            }
            for (Thread t : started) {
                VirtualTasks.joinUninterruptibly(t);
            }
        });
        tasks.join(driver);
    }

    private void ticker(long firstDue, LatencyStats lateness) {
        long due = firstDue;
        for (int c = 0; c < TICKS; c++) {
            ParallelTimerLatency.sleepUntil(due);
            lateness.record(System.nanoTime() - due);
            due += PERIOD_NANOS;
            Spin.forNanos(workNanos);
        }
    }
}
