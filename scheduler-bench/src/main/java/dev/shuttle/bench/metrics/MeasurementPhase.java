package dev.shuttle.bench.metrics;

import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * Tracks where a trial is: warmup or measurement, and whether the current iteration is the last measurement one.
 *
 * <p>Why: JMH sums {@code @AuxCounters(EVENTS)} values over the measurement iterations. A percentile cannot be
 * summed, so the counter states accumulate samples over all measurement iterations and publish their statistics in
 * the last one only, reporting 0 in the others; the sum JMH computes is then the statistic over the whole trial.
 */
final class MeasurementPhase {
    private boolean measuring;
    private int measured;
    private int measurementCount;

    /** Call from the state's iteration setup. */
    void begin(IterationParams params) {
        measuring = params.getType() == IterationType.MEASUREMENT;
        measurementCount = params.getCount();
    }

    boolean measuring() {
        return measuring;
    }

    /** Call from the state's iteration teardown: true if the iteration just ended was the last measurement one. */
    boolean endIsLast() {
        return measuring && ++measured == measurementCount;
    }

    /** True before the first measurement iteration has ended: the accumulators must start from empty. */
    boolean firstMeasurement() {
        return measuring && measured == 0;
    }
}
