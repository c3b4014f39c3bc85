package dev.shuttle.bench.sched;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.Signal;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Two virtual threads hand a turn back and forth with park/unpark: A passes to B, B passes back. Primary score:
 * mean round trip; secondary: round-trip percentiles, each round trip timed by A. Each invocation starts a fresh
 * pair for {@value #ROUND_TRIPS} round trips, so thread start-up is amortised and no state leaks between calls.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
public class PingPong extends OnScheduler {
    static final int ROUND_TRIPS = 1_000;

    private final Histogram roundTrips = new Histogram(3);

    @Benchmark
    @OperationsPerInvocation(ROUND_TRIPS)
    public void roundTrip(LatencyStats latency) throws InterruptedException {
        Signal ping = new Signal();
        Signal pong = new Signal();
        Thread b = tasks.newThread(() -> {
            for (int i = 0; i < ROUND_TRIPS; i++) {
                ping.await();
                pong.send();
            }
        });
        Thread a = tasks.newThread(() -> {
            for (int i = 0; i < ROUND_TRIPS; i++) {
                long start = System.nanoTime();
                ping.send();
                pong.await();
                roundTrips.recordValue(System.nanoTime() - start);
            }
        });
        ping.receiver(b);
        pong.receiver(a);
        b.start();
        a.start();
        tasks.join(a);
        tasks.join(b);
        if (ping.sent() != ROUND_TRIPS || pong.sent() != ROUND_TRIPS) {
            throw new AssertionError("turns did not alternate: ping " + ping.sent() + ", pong " + pong.sent());
        }
        latency.add(roundTrips); // a's writes are visible here: a.join() happens-before
        roundTrips.reset();
    }
}
