package dev.shuttle.bench.timer;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Go's BenchmarkSleep1000: start {@value #THREADS} virtual threads that each sleep one nanosecond (a timed park
 * through the scheduler's timer path) and wait for all of them. Score: µs per batch of {@value #THREADS}, as Go
 * reports it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
public class Sleep extends OnScheduler {
    static final int THREADS = 1_000;


    @Benchmark
    public void sleep1000() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(THREADS);
        Runnable sleeper = () -> {
            try {
                Thread.sleep(0, 1);
            } catch (InterruptedException e) {
                throw new IllegalStateException("nothing interrupts the sleepers", e);
            } finally {
                done.countDown();
            }
        };
        for (int i = 0; i < THREADS; i++) {
            tasks.start(sleeper);
        }
        done.await();
        tasks.check();
    }
}
