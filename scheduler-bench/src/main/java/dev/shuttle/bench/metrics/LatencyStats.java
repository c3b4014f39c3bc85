package dev.shuttle.bench.metrics;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.IterationParams;

/**
 * A latency distribution (lateness of a timer, a round trip) recorded into an HdrHistogram and reported as JMH
 * secondary results in microseconds: {@code p50_us}, {@code p99_us}, {@code p999_us}, {@code max_us},
 * {@code mean_us}. They are computed over every sample of every measurement iteration (see
 * {@link MeasurementPhase} for why they appear in the last iteration only); warmup samples are dropped.
 *
 * <p>{@link #record} is thread-safe and wait-free (HdrHistogram's {@link Recorder}), so any virtual thread may
 * record; {@link #add} is for the JMH thread, merging a histogram a benchmark kept itself.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class LatencyStats {
    public double p50_us;
    public double p99_us;
    public double p999_us;
    public double max_us;
    public double mean_us;

    private final Recorder recorder = new Recorder(3);
    private final Histogram total = new Histogram(3);
    private final MeasurementPhase phase = new MeasurementPhase();
    private Histogram interval;

    @Setup(Level.Iteration)
    public void beginIteration(IterationParams params) {
        phase.begin(params);
        if (phase.firstMeasurement()) {
            total.reset();
        }
        interval = recorder.getIntervalHistogram(interval); // drops samples recorded between iterations
        p50_us = p99_us = p999_us = max_us = mean_us = 0;
    }

    /** Records one sample in nanoseconds; negative values (early by clock jitter) count as 0, as in Go. */
    public void record(long nanos) {
        recorder.recordValue(Math.max(0, nanos));
    }

    /**
     * Merges samples (nanoseconds) collected elsewhere during the current iteration. Warm-up samples are merged too
     * and dropped when the first measurement iteration begins: merging only while measuring left HdrHistogram's
     * {@code add} to be compiled during the measurement, and the JIT's work landed in the CPU per operation of
     * benchmarks that read process CPU (Tickers with 10 sleepers on Shuttle, 2 to 7 s into the measurement: the C2
     * thread at 6 ms/s of the process's 80 ms/s before, 2 ms/s after).
     */
    public void add(Histogram samples) {
        total.add(samples);
    }

    @TearDown(Level.Iteration)
    public void endIteration() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        if (phase.endIsLast()) {
            if (total.getTotalCount() == 0) {
                throw new IllegalStateException("no latency samples were recorded during the measurement");
            }
            p50_us = micros(total.getValueAtPercentile(50));
            p99_us = micros(total.getValueAtPercentile(99));
            p999_us = micros(total.getValueAtPercentile(99.9));
            max_us = micros(total.getMaxValue());
            mean_us = total.getMean() / 1_000.0;
        }
    }

    private static double micros(long nanos) {
        return nanos / 1_000.0;
    }
}
