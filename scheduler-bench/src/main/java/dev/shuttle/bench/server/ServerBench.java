package dev.shuttle.bench.server;

import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.Schedulers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real-server benchmark: {@link ServerApp} in a child JVM, first on the JDK's default scheduler, then on Shuttle
 * through its agent, each loaded from this JVM by {@link LoadGenerator} on 127.0.0.1. Per endpoint: a closed-loop
 * warm-up, the maximum throughput (closed loop), then open-loop runs at fixed fractions of the JDK default's
 * maximum, the same rates for both schedulers. Server CPU per request is read from the server's own process clock
 * ({@code /cpu}) around each run; the generator's from this process's.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp scheduler-bench/target/benchmarks.jar \
 *     dev.shuttle.bench.server.ServerBench [--smoke] [--out FILE] [--endpoint PATH]... [--server-arg FLAG]...</pre>
 *
 * {@code --endpoint} (repeatable) runs only the endpoints named by path, e.g. {@code /lock/reentrant};
 * {@code --server-arg} (repeatable) adds a JVM flag to both servers alike, e.g. to profile them:
 * {@code --server-arg -XX:StartFlightRecording=filename=/tmp/server-%p.jfr}.
 */
public final class ServerBench {
    /** How long each phase runs and at which fractions of the JDK's maximum the latency is measured. */
    public record Settings(String name, long warmupNanos, long maxNanos, long stepNanos, double[] loads,
            int connections) {
        String describe() {
            return String.format(java.util.Locale.ROOT, "%d connections; per endpoint %.1f s closed-loop warm-up,"
                    + " %.1f s closed loop for the maximum, %.1f s per open-loop load step", connections,
                    warmupNanos / 1e9, maxNanos / 1e9, stepNanos / 1e9);
        }
    }

    public static final Settings FULL = new Settings("full", seconds(6), seconds(5), seconds(5),
            new double[] {0.25, 0.5, 0.75}, 64);
    /** A few seconds per server: that every endpoint answers on both schedulers, not a measurement. */
    public static final Settings SMOKE = new Settings("smoke", millis(200), millis(300), millis(300),
            new double[] {0.5}, 8);

    /** One load run: the closed-loop maximum ({@code load} 0) or an open-loop step at a fraction of the JDK's. */
    public record Run(Endpoint endpoint, String scheduler, double load, double offeredRate,
            LoadGenerator.Result result, long serverCpuNanos) {
        double serverCpuMicrosPerRequest() {
            return result.completed() == 0 ? Double.NaN : serverCpuNanos / 1e3 / result.completed();
        }

        double generatorCpuMicrosPerRequest() {
            return result.completed() == 0 ? Double.NaN : result.generatorCpuNanos() / 1e3 / result.completed();
        }
    }

    /** Everything one benchmark run measured, and the server command lines. */
    public record Results(Settings settings, List<Run> runs, Map<String, String> commands) {
    }

    private ServerBench() {
    }

