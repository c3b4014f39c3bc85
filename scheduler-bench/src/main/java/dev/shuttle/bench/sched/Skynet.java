package dev.shuttle.bench.sched;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.VirtualTasks;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The skynet benchmark: a tree of virtual threads, branching {@value #BRANCHING}, whose {@code size} leaves return
 * their index; each inner thread starts its children, joins them and sums. One operation builds the whole tree
 * ({@code size} leaves, about 1.11 x size threads) and checks the sum is 0 + 1 + ... + (size - 1).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
public class Skynet extends OnScheduler {
    public static final int BRANCHING = 10;

    /** Leaves; a power of {@value #BRANCHING}. */
    @Param("1000000")
    public int size;


    @Override
    protected void afterOpen() {
        requireSize(size);
    }

    /** Fails unless {@code size} is a power of {@value #BRANCHING}: only then is every inner node full. */
    public static void requireSize(int size) {
        long leaves = size;
        while (leaves > 1 && leaves % BRANCHING == 0) {
            leaves /= BRANCHING;
        }
        if (leaves != 1) {
            throw new IllegalArgumentException("size must be a power of " + BRANCHING + ", not " + size);
        }
    }

    /** Fails unless {@code sum} is that of a tree of {@code size} leaves, 0 + 1 + ... + (size - 1). */
    public static void checkSum(long sum, int size) {
        long expected = (long) size * (size - 1) / 2;
        if (sum != expected) {
            throw new AssertionError("skynet sum " + sum + ", expected " + expected);
        }
    }

    @Benchmark
    public long tree() throws InterruptedException {
        long[] result = new long[1];
        tasks.join(tasks.start(() -> result[0] = node(0, size)));
        checkSum(result[0], size);
        return result[0];
    }

    private long node(long first, int leaves) {
        if (leaves == 1) {
            return first;
        }
        int childLeaves = leaves / BRANCHING;
        long[] sums = new long[BRANCHING];
        Thread[] children = new Thread[BRANCHING];
        for (int i = 0; i < BRANCHING; i++) {
            int slot = i;
            children[i] = tasks.start(() -> sums[slot] = node(first + (long) slot * childLeaves, childLeaves));
        }
        long sum = 0;
        for (int i = 0; i < BRANCHING; i++) {
            VirtualTasks.joinUninterruptibly(children[i]);
            sum += sums[i];
        }
        return sum;
    }
}
