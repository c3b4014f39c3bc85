package dev.shuttle.bench.juc;

import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * {@code pairs} independent producer/consumer pairs of virtual threads, each pair with its own {@link Channel} of
 * the {@code channel} kind; together they move {@value #ITEMS} items per invocation, split evenly. Primary score:
 * mean time per item over all pairs (a throughput: pairs run in parallel); secondary: process CPU per item and the
 * item latency percentiles, from the producer's call to send to the consumer's receive returning (for the buffered
 * kinds this includes the time an item waits in the buffer).
 *
 * <p>The consumer checks that it receives the items in the order they were sent, which each kind guarantees for a
 * single producer and consumer.
 */
public class ChannelProducerConsumer extends JucBenchmark {
    /** Divisible by every {@code pairs} value, so each pair moves the same number. */
    static final int ITEMS = 8_000;
    /** Items carry {@code index % 128}: boxed from the JDK's Integer cache, so sending allocates nothing. */
    private static final int TAG = 128;

    @Param({Channel.SYNCHRONOUS_QUEUE, Channel.LINKED_TRANSFER_QUEUE, Channel.EXCHANGER, Channel.ARRAY_BLOCKING_QUEUE,
        Channel.LINKED_BLOCKING_QUEUE})
    public String channel;

    @Param({"1", "2", "4", "8"})
    public int pairs;

    private long[][] sentAt;
    private Histogram[] latencies;

    @Override
    protected void afterOpen() {
        if (pairs < 1 || ITEMS % pairs != 0) {
            throw new IllegalArgumentException("pairs must divide " + ITEMS + ", not " + pairs);
        }
        sentAt = new long[pairs][ITEMS / pairs];
        latencies = new Histogram[pairs];
        for (int p = 0; p < pairs; p++) {
            latencies[p] = new Histogram(3);
        }
    }

    @Benchmark
    @OperationsPerInvocation(ITEMS)
    public void items(CpuStats cpu, LatencyStats latency) throws InterruptedException {
        int perPair = ITEMS / pairs;
        Thread[] threads = new Thread[2 * pairs];
        for (int p = 0; p < pairs; p++) {
            Channel c = Channel.open(channel);
            long[] sent = sentAt[p];
            Histogram received = latencies[p];
            threads[2 * p] = tasks.newThread(Blocking.task(() -> {
                for (int i = 0; i < perPair; i++) {
                    sent[i] = System.nanoTime();
                    c.send(i % TAG);
                }
            }));
            threads[2 * p + 1] = tasks.newThread(Blocking.task(() -> {
                for (int i = 0; i < perPair; i++) {
                    Object item = c.receive();
                    received.recordValue(System.nanoTime() - sent[i]);
                    if ((Integer) item != i % TAG) {
                        throw new AssertionError("item " + i + " arrived as " + item);
                    }
                }
            }));
        }
        runAll(cpu, ITEMS, threads);
        for (Histogram h : latencies) {
            latency.add(h);
            h.reset();
        }
    }
}
