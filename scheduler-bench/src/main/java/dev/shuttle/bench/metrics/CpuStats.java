package dev.shuttle.bench.metrics;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;

/**
 * Process CPU per operation, reported as JMH secondary results: {@code cpu_us_per_op} (process CPU time divided by
 * operations, the seeds' task-clock per op), {@code ops_per_s} and {@code cores_used} (CPU time over wall time).
 * A benchmark measures its own windows (CPU and wall time before and after the work, and how many operations
 * happened) and {@link #add}s them; totals span every measurement iteration (see {@link MeasurementPhase}).
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class CpuStats {
    public double cpu_us_per_op;
    public double ops_per_s;
    public double cores_used;

    private final MeasurementPhase phase = new MeasurementPhase();
    private long cpuNanos;
    private long wallNanos;
    private long ops;

    @Setup(Level.Iteration)
    public void beginIteration(IterationParams params) {
        phase.begin(params);
        if (phase.firstMeasurement()) {
            cpuNanos = wallNanos = ops = 0;
        }
        cpu_us_per_op = ops_per_s = cores_used = 0;
    }

    /** Adds one measured window: process CPU and wall time it took and the operations completed in it. */
    public void add(long cpuNanos, long wallNanos, long ops) {
        if (phase.measuring()) {
            this.cpuNanos += cpuNanos;
            this.wallNanos += wallNanos;
            this.ops += ops;
        }
    }

    @TearDown(Level.Iteration)
    public void endIteration() {
        if (phase.endIsLast()) {
            if (ops == 0 || wallNanos == 0) {
                throw new IllegalStateException("no operations were measured");
            }
            cpu_us_per_op = cpuNanos / 1_000.0 / ops;
            ops_per_s = ops * 1e9 / wallNanos;
            cores_used = (double) cpuNanos / wallNanos;
        }
    }
}
