package dev.shuttle.bench;

import dev.shuttle.bench.server.EchoBench;
import dev.shuttle.bench.server.Endpoint;
import dev.shuttle.bench.server.Framework;
import dev.shuttle.bench.server.LowLoadBench;
import dev.shuttle.bench.server.PollerTickersBench;
import dev.shuttle.bench.server.ServerBench;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * What CI runs: every benchmark in the jar (including {@code dev.shuttle.bench.lock} when present), one fork, no
 * warmup, one 100 ms iteration, with the smallest sizes where the defaults are large, then the real-server benchmark
 * with its smoke settings on each server framework, Helidon and the JDK's HttpServer, once with Shuttle's network poll
 * at its default and once with {@code -Dshuttle.netpoll=off} (a few seconds per scheduler and server, each its own
 * line), {@code LowLoadBench} with a few hundred requests (which fails if a Shuttle run's
 * requests did not run on Shuttle), {@code EchoBench} with a few hundred round trips (which fails the same way, or
 * if an echo is lost) and {@code PollerTickersBench} for a second (which fails the same way, or if the pollers are
 * driven by others than the configuration says). A benchmark fails if JMH reports an error or it produces no result; a server fails if
 * its requests run on the wrong scheduler or any request fails. Ends with {@code SmokeRun: N passed, M failed} and exits 1 on any
 * failure.
 */
public final class SmokeRun {
    /** Smaller parameter values for benchmarks whose defaults are large, keyed by benchmark class. */
    private static final Map<String, Map<String, String>> SMALL = Map.of(
            "dev.shuttle.bench.sched.Skynet", Map.of("size", "10000"),
            "dev.shuttle.bench.sched.Wakeup", Map.of("delayUs", "20"),
            "dev.shuttle.bench.timer.Tickers", Map.of("threads", "10"),
            "dev.shuttle.bench.timer.StaggeredTickerLatency", Map.of("load", "300us/2"),
            // One channel kind each (the benchmark code is the same for all; ChannelTest covers every kind): one
            // fork per kind and scheduler made each of these two take 13-35 s.
            "dev.shuttle.bench.juc.ChannelPingPong", Map.of("channel", "Exchanger"),
            "dev.shuttle.bench.juc.ChannelProducerConsumer", Map.of("pairs", "2", "channel", "LinkedBlockingQueue"),
            "dev.shuttle.bench.juc.LockHandoff", Map.of("threads", "8"),
            "dev.shuttle.bench.juc.SkynetChannels", Map.of("size", "1000"));

    private SmokeRun() {
    }

    public static void main(String[] args) {
        List<String> benchmarks = BenchmarkCatalog.find("dev\\.shuttle\\.bench\\..*");
        int passed = 0;
        int failed = 0;
        long start = System.nanoTime();
        for (String benchmark : benchmarks) {
            String type = benchmark.substring(0, benchmark.lastIndexOf('.'));
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include(BenchmarkCatalog.exactly(benchmark))
                    .forks(1)
                    .warmupIterations(0)
                    .measurementIterations(1).measurementTime(TimeValue.milliseconds(100))
                    .timeout(TimeValue.seconds(60))
                    .shouldFailOnError(true)
                    .verbosity(VerboseMode.SILENT);
            SMALL.getOrDefault(type, Map.of()).forEach(options::param);
            if (BenchJvm.wantsAgent(type)) {
                options.jvmArgsPrepend(BenchJvm.agent());
            }
            long t0 = System.nanoTime();
            String outcome;
            try {
                Collection<RunResult> results = new Runner(options.build()).run();
                if (results.isEmpty()) {
                    throw new IllegalStateException("no results");
                }
                passed++;
                outcome = "ok";
            } catch (Exception e) {
                failed++;
                outcome = "FAILED: " + QuickCompare.rootCause(e);
            }
            System.out.printf("SmokeRun: %-60s %-4s %5.1f s%s%n", benchmark, outcome.startsWith("ok") ? "ok" : "",
                    (System.nanoTime() - t0) / 1e9, outcome.startsWith("ok") ? "" : " " + outcome);
        }
        // Each server with Shuttle's network poll at its default (on) and off: both paths must serve every endpoint.
        List<List<String>> netpoll = List.of(List.of(), List.of("-Dshuttle.netpoll=off"));
        for (Framework framework : Framework.values()) {
            for (List<String> serverArgs : netpoll) {
                if (serverSmoke(framework, serverArgs)) {
                    passed++;
                } else {
                    failed++;
                }
            }
        }
        boolean[] lowLoad = {
            smoke("server.LowLoadBench (400 requests)", () -> LowLoadBench.run(1, 400, 200, List.of(1, 2), List.of())),
            smoke("server.EchoBench (400 round trips)",
                    () -> EchoBench.run(EchoBench.Args.parse("--rounds", "1", "--round-trips", "400", "--warmup",
                            "200"))),
            smoke("server.PollerTickersBench (10 sleepers, 1 s)",
                    () -> PollerTickersBench.run(PollerTickersBench.Args.parse("--rounds", "1", "--warmup", "1",
                            "--measure", "1")))};
        for (boolean ok : lowLoad) {
            if (ok) {
                passed++;
            } else {
                failed++;
            }
        }
        System.out.printf("SmokeRun: %d benchmarks in %.0f s%n",
                benchmarks.size() + netpoll.size() * Framework.values().length + lowLoad.length,
                (System.nanoTime() - start) / 1e9);
        System.out.println("SmokeRun: " + passed + " passed, " + failed + " failed");
        System.exit(failed == 0 && passed > 0 ? 0 : 1);
    }

    interface Run {
        Object run() throws Exception;
    }

    /** Runs one benchmark outside JMH and prints its {@code SmokeRun:} line; returns whether it ran without failing. */
    private static boolean smoke(String name, Run run) {
        long t0 = System.nanoTime();
        String failure = null;
        try {
            run.run();
        } catch (Exception e) {
            failure = "FAILED: " + QuickCompare.rootCause(e);
        }
        System.out.printf("SmokeRun: %-60s %-4s %5.1f s%s%n", name, failure == null ? "ok" : "",
                (System.nanoTime() - t0) / 1e9, failure == null ? "" : " " + failure);
        return failure == null;
    }

    /** One server's smoke run on every endpoint, both schedulers, {@code serverArgs} added to its JVM flags. */
    private static boolean serverSmoke(Framework framework, List<String> serverArgs) {
        long t0 = System.nanoTime();
        String outcome;
        String lost = "";
        try {
            ServerBench.Results results = ServerBench.run(ServerBench.SMOKE, List.of(framework),
                    List.of(Endpoint.values()), serverArgs);
            outcome = "ok";
            // Shown, not failed on: a real server may drop a request under load, and the report counts those.
            lost = results.failures() == 0 ? "" : " (" + results.failures() + " requests failed or timed out)";
        } catch (Exception e) {
            outcome = "FAILED: " + QuickCompare.rootCause(e);
        }
        System.out.printf("SmokeRun: %-60s %-4s %5.1f s%s%n", "server.ServerBench --server " + framework.id()
                + (serverArgs.isEmpty() ? "" : " --server-arg " + serverArgs.get(0)) + " (smoke settings)",
                outcome.equals("ok") ? "ok" : "", (System.nanoTime() - t0) / 1e9,
                outcome.equals("ok") ? lost : " " + outcome);
        return outcome.equals("ok");
    }
}
