package dev.shuttle.bench.report;

import dev.shuttle.bench.Schedulers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Chooses the report's charts from the measurements: latency percentiles per scheduler (one chart per benchmark and
 * parameter set that reports them), CPU per wake-up for Tickers, CPU per operation of Wakeup against parallelism,
 * and lock ns/op against threads when lock results exist. Returns file name to SVG text.
 */
public final class Plots {
    private static final String[] PERCENTILES = {"p50_us", "p99_us", "p999_us", "max_us"};
    private static final List<String> PERCENTILE_NAMES = List.of("p50", "p99", "p99.9", "max");
    private static final List<String> SIDES = List.of(Schedulers.JDK, Schedulers.SHUTTLE);

    private Plots() {
    }

    public static Map<String, String> all(List<Measurement> measurements) {
        Map<String, String> files = new LinkedHashMap<>();
        latency(measurements, files);
        tickersCpu(measurements, files);
        wakeupCpu(measurements, files);
        lock(measurements, files);
        return files;
    }

    /** Whether a measurement is of one of the two schedulers; benchmarks of other things have no such parameter. */
    private static boolean onASide(Measurement m) {
        String side = m.param("scheduler");
        return side != null && SIDES.contains(side);
    }

    private static void latency(List<Measurement> ms, Map<String, String> files) {
        Map<String, Map<String, double[]>> charts = new LinkedHashMap<>();
        for (Measurement m : ms) {
            int p = List.of(PERCENTILES).indexOf(m.metric());
            String side = m.param("scheduler");
            if (p < 0 || !onASide(m)) {
                continue;
            }
            String params = ComparisonTable.paramsWithoutScheduler(m);
            String title = m.benchmark() + (params.isEmpty() ? "" : " [" + params + "]");
            Map<String, double[]> series = charts.computeIfAbsent(title, k -> new LinkedHashMap<>());
            series.computeIfAbsent(side, k -> nans(PERCENTILES.length))[p] = m.value();
        }
        charts.forEach((title, series) -> files.put("latency-" + slug(title) + ".svg",
                Charts.bars(title + ": latency percentiles", "µs (log scale)", PERCENTILE_NAMES, series, true)));
    }

    private static void tickersCpu(List<Measurement> ms, Map<String, String> files) {
        Map<Integer, Map<String, Double>> byThreads = new TreeMap<>();
        for (Measurement m : ms) {
            if (m.benchmark().equals("timer.Tickers.window") && m.metric().equals("cpu_us_per_op")
                    && onASide(m)) {
                byThreads.computeIfAbsent(Integer.parseInt(m.param("threads")), k -> new LinkedHashMap<>())
                        .put(m.param("scheduler"), m.value());
            }
        }
        if (byThreads.isEmpty()) {
            return;
        }
        List<String> categories = byThreads.keySet().stream().map(t -> t + " threads").toList();
        Map<String, double[]> series = new LinkedHashMap<>();
        int c = 0;
        for (Map<String, Double> values : byThreads.values()) {
            for (String side : SIDES) {
                series.computeIfAbsent(side, k -> nans(byThreads.size()))[c] = values.getOrDefault(side, Double.NaN);
            }
            c++;
        }
        files.put("cpu-per-wakeup.svg", Charts.bars("Tickers: process CPU per wake-up (threads sleeping 1 ms)",
                "µs CPU per wake-up", categories, series, false));
    }

    private static void wakeupCpu(List<Measurement> ms, Map<String, String> files) {
        Map<String, TreeMap<Double, Double>> series = new LinkedHashMap<>();
        for (Measurement m : ms) {
            if (m.benchmark().equals("sched.Wakeup.pair") && m.metric().equals("cpu_us_per_op")
                    && onASide(m) && !"0".equals(m.param("parallelism"))) {
                series.computeIfAbsent(m.param("scheduler") + " delay " + m.param("delayUs") + " µs",
                        k -> new TreeMap<>()).put(Double.parseDouble(m.param("parallelism")), m.value());
            }
        }
        if (!series.isEmpty()) {
            files.put("wakeup-cpu.svg", Charts.lines("Wakeup: process CPU per operation as parallelism grows",
                    "parallelism (carriers)", "µs CPU per op", points(series)));
        }
    }

    private static void lock(List<Measurement> ms, Map<String, String> files) {
        Map<String, TreeMap<Double, Double>> series = new LinkedHashMap<>();
        for (Measurement m : ms) {
            String threads = m.param("threads") != null ? m.param("threads") : m.param(JmhResults.THREADS);
            if (!m.metric().equals(Measurement.SCORE) || threads == null || !m.benchmark().startsWith("lock.")) {
                continue;
            }
            Map<String, String> rest = new TreeMap<>(m.params());
            rest.remove("threads");
            rest.remove(JmhResults.THREADS);
            series.computeIfAbsent(m.benchmark() + " " + rest, k -> new TreeMap<>())
                    .put(Double.parseDouble(threads), m.value());
        }
        if (!series.isEmpty()) {
            files.put("lock.svg", Charts.lines("Lock: time per lock/unlock against threads", "threads", "ns/op",
                    points(series)));
        }
    }

    private static Map<String, double[][]> points(Map<String, TreeMap<Double, Double>> series) {
        Map<String, double[][]> out = new LinkedHashMap<>();
        series.forEach((name, pts) -> {
            List<double[]> list = new ArrayList<>();
            pts.forEach((x, y) -> list.add(new double[] {x, y}));
            out.put(name, list.toArray(new double[0][]));
        });
        return out;
    }

    private static double[] nans(int n) {
        double[] a = new double[n];
        java.util.Arrays.fill(a, Double.NaN);
        return a;
    }

    static String slug(String s) {
        return s.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("(^-|-$)", "");
    }
}