    public static void main(String[] args) throws Exception {
        List<String> list = List.of(args);
        Settings settings = list.contains("--smoke") ? SMOKE : FULL;
        List<Endpoint> endpoints = new ArrayList<>();
        List<String> serverArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            boolean hasValue = i + 1 < args.length;
            if (args[i].equals("--endpoint") || args[i].equals("--server-arg")) {
                if (!hasValue) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                if (args[i].equals("--endpoint")) {
                    endpoints.add(Endpoint.ofPath(args[++i]));
                } else {
                    serverArgs.add(args[++i]);
                }
            }
        }
        Results results = run(settings, endpoints.isEmpty() ? List.of(Endpoint.values()) : endpoints, serverArgs);
        String markdown = ServerReport.markdown(results, "java -cp scheduler-bench/target/benchmarks.jar "
                + ServerBench.class.getName() + " " + String.join(" ", args), null);
        int out = list.indexOf("--out");
        if (out >= 0 && out + 1 < args.length) {
            Files.writeString(Path.of(args[out + 1]), markdown);
        } else {
            System.out.print(markdown);
        }
    }

    /** Runs every endpoint on both schedulers, with the servers' flags as {@link ServerProcess} sets them. */
    public static Results run(Settings settings) throws IOException, InterruptedException {
        return run(settings, List.of(Endpoint.values()), List.of());
    }

    /**
     * Runs the given endpoints on both schedulers, each server with {@code serverArgs} added to its JVM flags.
     *
     * @throws IllegalStateException if a server ran on the wrong scheduler, or a run completed no request or had
     *     errors
     */
    public static Results run(Settings settings, List<Endpoint> endpoints, List<String> serverArgs)
            throws IOException, InterruptedException {
        // This process's own threads (the generator's) get the same slack whichever server they load.
        SchedulerSlack.lowerCurrentThread();
        List<Run> runs = new ArrayList<>();
        Map<String, String> commands = new java.util.LinkedHashMap<>();
        Map<Endpoint, Double> jdkMax = new EnumMap<>(Endpoint.class);
        for (String scheduler : List.of(Schedulers.JDK, Schedulers.SHUTTLE)) {
            try (ServerProcess server = ServerProcess.start(scheduler.equals(Schedulers.SHUTTLE), serverArgs);
                    HttpConnection control = new HttpConnection(server.port(), 5_000)) {
                commands.put(scheduler, server.commandLine());
                String actual = control.get("/info");
                if (!actual.equals(scheduler)) {
                    throw new IllegalStateException("the " + scheduler + " server runs its virtual threads on "
                            + actual + ": " + server.commandLine());
                }
                LoadGenerator load = new LoadGenerator(server.port(), settings.connections());
                for (Endpoint endpoint : endpoints) {
                    System.err.println("ServerBench: " + scheduler + " " + endpoint.path());
                    check(load.closedLoop(endpoint, settings.warmupNanos()), scheduler, endpoint, "warm-up");
                    Run max = measure(control, endpoint, scheduler, 0, 0,
                            () -> load.closedLoop(endpoint, settings.maxNanos()));
                    runs.add(max);
                    if (scheduler.equals(Schedulers.JDK)) {
                        jdkMax.put(endpoint, max.result().completedPerSecond());
                    }
                    for (double fraction : settings.loads()) {
                        double rate = fraction * jdkMax.get(endpoint);
                        runs.add(measure(control, endpoint, scheduler, fraction, rate,
                                () -> load.openLoop(endpoint, rate, settings.stepNanos())));
                    }
                }
                String wrongSlack = control.get("/slack");
                if (!wrongSlack.isEmpty()) {
                    throw new IllegalStateException("the " + scheduler + " server's scheduler threads with another"
                            + " timer slack, so the comparison would not be like for like: " + wrongSlack);
                }
            }
        }
        return new Results(settings, runs, commands);
    }

    private interface LoadRun {
        LoadGenerator.Result run() throws InterruptedException;
    }

    private static Run measure(HttpConnection control, Endpoint endpoint, String scheduler, double load, double rate,
            LoadRun loadRun) throws IOException, InterruptedException {
        long cpu0 = Long.parseLong(control.get("/cpu"));
        LoadGenerator.Result result = loadRun.run();
        long cpu = Long.parseLong(control.get("/cpu")) - cpu0;
        check(result, scheduler, endpoint, load == 0 ? "maximum" : "load " + load);
        return new Run(endpoint, scheduler, load, rate, result, cpu);
    }

    private static void check(LoadGenerator.Result r, String scheduler, Endpoint endpoint, String phase) {
        if (r.completed() == 0 || r.errors() > 0) {
            throw new IllegalStateException(scheduler + " " + endpoint.path() + " " + phase + ": " + r.completed()
                    + " requests completed, " + r.errors() + " failed");
        }
    }

    private static long seconds(long s) {
        return TimeUnit.SECONDS.toNanos(s);
    }

    private static long millis(long ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }
}
