package dev.shuttle.bench.report;

import dev.shuttle.bench.PrimaryMetric;
import dev.shuttle.bench.Schedulers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Pairs each JDK-default measurement with its Shuttle twin (same benchmark, same other parameters, same metric) and
 * renders them side by side with the ratio Shuttle / JDK and which direction is better. Measurements without a
 * {@code scheduler} parameter (the lock benchmarks) are not pairs; {@link #unpaired} lists them. A benchmark's
 * primary row comes first: its JMH score, or the metric it names with {@link PrimaryMetric} (its score, a window's
 * length, is then dropped).
 */
public final class ComparisonTable {
    /** One row: {@code jdk} or {@code shuttle} may be null when only one side ran. */
    public record Row(String benchmark, String params, String metric, String unit, Double jdk, Double shuttle,
            boolean higherIsBetter, boolean primary) {
        /** Shuttle / JDK, or NaN when a side is missing or the JDK value is 0. */
        public double ratio() {
            return jdk == null || shuttle == null || jdk == 0 ? Double.NaN : shuttle / jdk;
        }

        /** True when Shuttle is worse than the JDK by more than {@code tolerance} (0.05 = 5 %). */
        public boolean shuttleLoses(double tolerance) {
            double r = ratio();
            return !Double.isNaN(r) && (higherIsBetter ? r < 1 - tolerance : r > 1 + tolerance);
        }
    }

    private static final String BENCH_PACKAGE = "dev.shuttle.bench.";
    private final List<Row> rows = new ArrayList<>();
    private final List<Measurement> unpaired = new ArrayList<>();

    /** Builds the rows in the order measurements first appear. */
    public ComparisonTable(List<Measurement> measurements) {
        Map<String, Measurement[]> pairs = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            if (m.metric().equals(Measurement.SCORE) && primaryMetric(m.benchmark()).isPresent()) {
                continue;
            }
            String side = m.param("scheduler");
            if (!Schedulers.JDK.equals(side) && !Schedulers.SHUTTLE.equals(side)) {
                unpaired.add(m);
                continue;
            }
            Measurement[] pair = pairs.computeIfAbsent(key(m), k -> new Measurement[2]);
            pair[Schedulers.JDK.equals(side) ? 0 : 1] = m;
        }
        for (Measurement[] pair : pairs.values()) {
            Measurement any = pair[0] != null ? pair[0] : pair[1];
            rows.add(new Row(any.benchmark(), paramsWithoutScheduler(any), any.metric(), any.unit(),
                    pair[0] == null ? null : pair[0].value(), pair[1] == null ? null : pair[1].value(),
                    any.higherIsBetter(), isPrimary(any)));
        }
        List<String> groups = rows.stream().map(r -> r.benchmark() + '|' + r.params()).distinct().toList();
        rows.sort(java.util.Comparator.comparingInt((Row r) -> groups.indexOf(r.benchmark() + '|' + r.params()))
                .thenComparing(r -> !r.primary()).thenComparingInt(r -> rank(r.metric())));
    }

    /**
     * The metric a benchmark declares as its headline with {@link PrimaryMetric}, when its JMH score is only an
     * observation window; empty for benchmarks whose score is the headline, or that this jar does not hold.
     */
    public static Optional<String> primaryMetric(String benchmark) {
        int method = benchmark.lastIndexOf('.');
        if (method < 0) {
            return Optional.empty();
        }
        try {
            Class<?> type = Class.forName(BENCH_PACKAGE + benchmark.substring(0, method), false,
                    ComparisonTable.class.getClassLoader());
            return Optional.ofNullable(type.getAnnotation(PrimaryMetric.class)).map(PrimaryMetric::value);
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    private static boolean isPrimary(Measurement m) {
        return primaryMetric(m.benchmark()).map(m.metric()::equals).orElse(m.metric().equals(Measurement.SCORE));
    }

    /** The order metrics are listed in within one benchmark: score, the percentiles in order, then the rest. */
    private static final List<String> METRIC_ORDER = List.of(Measurement.SCORE, "p50_us", "p99_us", "p999_us",
            "max_us", "mean_us", "cpu_us_per_op", "ops_per_s", "cores_used");

    private static int rank(String metric) {
        int i = METRIC_ORDER.indexOf(metric);
        return i < 0 ? METRIC_ORDER.size() : i;
    }

    public List<Row> rows() {
        return rows;
    }

    public List<Measurement> unpaired() {
        return unpaired;
    }

    private static String key(Measurement m) {
        return m.benchmark() + '|' + paramsWithoutScheduler(m) + '|' + m.metric();
    }

    /** The parameters other than scheduler, as {@code a=1 b=2}. */
    public static String paramsWithoutScheduler(Measurement m) {
        Map<String, String> rest = new TreeMap<>(m.params());
        rest.remove("scheduler");
        StringBuilder sb = new StringBuilder();
        rest.forEach((k, v) -> sb.append(sb.isEmpty() ? "" : " ").append(k).append('=').append(v));
        return sb.toString();
    }

    /** A value with 3 significant digits, or "-" for a missing one. */
    public static String format(Double value) {
        if (value == null || value.isNaN()) {
            return "-";
        }
        double v = value;
        double abs = Math.abs(v);
        if (abs >= 1000 || v == Math.rint(v) && abs >= 1) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (abs >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (abs >= 10) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    /** The ratio as {@code 0.85x}, or "-". */
    public static String formatRatio(double ratio) {
        return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2fx", ratio);
    }

    /** A plain-text table with aligned columns, for a terminal. */
    public String toText() {
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"benchmark", "metric", "JDK default", "Shuttle", "Shuttle/JDK", "better"});
        for (Row r : rows) {
            String bench = r.params().isEmpty() ? r.benchmark() : r.benchmark() + " [" + r.params() + "]";
            cells.add(new String[] {bench, r.metric() + " (" + r.unit() + ")", format(r.jdk()), format(r.shuttle()),
                    formatRatio(r.ratio()), r.higherIsBetter() ? "higher" : "lower"});
        }
        return align(cells);
    }

    /** A Markdown table; {@code reference} adds a column (e.g. Go's number for the same scenario) when non-null. */
    public String toMarkdown(Function<Row, String> reference, String referenceTitle) {
        StringBuilder sb = new StringBuilder();
        sb.append("| benchmark | params | metric | unit | JDK default | Shuttle | Shuttle/JDK | better |");
        sb.append(reference == null ? "\n" : " " + referenceTitle + " |\n");
        sb.append("|---|---|---|---|---:|---:|---:|---|").append(reference == null ? "\n" : "---:|\n");
        for (Row r : rows) {
            sb.append("| ").append(r.benchmark()).append(" | ").append(r.params()).append(" | ")
                    .append(r.primary() ? "**" + r.metric() + "**" : r.metric())
                    .append(" | ").append(r.unit()).append(" | ").append(format(r.jdk())).append(" | ")
                    .append(format(r.shuttle())).append(" | ").append(formatRatio(r.ratio())).append(" | ")
                    .append(r.higherIsBetter() ? "higher" : "lower").append(" |");
            sb.append(reference == null ? "\n" : " " + reference.apply(r) + " |\n");
        }
        return sb.toString();
    }

    /**
     * The report's opening table: one row per benchmark and parameter set, its primary metric only, with what this
     * one run says. A ratio within {@code tolerance} of 1 (0.05 = 5 %) is called level: one run cannot separate such
     * a difference from the machine's run-to-run spread.
     */
    public String toSummaryMarkdown(double tolerance) {
        StringBuilder sb = new StringBuilder();
        sb.append("| benchmark | params | metric | JDK default | Shuttle | Shuttle/JDK | in this run |\n");
        sb.append("|---|---|---|---:|---:|---:|---|\n");
        for (Row r : rows) {
            if (!r.primary()) {
                continue;
            }
            sb.append("| ").append(r.benchmark()).append(" | ").append(r.params()).append(" | ").append(r.metric())
                    .append(" (").append(r.unit()).append(", ").append(r.higherIsBetter() ? "higher" : "lower")
                    .append(" is better) | ").append(format(r.jdk())).append(" | ").append(format(r.shuttle()))
                    .append(" | ").append(formatRatio(r.ratio())).append(" | ").append(verdict(r, tolerance))
                    .append(" |\n");
        }
        return sb.toString();
    }

    private static String verdict(Row r, double tolerance) {
        if (Double.isNaN(r.ratio())) {
            return "one side missing";
        }
        if (r.shuttleLoses(tolerance)) {
            return "**Shuttle worse**";
        }
        Row flipped = new Row(r.benchmark(), r.params(), r.metric(), r.unit(), r.shuttle(), r.jdk(),
                r.higherIsBetter(), r.primary());
        return flipped.shuttleLoses(tolerance) ? "Shuttle better" : "level";
    }

    /** Cells as a plain-text table; the first row is the header, columns 2 to 4 are right-aligned numbers. */
    public static String align(List<String[]> cells) {
        int[] width = new int[cells.get(0).length];
        for (String[] row : cells) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int r = 0; r < cells.size(); r++) {
            String[] row = cells.get(r);
            for (int i = 0; i < row.length; i++) {
                boolean numeric = i >= 2 && i <= 4;
                String cell = numeric ? " ".repeat(width[i] - row[i].length()) + row[i]
                        : row[i] + " ".repeat(width[i] - row[i].length());
                sb.append(cell).append(i + 1 < row.length ? "  " : "");
            }
            sb.append(System.lineSeparator());
            if (r == 0) {
                for (int i = 0; i < width.length; i++) {
                    sb.append("-".repeat(width[i])).append(i + 1 < width.length ? "  " : "");
                }
                sb.append(System.lineSeparator());
            }
        }
        return sb.toString().stripTrailing() + System.lineSeparator();
    }
}
