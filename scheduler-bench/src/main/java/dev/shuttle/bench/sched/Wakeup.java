package dev.shuttle.bench.sched;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.Schedulers;
import dev.shuttle.bench.VirtualTasks;
import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.ProcessCpu;
import dev.shuttle.bench.metrics.Signal;
import dev.shuttle.bench.metrics.Spin;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Go's BenchmarkWakeupParallel (seed 001): two virtual threads alternate as sender and receiver; the receiver spins
 * {@code delayUs} then blocks, the sender spins {@code delayUs} + 5 µs then wakes it. One operation is one
 * iteration (each thread sends once and receives once). Secondary {@code cpu_us_per_op}: process CPU per
 * operation, which grows with idle carriers that search for work in vain; the seed measured this as parallelism
 * grows far beyond the cores.
 *
 * <p>{@code parallelism} 0 means one carrier per processor on both sides. Other values need the JDK side forked
 * with the same {@code -Djdk.virtualThreadScheduler.parallelism}: {@code FullRun} and {@code QuickCompare} launch
 * one run per value for that reason, and {@link Schedulers#open} refuses a mismatch.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
@State(Scope.Benchmark)
public class Wakeup {
    static final int ITERATIONS = 1_000;
    private static final long WAKE_DELAY_NANOS = 5_000;

    @Param({Schedulers.JDK, Schedulers.SHUTTLE})
    public String scheduler;

    @Param("0")
    public int parallelism;

    @Param({"0", "20"})
    public int delayUs;

    private Schedulers schedulers;
    private VirtualTasks tasks;

    @Setup(Level.Trial)
    public void open() {
        schedulers = Schedulers.open(scheduler, parallelism);
        tasks = new VirtualTasks(schedulers.ofVirtual().factory());
    }

    @TearDown(Level.Trial)
    public void close() {
        schedulers.close();
    }

    @Benchmark
    @OperationsPerInvocation(ITERATIONS)
    public void pair(CpuStats cpu) throws InterruptedException {
        long delay = TimeUnit.MICROSECONDS.toNanos(delayUs);
        Signal ping = new Signal();
        Signal pong = new Signal();
        Thread first = tasks.newThread(() -> {
            for (int i = 0; i < ITERATIONS; i++) {
                Spin.forNanos(delay + WAKE_DELAY_NANOS);
                ping.send();
                Spin.forNanos(delay);
                pong.await();
            }
        });
        Thread second = tasks.newThread(() -> {
            for (int i = 0; i < ITERATIONS; i++) {
                Spin.forNanos(delay);
                ping.await();
                Spin.forNanos(delay + WAKE_DELAY_NANOS);
                pong.send();
            }
        });
        ping.receiver(second);
        pong.receiver(first);
        long cpu0 = ProcessCpu.nanos();
        long wall0 = System.nanoTime();
        second.start();
        first.start();
        tasks.join(first);
        tasks.join(second);
        cpu.add(ProcessCpu.nanos() - cpu0, System.nanoTime() - wall0, ITERATIONS);
    }
}
