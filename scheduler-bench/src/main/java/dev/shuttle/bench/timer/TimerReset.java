package dev.shuttle.bench.timer;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Go's BenchmarkReset: one pending one-hour timer per caller, reset again and again. Java's timer futures have no
 * reset, so a reset is what Go's does inside: cancel, then arm anew. Score: ns per reset.
 */
public class TimerReset extends TimerBenchmark {
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void reset(Caller caller) throws InterruptedException {
        onVirtualThread(pool -> {
            ScheduledFuture<?> timer = pool.schedule(NOTHING, 1, TimeUnit.HOURS);
            for (int i = 0; i < BATCH; i++) {
                timer.cancel(false);
                timer = pool.schedule(NOTHING, 1, TimeUnit.HOURS);
            }
            timer.cancel(false);
        });
    }
}
