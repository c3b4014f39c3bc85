package dev.shuttle.bench;

import dev.shuttle.bench.report.ComparisonTable;
import dev.shuttle.bench.report.JmhResults;
import dev.shuttle.bench.report.Measurement;
import java.util.ArrayList;
import java.util.Collection;
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
 * {@code ./shuttle compare}: a short JMH run of the headline benchmarks on both schedulers (about 3 minutes on 2
 * cores), printed as one table: benchmark, metric, JDK default, Shuttle, Shuttle/JDK and which direction is better.
 * Both sides run with one carrier per processor. Short runs are indicative only; {@code FullRun} is the real one.
 * Pass {@code -v} to see JMH's own output.
 */
public final class QuickCompare {
    /** One headline benchmark: what to run and which of its metrics the table shows. */
    record Headline(String benchmark, Map<String, String> params, Set<String> metrics, int warmups, int iterations,
            TimeValue time, String[] jvmArgs) {
        /** Scheduler benchmarks run one side at a time, so that one side failing still leaves the other's numbers. */
        List<String> sides() {
            return benchmark.startsWith(BenchmarkCatalog.LOCK_PACKAGE)
                    ? List.of("") : List.of(Schedulers.JDK, Schedulers.SHUTTLE);
        }
    }

    private static final String BENCH = "dev.shuttle.bench.";
    private static final String[] JVM_ARGS = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS};
    private static final Set<String> LATENCY = Set.of(Measurement.SCORE, "p50_us", "p99_us", "p999_us", "max_us");

    static List<Headline> headlines() {
        List<Headline> list = new ArrayList<>(List.of(
                new Headline(BENCH + "sched.PingPong.roundTrip", Map.of(), LATENCY, 2, 3, TimeValue.seconds(1),
                        JVM_ARGS),
                new Headline(BENCH + "sched.Skynet.tree", Map.of(), Set.of(Measurement.SCORE), 1, 3,
                        TimeValue.seconds(1), JVM_ARGS),
                new Headline(BENCH + "timer.ParallelTimerLatency.round", Map.of(),
                        Set.of("mean_us", "p99_us", "max_us"), 1, 3, TimeValue.seconds(2), JVM_ARGS),
                new Headline(BENCH + "timer.Tickers.window", Map.of("threads", "10"),
                        Set.of("cpu_us_per_op", "cores_used", "mean_us"), 1, 3, TimeValue.seconds(2), JVM_ARGS),
                new Headline(BENCH + "sched.IdleCpu.idleAfterBurst", Map.of(), Set.of("cores_used"), 1, 2,
                        TimeValue.seconds(2), JVM_ARGS),
                new Headline(BENCH + "sched.Wakeup.pair", Map.of("parallelism", "2", "delayUs", "20"),
                        Set.of(Measurement.SCORE, "cpu_us_per_op"), 1, 3, TimeValue.seconds(1),
                        BenchJvm.withJdkParallelism(2))));
        for (String lock : BenchmarkCatalog.find(BenchmarkCatalog.LOCK_PACKAGE.replace(".", "\\.") + ".*MutexContention.*")) {
            list.add(new Headline(lock, Map.of(), Set.of(Measurement.SCORE), 1, 2, TimeValue.seconds(1), JVM_ARGS));
        }
        return list;
    }

    private QuickCompare() {
    }

    public static void main(String[] args) throws RunnerException {
        boolean verbose = List.of(args).contains("-v");
        long start = System.nanoTime();
        List<Measurement> shown = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (Headline h : headlines()) {
            for (String side : h.sides()) {
                String name = Measurement.shortName(h.benchmark()) + (side.isEmpty() ? "" : " scheduler=" + side);
                System.err.println("QuickCompare: running " + name);
                try {
                    for (Measurement m : JmhResults.fromRunResults(run(h, side, verbose))) {
                        if (h.metrics().contains(m.metric())) {
                            shown.add(m);
                        }
                    }
                } catch (RunnerException e) {
                    failures.add(name + ": " + rootCause(e));
                }
            }
        }
        ComparisonTable table = new ComparisonTable(shown);
        System.out.println();
        System.out.print(table.toText());
        for (Measurement m : table.unpaired()) {
            System.out.println(m.benchmark() + " " + m.params() + " " + m.metric() + ": "
                    + ComparisonTable.format(m.value()) + " " + m.unit());
        }
        System.out.printf(Locale.ROOT, "%nShort runs on %d processors, %.0f s; indicative only. Full report:"
                + " java -cp scheduler-bench/target/benchmarks.jar dev.shuttle.bench.report.FullRun%n",
                Runtime.getRuntime().availableProcessors(), (System.nanoTime() - start) / 1e9);
        for (String failure : failures) {
            System.out.println("FAILED " + failure);
        }
        if (!failures.isEmpty()) {
            System.exit(1);
        }
    }

    private static Collection<RunResult> run(Headline h, String side, boolean verbose) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(BenchmarkCatalog.exactly(h.benchmark()))
                .forks(1)
                .warmupIterations(h.warmups()).warmupTime(TimeValue.seconds(1))
                .measurementIterations(h.iterations()).measurementTime(h.time())
                .jvmArgsAppend(h.jvmArgs())
                .shouldFailOnError(true)
                .verbosity(verbose ? VerboseMode.NORMAL : VerboseMode.SILENT);
        h.params().forEach(options::param);
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
