package dev.shuttle.bench.juc;

import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * A {@link CompletableFuture} chain of {@value #STAGES} {@code thenApplyAsync} stages whose executor starts a new
 * virtual thread per stage: each stage's thread completes its future, which starts the next stage on a new thread,
 * and ends. A virtual thread builds the chain, completes its head and {@code join}s its tail (so the one wait on the
 * result is a virtual thread's park, not the JMH thread's). Primary score: mean time per stage; secondary: process
 * CPU per stage and percentiles of the hop, from one stage's end to the next stage's start. The tail's value
 * counts the stages that ran.
 */
public class FutureChain extends JucBenchmark {
    static final int STAGES = 1_000;

    private final Histogram hops = new Histogram(3);
    private long lastEnd;

    @Benchmark
    @OperationsPerInvocation(STAGES)
    public void stage(CpuStats cpu, LatencyStats latency) throws InterruptedException {
        Executor perStageThread = tasks::start;
        int[] ran = new int[1];
        Thread driver = tasks.newThread(() -> {
            CompletableFuture<Integer> head = new CompletableFuture<>();
            CompletableFuture<Integer> tail = head;
            for (int i = 0; i < STAGES; i++) {
                tail = tail.thenApplyAsync(this::hop, perStageThread);
            }
            lastEnd = System.nanoTime();
            head.complete(0);
            ran[0] = tail.join();
        });
        runAll(cpu, STAGES, driver);
        if (ran[0] != STAGES) {
            throw new AssertionError(ran[0] + " of " + STAGES + " stages ran");
        }
        latency.add(hops);
        hops.reset();
    }

    /** One stage; stages run one after another, each seeing the previous one's writes through the future. */
    private Integer hop(Integer stagesBefore) {
        hops.recordValue(System.nanoTime() - lastEnd);
        lastEnd = System.nanoTime();
        return stagesBefore + 1;
    }
}
