package dev.shuttle.bench.lock;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Secondary results: process CPU nanoseconds per lock operation over the iteration. JMH reads
 * public fields of an EVENTS counter as they stand at the end of the iteration, so the field
 * holds a running ratio rather than a sum.
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
