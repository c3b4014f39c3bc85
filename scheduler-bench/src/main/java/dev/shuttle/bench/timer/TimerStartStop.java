package dev.shuttle.bench.timer;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Go's BenchmarkStartStop1000: arm {@value #TIMERS} one-hour timers, then cancel them all, so the timer queue grows to
 * {@value #TIMERS} entries before it shrinks. Score: ns per batch of {@value #TIMERS}, as Go reports it.
 */
public class TimerStartStop extends TimerBenchmark {
    static final int TIMERS = BATCH;

    /** Each calling thread's batch, reused so the measured loop allocates only what the timer path does. */
    @State(Scope.Thread)
    public static class Batch {
        final ScheduledFuture<?>[] timers = new ScheduledFuture<?>[TIMERS];
    }

    @Benchmark
    public void startStop1000(Caller caller, Batch batch) throws InterruptedException {
        ScheduledFuture<?>[] armed = batch.timers;
        onVirtualThread(pool -> {
            for (int i = 0; i < TIMERS; i++) {
                armed[i] = pool.schedule(NOTHING, 1, TimeUnit.HOURS);
            }
            for (int i = 0; i < TIMERS; i++) {
                armed[i].cancel(false);
                armed[i] = null;
            }
        });
    }
}
