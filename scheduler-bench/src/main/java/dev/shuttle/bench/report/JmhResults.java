package dev.shuttle.bench.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** Turns JMH results, live ({@link RunResult}) or from JMH's JSON output, into {@link Measurement}s. */
public final class JmhResults {
    /** A pseudo-parameter: JMH's thread count, recorded when a benchmark ran more than one thread. */
    public static final String THREADS = "jmh.threads";
    private JmhResults() {
    }

    /** The primary and secondary results of runs made through the Runner API. */
    public static List<Measurement> fromRunResults(Collection<RunResult> runs) {
        List<Measurement> out = new ArrayList<>();
        for (RunResult run : runs) {
            BenchmarkParams bp = run.getParams();
            String name = Measurement.shortName(bp.getBenchmark());
            Map<String, String> params = new TreeMap<>();
            for (String key : bp.getParamsKeys()) {
                params.put(key, bp.getParam(key));
            }
            if (bp.getThreads() > 1) {
                params.put(THREADS, Integer.toString(bp.getThreads()));
            }
            Result<?> primary = run.getPrimaryResult();
            out.add(new Measurement(name, params, Measurement.SCORE, primary.getScore(), primary.getScoreUnit()));
            for (Map.Entry<String, Result> e : run.getSecondaryResults().entrySet()) {
                out.add(new Measurement(name, params, e.getKey(), e.getValue().getScore(),
                        unit(e.getKey(), e.getValue().getScoreUnit())));
            }
        }
        return out;
    }

    /** The results in a JMH JSON result file ({@code -rf json}). */
    @SuppressWarnings("unchecked")
    public static List<Measurement> fromJson(String json) {
        List<Measurement> out = new ArrayList<>();
        for (Object item : (List<Object>) Json.parse(json)) {
            Map<String, Object> run = (Map<String, Object>) item;
            String name = Measurement.shortName((String) run.get("benchmark"));
            Map<String, String> params = new TreeMap<>();
            Object rawParams = run.get("params");
            if (rawParams instanceof Map<?, ?> map) {
                map.forEach((k, v) -> params.put((String) k, String.valueOf(v)));
            }
            if (run.get("threads") instanceof Number n && n.intValue() > 1) {
                params.put(THREADS, Integer.toString(n.intValue()));
            }
            out.add(metric(name, params, Measurement.SCORE, (Map<String, Object>) run.get("primaryMetric")));
            Object secondary = run.get("secondaryMetrics");
            if (secondary instanceof Map<?, ?> map) {
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    out.add(metric(name, params, (String) e.getKey(), (Map<String, Object>) e.getValue()));
                }
            }
        }
        return out;
    }

    private static Measurement metric(String name, Map<String, String> params, String metric, Map<String, Object> m) {
        return new Measurement(name, params, metric, number(m.get("score")),
                unit(metric, String.valueOf(m.get("scoreUnit"))));
    }

    /** JMH gives aux counters the unit "#"; the suite's counter names carry their unit, so name it. */
    static String unit(String metric, String jmhUnit) {
        if (!jmhUnit.equals("#")) {
            return jmhUnit;
        }
        if (metric.endsWith("_us") || metric.endsWith("_us_per_op")) {
            return "us";
        }
        if (metric.endsWith("_per_s")) {
            return "ops/s";
        }
        return metric.equals("cores_used") ? "cores" : jmhUnit;
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(value));
    }

    /** The JVM the results came from, from the first run in a JMH JSON file: "jdkVersion vmName vmVersion". */
    @SuppressWarnings("unchecked")
    public static String jvm(String json) {
        List<Object> runs = (List<Object>) Json.parse(json);
        if (runs.isEmpty()) {
            return "unknown";
        }
        Map<String, Object> run = (Map<String, Object>) runs.get(0);
        return run.get("jdkVersion") + " (" + run.get("vmName") + " " + run.get("vmVersion") + ")";
    }
}
