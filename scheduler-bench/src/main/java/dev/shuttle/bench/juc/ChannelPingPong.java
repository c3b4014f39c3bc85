package dev.shuttle.bench.juc;

import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * Two virtual threads hand a token back and forth through two {@link Channel}s of the {@code channel} kind: A sends
 * on the first and receives on the second, B the reverse. Primary score: mean round trip (two hand-offs);
 * secondary: round-trip percentiles timed by A, and process CPU per round trip. Each invocation starts a fresh pair
 * for {@value #ROUND_TRIPS} round trips, as {@link dev.shuttle.bench.sched.PingPong} does with park/unpark.
 */
public class ChannelPingPong extends JucBenchmark {
    static final int ROUND_TRIPS = 1_000;
    private static final Object TOKEN = "token";

    @Param({Channel.SYNCHRONOUS_QUEUE, Channel.LINKED_TRANSFER_QUEUE, Channel.EXCHANGER, Channel.ARRAY_BLOCKING_QUEUE,
        Channel.LINKED_BLOCKING_QUEUE})
    public String channel;

    private final Histogram roundTrips = new Histogram(3);

    @Benchmark
    @OperationsPerInvocation(ROUND_TRIPS)
    public void roundTrip(CpuStats cpu, LatencyStats latency) throws InterruptedException {
        Channel ping = Channel.open(channel);
        Channel pong = Channel.open(channel);
        int[] returned = new int[1];
        Thread b = tasks.newThread(Blocking.task(() -> {
            for (int i = 0; i < ROUND_TRIPS; i++) {
                pong.send(ping.receive());
            }
        }));
        Thread a = tasks.newThread(Blocking.task(() -> {
            for (int i = 0; i < ROUND_TRIPS; i++) {
                long start = System.nanoTime();
                ping.send(TOKEN);
                if (pong.receive() == TOKEN) {
                    returned[0]++;
                }
                roundTrips.recordValue(System.nanoTime() - start);
            }
        }));
        runAll(cpu, ROUND_TRIPS, b, a);
        if (returned[0] != ROUND_TRIPS) { // a's writes are visible here: a.join() happens-before
            throw new AssertionError("the token came back " + returned[0] + " times of " + ROUND_TRIPS);
        }
        latency.add(roundTrips);
        roundTrips.reset();
    }
}
