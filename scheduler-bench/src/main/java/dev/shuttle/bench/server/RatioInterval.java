package dev.shuttle.bench.server;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The project's win/loss rule for one metric measured over alternated rounds: the median of the per-round
 * Shuttle/JDK ratios with a 95 % percentile-bootstrap confidence interval. The difference is a win or a loss only
 * when the interval clears 1.0; an interval holding 1.0 is parity; fewer than {@link #MIN_ROUNDS} rounds are
 * unresolved whatever they show. The resampling is seeded, so the same ratios always give the same interval.
 */
record RatioInterval(double median, double low, double high, int rounds) {
    static final int MIN_ROUNDS = 5;
    private static final int RESAMPLES = 10_000;

    /** NaN ratios (a metric with nothing to divide by in that round) are left out. */
    static RatioInterval of(double[] ratios) {
        double[] r = Arrays.stream(ratios).filter(x -> !Double.isNaN(x) && !Double.isInfinite(x)).toArray();
        if (r.length == 0) {
            return new RatioInterval(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        SplittableRandom random = new SplittableRandom(42);
        double[] medians = new double[RESAMPLES];
        double[] sample = new double[r.length];
        for (int i = 0; i < RESAMPLES; i++) {
            for (int j = 0; j < r.length; j++) {
                sample[j] = r[random.nextInt(r.length)];
            }
            medians[i] = median(sample);
        }
        Arrays.sort(medians);
        return new RatioInterval(median(r), medians[(int) (RESAMPLES * 0.025)],
                medians[(int) (RESAMPLES * 0.975) - 1], r.length);
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /**
     * "lower", "higher", "parity" or "unresolved": whether the compared side's value is lower or higher than the
     * reference's beyond the spread. Whether lower is better is the caller's to say.
     */
    String verdict() {
        if (rounds < MIN_ROUNDS) {
            return "unresolved";
        }
        if (high < 1.0) {
            return "lower";
        }
        return low > 1.0 ? "higher" : "parity";
    }

    String format() {
        return Double.isNaN(median) ? "-" : String.format(java.util.Locale.ROOT, "%.2fx [%.2f, %.2f] %s", median, low,
                high, verdict());
    }
}
