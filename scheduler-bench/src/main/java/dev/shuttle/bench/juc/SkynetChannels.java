package dev.shuttle.bench.juc;

import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.sched.Skynet;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;

/**
 * Skynet as Go writes it: every node is a virtual thread that sends its sum to its parent through the parent's
 * unbuffered channel, here a {@link SynchronousQueue}; an inner node starts its {@value #BRANCHING} children, takes
 * their {@value #BRANCHING} sums from its channel and sends the total up. Unlike {@link dev.shuttle.bench.sched.Skynet}
 * (join), every result is a rendezvous. One operation builds the whole tree of {@code size} leaves and checks the sum
 * is 0 + 1 + ... + (size - 1). Secondary: process CPU per tree.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class SkynetChannels extends JucBenchmark {
    private static final int BRANCHING = Skynet.BRANCHING;

    /** Leaves; a power of {@value #BRANCHING}. */
    @Param("100000")
    public int size;

    @Override
    protected void afterOpen() {
        Skynet.requireSize(size);
    }

    @Benchmark
    public long tree(CpuStats cpu) throws InterruptedException {
        SynchronousQueue<Long> root = new SynchronousQueue<>();
        long[] result = new long[1];
        runAll(cpu, 1, tasks.newThread(Blocking.task(() -> node(0, size, root))),
                tasks.newThread(Blocking.task(() -> result[0] = root.take())));
        Skynet.checkSum(result[0], size);
        return result[0];
    }

    private void node(long first, int leaves, SynchronousQueue<Long> parent) throws InterruptedException {
        if (leaves == 1) {
            parent.put(first);
            return;
        }
        int childLeaves = leaves / BRANCHING;
        SynchronousQueue<Long> sums = new SynchronousQueue<>();
        for (int i = 0; i < BRANCHING; i++) {
            long childFirst = first + (long) i * childLeaves;
            tasks.start(Blocking.task(() -> node(childFirst, childLeaves, sums)));
        }
        long sum = 0;
        for (int i = 0; i < BRANCHING; i++) {
            sum += sums.take();
        }
        parent.put(sum);
    }
}
