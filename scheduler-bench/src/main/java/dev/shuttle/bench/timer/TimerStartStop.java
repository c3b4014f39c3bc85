package dev.shuttle.bench.timer;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Go's BenchmarkStartStop1000: arm {@value #TIMERS} one-hour timers, then cancel them all, so the heap grows to
 * {@value #TIMERS} entries before it shrinks. Score: ns per batch of {@value #TIMERS}, as Go reports it.
 */
public class TimerStartStop extends TimerBenchmark {
    static final int TIMERS = 1_000;

    /** Each calling thread's batch, reused so the measured loop allocates only what the timer service does. */
    @State(Scope.Thread)
    public static class Batch {
        final ScheduledFuture<?>[] timers = new ScheduledFuture<?>[TIMERS];
    }

    @Benchmark
    public void startStop1000(Batch batch) {
        ScheduledFuture<?>[] armed = batch.timers;
        for (int i = 0; i < TIMERS; i++) {
            armed[i] = timers.schedule(NOTHING, 1, TimeUnit.HOURS);
        }
        for (int i = 0; i < TIMERS; i++) {
            armed[i].cancel(false);
            armed[i] = null;
        }
    }
}
