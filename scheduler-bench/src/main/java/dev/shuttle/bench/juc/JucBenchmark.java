package dev.shuttle.bench.juc;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.ProcessCpu;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The settings every {@code juc} benchmark shares (JMH's annotations are inherited; a subclass may override one) and
 * the one way they time a batch of threads, so that CPU per operation means the same in each.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
public abstract class JucBenchmark extends OnScheduler {
    /**
     * Starts {@code threads} in order, joins them all (rethrowing the first failure of any) and adds the process
     * CPU and wall time from the first start to the last join, as {@code ops} operations, to {@code cpu}.
     */
    protected final void runAll(CpuStats cpu, long ops, Thread... threads) throws InterruptedException {
        long cpu0 = ProcessCpu.nanos();
        long wall0 = System.nanoTime();
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            tasks.join(t);
        }
        cpu.add(ProcessCpu.nanos() - cpu0, System.nanoTime() - wall0, ops);
    }
}
