package dev.shuttle.bench.timer;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;

/** Go's BenchmarkStop: arm a one-second timer and cancel it at once. Score: ns per arm + cancel. */
public class TimerStop extends TimerBenchmark {
    @Benchmark
    public boolean armAndCancel() {
        return timers.schedule(NOTHING, 1, TimeUnit.SECONDS).cancel(false);
    }
}
