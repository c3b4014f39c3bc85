package dev.shuttle.bench.lock;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Secondary result: process CPU nanoseconds (all threads, all cores) per lock operation. JMH reads
 * the public field at the end of each iteration, so it holds a running ratio over the iteration.
 * Note that JMH's score for an EVENTS counter is the sum over measurement iterations: read the
 * per-iteration values (rawData in the JSON), or divide the score by the iteration count.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuCounters {
    public double cpuNsPerOp;
    private long cpuNanos;
    private long ops;

    @Setup(Level.Iteration)
    public void clear() {
        cpuNsPerOp = 0;
        cpuNanos = 0;
        ops = 0;
    }

    void add(long cpuDelta, long opsDelta) {
        cpuNanos += cpuDelta;
        ops += opsDelta;
        cpuNsPerOp = (double) cpuNanos / ops;
    }
}
