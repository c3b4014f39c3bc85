package dev.shuttle.bench.report;

import java.util.Map;
import java.util.TreeMap;

/**
 * One number from a benchmark run: the primary score (metric {@value #SCORE}) or a named secondary result.
 *
 * @param benchmark package under dev.shuttle.bench, class and method, e.g. {@code sched.PingPong.roundTrip}
 * @param params the JMH parameters of the run, sorted by name
 */
public record Measurement(String benchmark, Map<String, String> params, String metric, double value, String unit) {
    /** The metric name of a primary score. */
    public static final String SCORE = "score";
    private static final String PREFIX = "dev.shuttle.bench.";

    public Measurement {
        params = java.util.Collections.unmodifiableMap(new TreeMap<>(params));
    }

    /**
     * The short name of a fully qualified benchmark: relative to {@code dev.shuttle.bench} (e.g.
     * {@code sched.PingPong.roundTrip}), else its last two parts (Class.method).
     */
    public static String shortName(String fullName) {
        if (fullName.startsWith(PREFIX)) {
            return fullName.substring(PREFIX.length());
        }
        int method = fullName.lastIndexOf('.');
        int type = method > 0 ? fullName.lastIndexOf('.', method - 1) : -1;
        return fullName.substring(type + 1);
    }

    /** The parameter's value, or null. */
    public String param(String name) {
        return params.get(name);
    }

    /** True when a larger value is better: rates (units per second). Times, CPU and lateness are lower-better. */
    public boolean higherIsBetter() {
        return metric.endsWith("_per_s") || unit.startsWith("ops/") || unit.endsWith("/s");
    }
}
