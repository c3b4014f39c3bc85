package dev.shuttle.bench.server;

import dev.shuttle.bench.metrics.ThreadSwitches;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Does a carrier take the core from the platform thread that feeds it? Request/response through the JDK
 * {@code HttpServer}'s dispatcher thread at low load ({@link LowLoadApp}: one or a few requests in flight), each run in
 * a JVM of its own, on the JDK's default scheduler and on Shuttle through its agent (and, given {@code --baseline}, on
 * other builds of Shuttle), the order rotating from round to round. Per request it reports the carriers' voluntary
 * and involuntary context switches, those of the JDK's poller and the dispatcher, process CPU, the share of answers
 * that reached the client before their handler's last statement had run, and Shuttle's scheduler counters; each
 * Shuttle/JDK comparison as the median of the per-round ratios with its 95 % interval ({@link RatioInterval}).
 *
 * <p>Usage: {@code java -cp scheduler-bench/target/benchmarks.jar dev.shuttle.bench.server.LowLoadBench
 * [--rounds N] [--requests N] [--warmup N] [--clients 1,4] [--baseline DIR]}, from the repository root (the agent is
 * found as for the server benchmark). Each {@code --baseline DIR} adds a configuration, named as DIR, whose Shuttle
 * classes come from the {@code scheduler-core*.jar} and {@code scheduler-timers*.jar} in DIR, for a build-to-build
 * comparison.
 */
public final class LowLoadBench {
    private static final long RUN_TIMEOUT_SECONDS = 300;

    private record Config(String name, List<String> flags, String classPath) {
    }

    private LowLoadBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = 5;
        int requests = 20_000;
        int warmup = 10_000;
        List<Integer> clientCounts = List.of(1, 4);
        List<Path> baselines = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--rounds" -> rounds = AlternatedRounds.positive(args[i], value);
                case "--requests" -> requests = AlternatedRounds.positive(args[i], value);
                case "--warmup" -> warmup = AlternatedRounds.positive(args[i], value);
                case "--clients" -> clientCounts = AlternatedRounds.positives(args[i], value);
                case "--baseline" -> baselines.add(Path.of(AlternatedRounds.require(args[i], value)));
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: LowLoadBench [--rounds N] [--requests N] [--warmup N] [--clients 1,4]"
                        + " [--baseline DIR]");
            }
            i++;
        }
        System.out.print(run(rounds, requests, warmup, clientCounts, baselines));
    }

    /**
     * Runs every configuration {@code rounds} times at each of {@code clientCounts} and returns the report.
     *
     * @throws IllegalStateException if a run fails, or a Shuttle configuration's requests did not run on Shuttle
     */
    public static String run(int rounds, int requests, int warmup, List<Integer> clientCounts, List<Path> baselines)
            throws Exception {
        if (!ThreadSwitches.available()) {
            throw new IllegalStateException("LowLoadBench reads /proc/self/task: Linux only");
        }
        List<Config> configs = configs(baselines);
        Map<Integer, Map<String, List<Map<String, Double>>>> results = AlternatedRounds.rotate(rounds, clientCounts,
                configs, Config::name, "clients", (config, clients) -> {
                    Map<String, Double> run = perRequest(run(config, clients, warmup, requests));
                    boolean onShuttle = run.getOrDefault("mx.TasksRun", 0.0) > 0;
                    if (onShuttle != !config.name().equals("jdk")) {
                        throw new IllegalStateException(config.name() + "'s requests ran "
                                + (onShuttle ? "on Shuttle" : "without Shuttle's JVM-wide scheduler"));
                    }
                    return run;
                });
        return report(results, configs, rounds, requests);
    }

    private static List<Config> configs(List<Path> baselines) throws IOException {
        String benchJar = System.getProperty("java.class.path");
        List<Config> configs = new ArrayList<>();
        configs.add(new Config("jdk", List.of(), benchJar));
        configs.add(new Config("shuttle", ServerProcess.shuttleFlags(), benchJar));
        for (Path baseline : baselines) {
            Path core = jarIn(baseline, "scheduler-core");
            Path timers = jarIn(baseline, "scheduler-timers");
            configs.add(new Config(baseline.getFileName().toString(), List.of("-javaagent:" + core.toAbsolutePath(),
                    "-Djdk.virtualThreadScheduler.implClass=dev.shuttle.scheduler.ShuttleScheduler"),
                    core.toAbsolutePath() + File.pathSeparator + timers.toAbsolutePath() + File.pathSeparator
                            + benchJar));
        }
        return configs;
    }

    private static Path jarIn(Path dir, String artifact) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().matches(artifact + "-[^-]+(-SNAPSHOT)?\\.jar"))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("--baseline " + dir + " holds no "
                            + artifact + "-<version>.jar"));
        }
    }

    /** Runs one child JVM and returns its RESULT pairs. */
    private static Map<String, Long> run(Config config, int clients, int warmup, int requests) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ServerProcess.commonFlags());
        command.addAll(config.flags());
        command.addAll(List.of("-cp", config.classPath(), LowLoadApp.class.getName(), Integer.toString(clients),
                Integer.toString(warmup), Integer.toString(requests)));
        return AlternatedRounds.runChild(config.name(), command, RUN_TIMEOUT_SECONDS);
    }

    /** The run's counts per request; CPU in µs, the early answers in percent. */
    private static Map<String, Double> perRequest(Map<String, Long> raw) {
        double n = raw.get("requests");
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("cpuMicros", raw.get("cpuNanos") / 1e3 / n);
        m.put("tailUnfinishedPercent", 100.0 * raw.get("tailUnfinished") / n);
        m.put("movedInClosePercent", 100.0 * raw.get("movedInClose") / n);
        m.put("slowClosePercent", 100.0 * raw.get("slowClose") / n);
        m.put("requestsPerSecond", n * 1e9 / raw.get("elapsedNanos"));
        raw.forEach((name, value) -> {
            if (name.endsWith("Voluntary") || name.endsWith("Involuntary") || name.startsWith("mx.")) {
                m.put(name, value / n);
            }
        });
        return m;
    }

    private static String report(Map<Integer, Map<String, List<Map<String, Double>>>> results, List<Config> configs,
            int rounds, int requests) {
        String heading = String.format(Locale.ROOT, "LowLoadBench: %d rounds of %d measured requests per configuration;"
                + " values per request, median [lowest, highest] over the rounds; ratio = median of the per-round"
                + " ratios to jdk with its 95 %% bootstrap interval (a verdict needs %d rounds)%n", rounds, requests,
                RatioInterval.MIN_ROUNDS);
        return AlternatedRounds.report(heading, results, configs.stream().map(Config::name).toList());
    }
}
