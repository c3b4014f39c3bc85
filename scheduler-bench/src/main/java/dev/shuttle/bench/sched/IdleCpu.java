package dev.shuttle.bench.sched;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.PrimaryMetric;
import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.ProcessCpu;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a scheduler burns when there is nothing to do. Each operation wakes every carrier with a burst of short
 * virtual threads, lets the burst drain and the carriers settle ({@value #SETTLE_MILLIS} ms, not measured), then
 * measures the process's CPU over {@value #IDLE_MILLIS} ms in which no virtual thread exists. Secondary
 * {@code cores_used} (the primary metric; JMH's score is only the operation's length) is that CPU over the idle wall time: the fraction of a core the idle process used, JVM
 * housekeeping included (the same on both sides).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1, time = 1)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
@PrimaryMetric("cores_used")
public class IdleCpu extends OnScheduler {
    static final int BURST = 1_000;
    static final long SETTLE_MILLIS = 50;
    static final long IDLE_MILLIS = 200;


    @Benchmark
    public void idleAfterBurst(CpuStats cpu) throws InterruptedException {
        Thread[] burst = new Thread[BURST];
        for (int i = 0; i < BURST; i++) {
            burst[i] = tasks.start(Thread::onSpinWait);
        }
        for (Thread t : burst) {
            tasks.join(t);
        }
        Thread.sleep(SETTLE_MILLIS);
        long cpu0 = ProcessCpu.nanos();
        long wall0 = System.nanoTime();
        Thread.sleep(IDLE_MILLIS);
        cpu.add(ProcessCpu.nanos() - cpu0, System.nanoTime() - wall0, 1);
    }
}
