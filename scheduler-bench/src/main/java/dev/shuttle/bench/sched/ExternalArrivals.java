package dev.shuttle.bench.sched;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.PrimaryMetric;
import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.ProcessCpu;
import dev.shuttle.bench.metrics.Spin;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Requests arriving one at a time from a platform thread, as a server's dispatcher thread starts a virtual thread per
 * request (the JDK's {@code HttpServer} with a virtual-thread executor): the benchmark thread starts a virtual thread
 * that computes {@value #WORK_NANOS} ns and ends, sleeps {@code gapUs}, and starts the next. With gaps this long the
 * carriers are parked when a thread arrives, so each arrival pays the scheduler's wake-up path from outside: the
 * unpark of a carrier, its search, and whatever else it wakes. Primary {@code cpu_us_per_op}: process CPU per
 * arrival, the submitter's own sleeps included (the same on both sides); secondary the delay from {@code start()} to
 * the thread's first instruction.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
@PrimaryMetric("cpu_us_per_op")
public class ExternalArrivals extends OnScheduler {
    static final int ARRIVALS = 200;
    static final long WORK_NANOS = 5_000;

    @Param({"50", "200"})
    public int gapUs;

    @Benchmark
    @OperationsPerInvocation(ARRIVALS)
    public void arrivals(CpuStats cpu, LatencyStats startDelay) throws InterruptedException {
        long gap = TimeUnit.MICROSECONDS.toNanos(gapUs);
        Thread[] threads = new Thread[ARRIVALS];
        long cpu0 = ProcessCpu.nanos();
        long wall0 = System.nanoTime();
        for (int i = 0; i < ARRIVALS; i++) {
            long started = System.nanoTime();
            threads[i] = tasks.start(() -> {
                startDelay.record(System.nanoTime() - started);
                Spin.forNanos(WORK_NANOS);
            });
            LockSupport.parkNanos(gap);
        }
        for (Thread t : threads) {
            tasks.join(t);
        }
        cpu.add(ProcessCpu.nanos() - cpu0, System.nanoTime() - wall0, ARRIVALS);
    }
}
