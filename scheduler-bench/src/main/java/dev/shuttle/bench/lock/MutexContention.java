package dev.shuttle.bench.lock;

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
 * Go's BenchmarkMutexContention (runtime_test.go): T threads share one lock guarding one counter
 * and loop lock, count++, unlock until the counter reaches the operation budget. Progress by any
 * thread is progress for the benchmark; fairness is not scored. Reported in ns per lock/unlock,
 * and in process CPU ns per lock/unlock as the secondary result.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class MutexContention {
    static final int OPS = 1 << 20;

    @Param({"spinbit", "reentrant", "synchronized"})
    public String lock;

    @Param({"platform", "virtual"})
    public String kind;

    @Param({"1", "2", "4", "8", "16"})
    public int threads;

    private Mutexes mutex;
    private Workers workers;

    @Setup(Level.Trial)
    public void setUp() {
        mutex = Mutexes.create(lock);
        Mutexes m = mutex;
        workers = new Workers(kind, threads, id -> {
            while (m.increment() < OPS) {
                // the lock and the counter are all the work
            }
        });
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        workers.close();
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public void contention(CpuCounters cpu) throws InterruptedException {
        mutex.reset();
        long c0 = CpuClock.processCpuNanos();
        workers.runRound();
        cpu.add(CpuClock.processCpuNanos() - c0, OPS);
    }
}
