package dev.shuttle.bench;

import dev.shuttle.bench.report.ComparisonTable;
import dev.shuttle.bench.report.JmhResults;
import dev.shuttle.bench.report.Measurement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * {@code ./shuttle compare}: the headline benchmarks on both schedulers in about 5 minutes on 2 cores. Each benchmark
 * runs {@value #ROUNDS} rounds of one fork per scheduler, the JDK first in one round and Shuttle first in the next,
 * so that neither side always runs on a machine the other just warmed or heated. Each fork warms up past the JIT as
 * long as the full suite does where the suite found that it must (15 s for Tickers), and shorter elsewhere. The
 * table shows the mean over rounds per side, their ratio and beside it the range of the per-round ratios: a range
 * that straddles 1.00x is no result. Both sides: one carrier per processor, the same JVM flags, and the same timer
 * slack ({@link SchedulerSlack}). Pass {@code -v} to see JMH's own output.
 */
public final class QuickCompare {
    static final int ROUNDS = 2;

    /** One headline benchmark: what to run, which of its metrics the table shows, and its fork's schedule. */
    record Headline(String benchmark, Map<String, String> params, Set<String> metrics, int warmups,
            TimeValue warmupTime, int iterations, TimeValue time, String[] jvmArgs) {
        boolean onBothSchedulers() {
            return !benchmark.startsWith(BenchmarkCatalog.LOCK_PACKAGE);
        }
    }

    private static final String BENCH = "dev.shuttle.bench.";
    private static final String[] JVM_ARGS = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS};
    private static final TimeValue SECOND = TimeValue.seconds(1);

    static List<Headline> headlines() {
        List<Headline> list = new ArrayList<>(List.of(
                new Headline(BENCH + "sched.PingPong.roundTrip", Map.of(),
                        Set.of(Measurement.SCORE, "p50_us", "p99_us"), 3, SECOND, 3, SECOND, JVM_ARGS),
                // A tenth of the suite's tree: a million threads take seconds per operation on 2 loaded cores.
                new Headline(BENCH + "sched.Skynet.tree", Map.of("size", "100000"), Set.of(Measurement.SCORE), 3,
                        SECOND, 3, SECOND, JVM_ARGS),
                new Headline(BENCH + "timer.ParallelTimerLatency.round", Map.of(),
                        Set.of("mean_us", "p99_us", "max_us"), 3, SECOND, 2, TimeValue.seconds(2), JVM_ARGS),
                // The suite's finding: under 15 s of warm-up, CPU per wake-up measures the JIT (see Tickers).
                new Headline(BENCH + "timer.Tickers.window", Map.of("threads", "10"),
                        Set.of("ops_per_s", "cpu_us_per_op", "mean_us", "p99_us"), 15, SECOND, 2, SECOND,
                        JVM_ARGS),
                new Headline(BENCH + "sched.IdleCpu.idleAfterBurst", Map.of(), Set.of("cores_used"), 2, SECOND, 2,
                        TimeValue.seconds(2), JVM_ARGS),
                new Headline(BENCH + "sched.Wakeup.pair", Map.of("parallelism", "2", "delayUs", "20"),
                        Set.of(Measurement.SCORE, "cpu_us_per_op"), 2, SECOND, 3, SECOND,
                        BenchJvm.withJdkParallelism(2))));
        for (String lock : BenchmarkCatalog.find(BenchmarkCatalog.LOCK_PACKAGE.replace(".", "\\.")
                + ".*MutexContention.*")) {
            list.add(new Headline(lock, Map.of("threads", "4", "lock", "spinbit,reentrant"), Set.of(Measurement.SCORE),
                    1, SECOND, 2, SECOND, JVM_ARGS));
        }
        return list;
    }

    private QuickCompare() {
    }

    public static void main(String[] args) {
        boolean verbose = List.of(args).contains("-v");
        long start = System.nanoTime();
        List<List<Measurement>> rounds = new ArrayList<>();
        for (int r = 0; r < ROUNDS; r++) {
            rounds.add(new ArrayList<>());
        }
        List<Measurement> unpaired = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (Headline h : headlines()) {
            if (!h.onBothSchedulers()) {
                runInto(h, "", verbose, unpaired, failures);
                continue;
            }
            for (int r = 0; r < ROUNDS; r++) {
                List<String> order = r % 2 == 0 ? List.of(Schedulers.JDK, Schedulers.SHUTTLE)
                        : List.of(Schedulers.SHUTTLE, Schedulers.JDK);
                for (String side : order) {
                    runInto(h, side, verbose, rounds.get(r), failures);
                }
            }
        }
        System.out.println();
        System.out.print(table(rounds));
        for (Measurement m : unpaired) {
            System.out.println(m.benchmark() + " " + m.params() + " " + m.metric() + ": "
                    + ComparisonTable.format(m.value()) + " " + m.unit());
        }
        System.out.printf(Locale.ROOT, "%n%d rounds, the order of the schedulers alternating; range = lowest to highest"
                + " per-round ratio. Both sides: %s, one carrier per processor, the same JVM flags. %d processors,"
                + " %.0f s. Full report: ./shuttle report%n", ROUNDS, SchedulerSlack.describe(),
                Runtime.getRuntime().availableProcessors(), (System.nanoTime() - start) / 1e9);
        for (String failure : failures) {
            System.out.println("FAILED " + failure);
        }
        if (!failures.isEmpty()) {
            System.exit(1);
        }
    }

    private static void runInto(Headline h, String side, boolean verbose, List<Measurement> into,
            List<String> failures) {
        String name = Measurement.shortName(h.benchmark()) + (side.isEmpty() ? "" : " scheduler=" + side);
        System.err.println("QuickCompare: running " + name);
        try {
            for (Measurement m : JmhResults.fromRunResults(run(h, side, verbose))) {
                if (h.metrics().contains(m.metric())) {
                    into.add(m);
                }
            }
        } catch (RunnerException e) {
            failures.add(name + ": " + rootCause(e));
        }
    }

    /** Mean per side over the rounds, the ratio of the means, and the range of the per-round ratios. */
    static String table(List<List<Measurement>> rounds) {
        Map<String, List<ComparisonTable.Row>> byRow = new LinkedHashMap<>();
        for (List<Measurement> round : rounds) {
            for (ComparisonTable.Row row : new ComparisonTable(round).rows()) {
                byRow.computeIfAbsent(row.benchmark() + " [" + row.params() + "] " + row.metric(),
                        k -> new ArrayList<>()).add(row);
            }
        }
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"benchmark", "metric", "JDK default", "Shuttle", "Shuttle/JDK", "range", "better"});
        for (List<ComparisonTable.Row> rows : byRow.values()) {
            ComparisonTable.Row first = rows.get(0);
            double jdk = mean(rows, true);
            double shuttle = mean(rows, false);
            double low = Double.NaN;
            double high = Double.NaN;
            for (ComparisonTable.Row row : rows) {
                double ratio = row.ratio();
                low = Double.isNaN(low) ? ratio : Math.min(low, ratio);
                high = Double.isNaN(high) ? ratio : Math.max(high, ratio);
            }
            String bench = first.params().isEmpty() ? first.benchmark()
                    : first.benchmark() + " [" + first.params() + "]";
            cells.add(new String[] {bench, first.metric() + " (" + first.unit() + ")", ComparisonTable.format(jdk),
                ComparisonTable.format(shuttle), ComparisonTable.formatRatio(jdk == 0 ? Double.NaN : shuttle / jdk),
                ComparisonTable.formatRatio(low) + "-" + ComparisonTable.formatRatio(high) + " (" + rows.size()
                        + ")", first.higherIsBetter() ? "higher" : "lower"});
        }
        return ComparisonTable.align(cells);
    }

    private static double mean(List<ComparisonTable.Row> rows, boolean jdk) {
        double sum = 0;
        int n = 0;
        for (ComparisonTable.Row row : rows) {
            Double v = jdk ? row.jdk() : row.shuttle();
            if (v != null) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    private static Collection<RunResult> run(Headline h, String side, boolean verbose) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(BenchmarkCatalog.exactly(h.benchmark()))
                .forks(1)
                .warmupIterations(h.warmups()).warmupTime(h.warmupTime())
                .measurementIterations(h.iterations()).measurementTime(h.time())
                .jvmArgsAppend(h.jvmArgs())
                .shouldFailOnError(true)
                .verbosity(verbose ? VerboseMode.NORMAL : VerboseMode.SILENT);
        h.params().forEach((k, v) -> options.param(k, v.split(",")));
        if (!side.isEmpty()) {
            options.param("scheduler", side);
        }
        return new Runner(options.build()).run();
    }

    /** The innermost cause: JMH wraps the benchmark's own exception, as a cause or as a suppressed exception. */
    static String rootCause(Throwable e) {
        Throwable t = e;
        while (true) {
            if (t.getCause() != null) {
                t = t.getCause();
            } else if (t.getSuppressed().length > 0) {
                t = t.getSuppressed()[0];
            } else {
                return t.toString();
            }
        }
    }
}
