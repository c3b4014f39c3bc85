package dev.shuttle.bench.timer;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Go's BenchmarkReset: one pending one-hour timer per caller, reset again and again. Java's timer futures have no
 * reset, so a reset is what Go's does inside: cancel, then arm anew. Score: ns per reset.
 */
public class TimerReset extends TimerBenchmark {
    /** Each calling thread's own timer, like Go's per-goroutine {@code t}. */
    @State(Scope.Thread)
    public static class Pending {
        ScheduledFuture<?> timer;

        @Setup(Level.Trial)
        public void arm(TimerReset bench) {
            timer = bench.timers.schedule(NOTHING, 1, TimeUnit.HOURS);
        }

        @TearDown(Level.Trial)
        public void stop() {
            timer.cancel(false);
        }
    }

    @Benchmark
    public ScheduledFuture<?> reset(Pending pending) {
        pending.timer.cancel(false);
        pending.timer = timers.schedule(NOTHING, 1, TimeUnit.HOURS);
        return pending.timer;
    }
}
