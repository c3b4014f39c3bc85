package dev.shuttle.bench.lock;

import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.ProcessCpu;
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
import java.util.function.IntConsumer;

/**
 * Go's BenchmarkMutexContention (runtime_test.go): T threads share one lock guarding one counter
 * and loop lock, count++, unlock until the counter reaches the operation budget. Progress by any
 * thread is progress for the benchmark; fairness is not scored. Reported in ns per lock/unlock,
 * and as secondary results the process's CPU per lock/unlock ({@code cpu_us_per_op}) and the
 * cores it kept busy ({@code cores_used}): what the waiters burn while the lock is taken.
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
        workers = new Workers(kind, threads, countTo(mutex));
    }

    /** The workers' loop: take the lock and count until the budget is spent. */
    static IntConsumer countTo(Mutexes m) {
        return id -> {
            while (m.increment() < OPS) {
                // the lock and the counter are all the work
            }
        };
    }

    /** One round of {@link #OPS} lock/unlocks by all workers, with the process's CPU and wall time. */
    static void round(Mutexes mutex, Workers workers, CpuStats cpu) throws InterruptedException {
        mutex.reset();
        long c0 = ProcessCpu.nanos();
        long w0 = System.nanoTime();
        workers.runRound();
        cpu.add(ProcessCpu.nanos() - c0, System.nanoTime() - w0, OPS);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        workers.close();
    }

    @Benchmark
    @OperationsPerInvocation(OPS)
    public void contention(CpuStats cpu) throws InterruptedException {
        round(mutex, workers, cpu);
    }
}
