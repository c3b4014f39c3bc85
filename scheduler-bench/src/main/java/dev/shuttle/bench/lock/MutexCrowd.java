package dev.shuttle.bench.lock;

import dev.shuttle.bench.metrics.CpuStats;
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

import java.util.concurrent.TimeUnit;

/**
 * {@link MutexContention}'s loop with more contenders than it sweeps: 32 or 64 virtual threads,
 * alone or beside 16 platform threads on the same lock. Far more waiters than cores is where a
 * lock's waiting policy decides what the process burns; the scores are ns and process CPU per
 * lock/unlock, as in MutexContention.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class MutexCrowd {
    @Param({"spinbit", "reentrant"})
    public String lock;

    @Param({"32", "64"})
    public int virtual;

    @Param({"0", "16"})
    public int platform;

    private Mutexes mutex;
    private Workers workers;

    @Setup(Level.Trial)
    public void setUp() {
        mutex = Mutexes.create(lock);
        workers = new Workers(platform, virtual, MutexContention.countTo(mutex));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        workers.close();
    }

    @Benchmark
    @OperationsPerInvocation(MutexContention.OPS)
    public void crowd(CpuStats cpu) throws InterruptedException {
        MutexContention.round(mutex, workers, cpu);
    }
}
