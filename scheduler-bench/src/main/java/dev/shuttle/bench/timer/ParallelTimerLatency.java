package dev.shuttle.bench.timer;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.VirtualTasks;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.Spin;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Go's BenchmarkParallelTimerLatency (seed 002). One round: a driver virtual thread starts one timer thread per
 * other carrier and then spins, keeping its own carrier busy; each timer thread takes its deadline (now + 1 ms),
 * parks until then and records its lateness (wake time minus deadline), then spins until every timer of the round
 * fired, as Go's AfterFunc callbacks do. The driver waits for the timer threads to end and spins 1 ms more so carriers go idle before the next round, so
 * every timer must wake an idle carrier. Secondary results: lateness percentiles ({@code mean_us} is Go's
 * avg-late-ns, {@code max_us} its max-late-ns). Needs at least 2 carriers, as Go's needs GOMAXPROCS 2.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
public class ParallelTimerLatency extends OnScheduler {
    static final long DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long ROUND_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private int timerCount;
    private final AtomicInteger fired = new AtomicInteger();

    @Override
    protected void afterOpen() {
        if (schedulers.parallelism() < 2) {
            throw new IllegalStateException("ParallelTimerLatency needs at least 2 carriers");
        }
        timerCount = schedulers.parallelism() - 1;
    }

    @Benchmark
    public void round(LatencyStats lateness) throws InterruptedException {
        Runnable timer = () -> {
            long deadline = System.nanoTime() + DELAY_NANOS;
            sleepUntil(deadline);
            lateness.record(System.nanoTime() - deadline);
            fired.incrementAndGet();
            Spin.until(this::allFired, ROUND_TIMEOUT_NANOS, "the other timers of the round");
        };
        Thread driver = tasks.start(() -> {
            fired.set(0);
            Thread[] timers = new Thread[timerCount];
            for (int i = 0; i < timerCount; i++) {
                timers[i] = tasks.start(timer);
            }
            Spin.until(this::allFired, ROUND_TIMEOUT_NANOS, "the round's timers to fire");
            // Go's wg.Wait: no timer of this round may still be running when the next round resets the count.
            for (Thread t : timers) {
                VirtualTasks.joinUninterruptibly(t);
            }
            Spin.forNanos(DELAY_NANOS);
        });
        tasks.join(driver);
    }

    private boolean allFired() {
        return fired.get() >= timerCount;
    }

    /** Parks until {@code deadline}; parkNanos may return early, so park again for what remains. */
    static void sleepUntil(long deadline) {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remaining);
        }
    }
}
