package dev.shuttle.bench.report;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.BenchmarkCatalog;
import dev.shuttle.bench.server.ServerBench;
import dev.shuttle.bench.server.ServerReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * The full benchmark run and its report. Run from the repository root:
 * <pre>java --add-opens=java.base/java.lang=ALL-UNNAMED -cp scheduler-bench/target/benchmarks.jar \
 *     dev.shuttle.bench.report.FullRun [--short] [--no-go] [--no-server] [--report-only] [--note TEXT]</pre>
 * <ol>
 *   <li>every benchmark with its annotated settings, except Wakeup and {@code juc}, to
 *       {@code results/jmh-main.json};</li>
 *   <li>the {@code juc} benchmarks, each fork carrying Shuttle's agent ({@link BenchJvm#agent}), to
 *       {@code results/jmh-juc.json};</li>
 *   <li>Wakeup once per parallelism 2, 8, 32, 64, each fork given the same
 *       {@code -Djdk.virtualThreadScheduler.parallelism}, to {@code results/jmh-wakeup-P.json};</li>
 *   <li>Go's benchmarks for the same scenarios ({@link GoBench#commands()}) when Go is installed;</li>
 *   <li>the real-server benchmark ({@link ServerBench}), {@value #SERVER_ROUNDS} rounds, its section to
 *       {@code results/server.md};</li>
 *   <li>{@code docs/benchmarks.md} and its charts under {@code docs/benchmarks/}.</li>
 * </ol>
 * {@code --short} runs one short iteration per benchmark, to check the pipeline, not to measure;
 * {@code --report-only} rebuilds the report from the results directory. Results go to
 * {@code scheduler-bench/target/bench-results}.
 */
public final class FullRun {
    static final int[] WAKEUP_PARALLELISM = {2, 8, 32, 64};
    private static final Path RESULTS = Path.of("scheduler-bench", "target", "bench-results");
    private static final Path DOCS = Path.of("docs");
    private static final String JUC = BenchJvm.AGENT_PACKAGE.replace(".", "\\.") + ".*";
    private static final String SERVER_SECTION = "server.md";
    /**
     * Rounds of the real-server benchmark in a full run: one run's p99 moves several-fold between identical runs on
     * a shared machine, and three is the fewest that give a median and a range beside it.
     */
    static final int SERVER_ROUNDS = 3;

    private FullRun() {
    }

    public static void main(String[] args) throws Exception {
        List<String> argList = List.of(args);
        boolean shortRun = argList.contains("--short");
        int noteAt = argList.indexOf("--note");
        String note = noteAt >= 0 && noteAt + 1 < args.length ? args[noteAt + 1] : "";
        List<String> notes = new ArrayList<>();
        long start = System.nanoTime();
        if (!argList.contains("--report-only")) {
            Files.createDirectories(RESULTS);
            try (Stream<Path> old = Files.list(RESULTS)) {
                for (Path p : old.toList()) {
                    Files.delete(p);
                }
            }
            runJmh(shortRun);
            if (!argList.contains("--no-go")) {
                notes.addAll(runGo());
            }
            if (!argList.contains("--no-server")) {
                notes.addAll(runServer(shortRun));
            }
        }
        if (shortRun) {
            notes.add("--short run: one 100 ms iteration per benchmark; checks the pipeline, not a measurement.");
        }
        String command = "./shuttle report " + String.join(" ", args)
                + "   (java --add-opens=java.base/java.lang=ALL-UNNAMED --enable-native-access=ALL-UNNAMED"
                + " -cp scheduler-bench/target/benchmarks.jar dev.shuttle.bench.report.FullRun)";
        writeReport(command.strip(), note, notes);
        System.out.printf("FullRun: wrote %s in %.0f s%n", DOCS.resolve("benchmarks.md"),
                (System.nanoTime() - start) / 1e9);
    }

    private static void runJmh(boolean shortRun) throws RunnerException {
        ChainedOptionsBuilder main = options(shortRun)
                .include("dev\\.shuttle\\.bench\\..*")
                .exclude("dev\\.shuttle\\.bench\\.sched\\.Wakeup\\..*")
                .exclude(JUC)
                .result(RESULTS.resolve("jmh-main.json").toString());
        new Runner(main.build()).run();
        ChainedOptionsBuilder juc = options(shortRun)
                .include(JUC)
                .jvmArgsPrepend(BenchJvm.agent())
                .result(RESULTS.resolve("jmh-juc.json").toString());
        new Runner(juc.build()).run();
        for (int p : WAKEUP_PARALLELISM) {
            ChainedOptionsBuilder wakeup = options(shortRun)
                    .include("dev\\.shuttle\\.bench\\.sched\\.Wakeup\\..*")
                    .param("parallelism", Integer.toString(p))
                    .jvmArgsAppend(BenchJvm.withJdkParallelism(p))
                    .result(RESULTS.resolve("jmh-wakeup-" + p + ".json").toString());
            new Runner(wakeup.build()).run();
        }
    }

    /** JSON results; a failing benchmark is reported and skipped rather than ending the whole run. */
    private static ChainedOptionsBuilder options(boolean shortRun) {
        ChainedOptionsBuilder options = new OptionsBuilder().resultFormat(ResultFormatType.JSON)
                .shouldFailOnError(false);
        if (shortRun) {
            options.forks(1).warmupIterations(0).measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(100)).param("size", "10000").param("threads", "10")
                    .param("load", "300us/2");
        }
        return options;
    }

    /** The real-server benchmark; its section of the report goes to {@value #SERVER_SECTION} in the results. */
    private static List<String> runServer(boolean shortRun) {
        ServerBench.Settings settings = shortRun ? ServerBench.SMOKE : ServerBench.FULL.withRounds(SERVER_ROUNDS);
        try {
            ServerBench.Results results = ServerBench.run(settings);
            Path plotDir = DOCS.resolve(ReportWriter.FILE_DIR);
            Files.createDirectories(plotDir);
            for (Map.Entry<String, String> e : ServerReport.plots(results).entrySet()) {
                Files.writeString(plotDir.resolve(e.getKey()), e.getValue());
            }
            Files.writeString(RESULTS.resolve(SERVER_SECTION), ServerReport.markdown(results,
                    "./shuttle report (FullRun runs dev.shuttle.bench.server.ServerBench"
                            + (shortRun ? " --smoke" : " --rounds " + settings.rounds()) + ")", ReportWriter.FILE_DIR));
            return List.of();
        } catch (IOException | InterruptedException | RuntimeException e) {
            return List.of("The real-server benchmark failed: " + e);
        }
    }

    private static List<String> runGo() {
        List<String> notes = new ArrayList<>();
        var go = GoBench.goTool();
        if (go.isEmpty()) {
            notes.add("Go is not installed: no Go reference column.");
            return notes;
        }
        int n = 0;
        for (GoBench.Command c : GoBench.commands()) {
            System.out.println("FullRun: go test " + String.join(" ", c.args()) + " in src/" + c.dir());
            try {
                String out = GoBench.run(go.get(), c, 30);
                Files.writeString(RESULTS.resolve("go-" + (n++) + ".txt"), out);
            } catch (IOException | InterruptedException e) {
                notes.add("Go run failed (src/" + c.dir() + " " + String.join(" ", c.args()) + "): "
                        + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        return notes;
    }

    private static void writeReport(String command, String note, List<String> notes) throws IOException {
        List<Measurement> measurements = new ArrayList<>();
        List<GoBench.Result> go = new ArrayList<>();
        String jvm = "unknown";
        try (Stream<Path> files = Files.list(RESULTS)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                String text = Files.readString(f, StandardCharsets.UTF_8);
                if (name.startsWith("jmh-") && name.endsWith(".json") && !text.isBlank()) {
                    measurements.addAll(JmhResults.fromJson(text));
                    jvm = jvm.equals("unknown") ? JmhResults.jvm(text) : jvm;
                } else if (name.startsWith("go-")) {
                    go.addAll(GoBench.parse(text));
                }
            }
        }
        int expected = BenchmarkCatalog.find("dev\\.shuttle\\.bench\\..*").size();
        long produced = measurements.stream().map(m -> m.benchmark()).distinct().count();
        if (produced < expected) {
            notes.add((expected - produced) + " of " + expected + " benchmarks produced no result at all; see the"
                    + " run's log.");
        }
        Map<String, String> plots = Plots.all(measurements);
        Path plotDir = DOCS.resolve(ReportWriter.FILE_DIR);
        Files.createDirectories(plotDir);
        for (Map.Entry<String, String> e : plots.entrySet()) {
            Files.writeString(plotDir.resolve(e.getKey()), e.getValue());
        }
        int procs = Runtime.getRuntime().availableProcessors();
        String date = ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        ReportWriter.Context ctx = new ReportWriter.Context(command, date, jvm, Machine.describe(), note);
        Path server = RESULTS.resolve(SERVER_SECTION);
        String serverSection = Files.exists(server) ? "\n" + Files.readString(server) : "";
        Files.writeString(DOCS.resolve("benchmarks.md"),
                ReportWriter.markdown(ctx, measurements, new GoReference(go, procs), go, plots, notes)
                        + serverSection);
    }
}
