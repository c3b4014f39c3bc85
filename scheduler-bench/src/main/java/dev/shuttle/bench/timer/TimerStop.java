package dev.shuttle.bench.timer;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Go's BenchmarkStop: arm a one-second timer and cancel it at once, what a timed park that ends early costs the
 * timer path. Score: ns per arm + cancel.
 */
public class TimerStop extends TimerBenchmark {
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void armAndCancel(Caller caller) throws InterruptedException {
        onVirtualThread(pool -> {
            for (int i = 0; i < BATCH; i++) {
                pool.schedule(NOTHING, 1, TimeUnit.SECONDS).cancel(false);
            }
        });
    }
}
