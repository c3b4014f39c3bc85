package dev.shuttle.bench.juc;

import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * Fan-out and fan-in through a {@link CountDownLatch}: a coordinator virtual thread starts {@code workers} virtual
 * threads that each record their part and count down, then awaits the latch; {@value #ROUNDS} rounds per invocation.
 * This is issue 20's Helidon endpoint that starts 8 virtual threads and joins them, without its sleep: thread
 * start, where the started threads are queued while their starter still runs, and the last count-down waking the
 * coordinator. Primary score: mean round; secondary: round percentiles and process CPU per round. The coordinator
 * checks every worker's part is visible after the await.
 */
public class LatchFanIn extends JucBenchmark {
    static final int ROUNDS = 100;

    @Param("8")
    public int workers;

    private final Histogram rounds = new Histogram(3);

    @Benchmark
    @OperationsPerInvocation(ROUNDS)
    public void round(CpuStats cpu, LatencyStats latency) throws InterruptedException {
        int[] parts = new int[workers];
        Thread coordinator = tasks.newThread(Blocking.task(() -> {
            for (int r = 1; r <= ROUNDS; r++) {
                int round = r;
                long start = System.nanoTime();
                CountDownLatch done = new CountDownLatch(workers);
                for (int w = 0; w < workers; w++) {
                    int slot = w;
                    tasks.start(() -> {
                        parts[slot] = round;
                        done.countDown();
                    });
                }
                done.await();
                rounds.recordValue(System.nanoTime() - start);
                for (int w = 0; w < workers; w++) {
                    if (parts[w] != round) {
                        throw new AssertionError("round " + round + ": worker " + w + "'s part is " + parts[w]);
                    }
                }
            }
        }));
        runAll(cpu, ROUNDS, coordinator);
        latency.add(rounds);
        rounds.reset();
    }
}
