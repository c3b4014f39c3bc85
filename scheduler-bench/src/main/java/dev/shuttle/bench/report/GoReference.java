package dev.shuttle.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which Go benchmark measures the same scenario as a row of the report, and how to convert its number to the row's
 * unit. Only scenarios Go's standard library benchmarks cover have a reference.
 */
public final class GoReference {
    /** A Go metric: benchmark name, GOMAXPROCS, unit, and the factor turning it into the Java row's unit. */
    public record Ref(String name, int procs, String unit, double scale) {
    }

    private final List<GoBench.Result> results;
    private final int defaultProcs;

    /** {@code defaultProcs}: the processors both sides used when a benchmark has no parallelism parameter. */
    public GoReference(List<GoBench.Result> results, int defaultProcs) {
        this.results = results;
        this.defaultProcs = defaultProcs;
    }

    /** The Go metric matching a Java benchmark, parameters ({@code a=1 b=2}) and metric, if any. */
    public Optional<Ref> refFor(String benchmark, String params, String metric) {
        Map<String, String> p = parseParams(params);
        String latencyUnit = switch (metric) {
            case "mean_us" -> "avg-late-ns";
            case "max_us" -> "max-late-ns";
            default -> null;
        };
        return switch (benchmark) {
            case "timer.ParallelTimerLatency.round" -> latencyUnit == null ? Optional.empty()
                    : Optional.of(new Ref("ParallelTimerLatency", defaultProcs, latencyUnit, 1e-3));
            case "timer.StaggeredTickerLatency.tick" -> {
                String load = p.get("load");
                if (latencyUnit == null || load == null || !load.contains("/")) {
                    yield Optional.empty();
                }
                String[] parts = load.split("/");
                String work = parts[0].replace("us", "µs");
                yield Optional.of(new Ref("StaggeredTickerLatency/work-dur=" + work + "/tickers-per-P=" + parts[1],
                        defaultProcs, latencyUnit, 1e-3));
            }
            case "timer.TimerStop.armAndCancel" -> score(metric, "Stop/impl=func", 1);
            case "timer.TimerReset.reset" -> score(metric, "Reset/impl=func", 1);
            case "timer.TimerStartStop.startStop1000" -> score(metric, "StartStop1000", 1);
            case "timer.Sleep.sleep1000" -> score(metric, "Sleep1000", 1e-3);
            case "sched.Wakeup.pair" -> {
                int parallelism = Integer.parseInt(p.getOrDefault("parallelism", "0"));
                String delay = "0".equals(p.get("delayUs")) ? "0s" : p.get("delayUs") + "µs";
                yield metric.equals(Measurement.SCORE) ? Optional.of(new Ref("WakeupParallelSpinning/" + delay,
                        parallelism == 0 ? defaultProcs : parallelism, "ns/op", 1)) : Optional.empty();
            }
            default -> Optional.empty();
        };
    }

    private Optional<Ref> score(String metric, String name, double scale) {
        return metric.equals(Measurement.SCORE) ? Optional.of(new Ref(name, defaultProcs, "ns/op", scale))
                : Optional.empty();
    }

    /** The Go value in the Java row's unit, if Go ran that benchmark. */
    public Optional<Double> valueFor(String benchmark, String params, String metric) {
        return refFor(benchmark, params, metric).flatMap(ref -> results.stream()
                .filter(r -> r.name().equals(ref.name()) && r.procs() == ref.procs())
                .map(r -> r.metrics().get(ref.unit()))
                .filter(v -> v != null)
                .findFirst()
                .map(v -> v * ref.scale()));
    }

    /** The Go value formatted for a table cell, or "-". */
    public String cell(String benchmark, String params, String metric) {
        return valueFor(benchmark, params, metric).map(ComparisonTable::format).orElse("-");
    }

    static Map<String, String> parseParams(String params) {
        Map<String, String> map = new TreeMap<>();
        for (String pair : params.trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                map.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return map;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "GoReference[%d results]", results.size());
    }
}
