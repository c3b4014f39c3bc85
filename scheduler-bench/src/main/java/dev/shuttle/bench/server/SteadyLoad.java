package dev.shuttle.bench.server;

import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.Schedulers;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * One server on one scheduler held at one request rate, for a profiler to attach to: {@link ServerBench} compares the
 * two schedulers step by step, this holds one still long enough to see where its time goes. The server starts as the
 * benchmark starts it (same flags, heap, timer slack, {@code --server-arg}s added), is warmed closed loop, then loaded
 * open loop at {@code --rate} for {@link #SETTLE_NANOS} before the measured window, so that what a profiler records
 * is the steady state at that rate and not the change to it. When the window starts the server's process id goes to
 * {@code --pid-file} (and standard error); when it ends, the same figures as a step of the benchmark go to standard
 * output: latency from each request's intended start, server and generator CPU per request, the lock's wait and hold
 * for a lock endpoint and, on Shuttle, its scheduler's counters per request.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp scheduler-bench/target/benchmarks.jar \
 *     dev.shuttle.bench.server.SteadyLoad --server jdk --scheduler shuttle --endpoint /lock/spinbit --rate 14800 \
 *     --pid-file /tmp/server.pid \
 *     --server-arg -XX:+UnlockDiagnosticVMOptions --server-arg -XX:+DumpPerfMapAtExit \
 *     --server-arg -XX:+PreserveFramePointer &amp;
 * while [ ! -s /tmp/server.pid ]; do sleep 0.2; done
 * perf record -F 997 -g -p $(cat /tmp/server.pid) -- sleep 10; wait
 * </pre>
 */
public final class SteadyLoad {
    /**
     * Open loop at the rate before the window, the run's lead-in: long enough for the queues to settle and for the JIT
     * to compile what the closed-loop warm-up never runs, the schedulers' idle and wake-up paths
     * ({@link ServerBench.Settings}), so that the window holds the steady state and not their compilation
     * (docs/design.md, "Measuring a change").
     */
    static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private SteadyLoad() {
    }

    public static void main(String[] args) throws Exception {
        SteadyLoadArgs options;
        try {
            options = SteadyLoadArgs.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("SteadyLoad: " + e.getMessage());
            System.err.println(SteadyLoadArgs.usage());
            System.exit(2);
            return;
        }
        report(run(options, SETTLE_NANOS), System.out);
    }

    /**
     * Runs the server through warm-up, settling and the window, and returns the window's run.
     *
     * @throws IllegalStateException if the server ran its requests on another scheduler than asked, or answered
     *     none of a phase's requests
     * @throws IOException if the server did not start, its control connection failed or the pid file cannot be
     *     written
     */
    static ServerBench.Run run(SteadyLoadArgs o, long settleNanos) throws IOException, InterruptedException {
        // As in ServerBench: the generator's threads, and the server through the process it is started from.
        SchedulerSlack.lowerCurrentThread();
        ServerBench.Pass pass = new ServerBench.Pass(1, o.framework(), o.scheduler());
        try (ServerProcess server = ServerProcess.start(o.framework(), o.scheduler().equals(Schedulers.SHUTTLE),
                o.serverArgs()); HttpConnection control = new HttpConnection(server.port(), 5_000);
                LoadGenerator load = new LoadGenerator(server.port(), ServerBench.FULL.connections(),
                        ServerBench.REQUEST_TIMEOUT_NANOS)) {
            ServerBench.requireScheduler(control, o.scheduler(), pass.which(), server);
            if (o.warmupNanos() > 0) {
                ServerBench.requireAnswers(load.closedLoop(o.endpoint(), o.warmupNanos()), pass.which(),
                        o.endpoint(), "warm-up");
            }
            long pid = server.pid();
            return ServerBench.measure(control, pass, o.endpoint(), ServerBench.ServerThreads.of(pid), Double.NaN,
                    o.rate(),
                    () -> load.openLoop(o.endpoint(), o.rate(), settleNanos, o.nanos(), () -> {
                        if (o.pidFile().isPresent()) {
                            Files.writeString(o.pidFile().get(), pid + "\n");
                        }
                        System.err.printf(Locale.ROOT, "SteadyLoad: server pid %d, measuring %.0f s at %.0f"
                                + " requests/s%n", pid, o.nanos() / 1e9, o.rate());
                    }));
        }
    }

    static void report(ServerBench.Run run, PrintStream out) {
        LoadGenerator.Result r = run.result();
        Histogram h = r.latency();
        out.printf(Locale.ROOT, "%s, %s at %.0f requests/s for %.1f s%n", run.framework().id() + " server on "
                + run.scheduler(), run.endpoint().path(), run.offeredRate(), r.nanos() / 1e9);
        out.printf(Locale.ROOT, "requests: %d completed of %d planned, %d failed, %d timed out%n", r.completed(),
                r.planned(), r.failed(), r.timedOut());
        out.printf(Locale.ROOT, "latency from the intended start, ms: p50 %.3f  p99 %.3f  p99.9 %.3f  max %.3f%n",
                h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6,
                h.getValueAtPercentile(99.9) / 1e6, h.getMaxValue() / 1e6);
        out.printf(Locale.ROOT, "CPU per request, µs: server %.2f  generator %.2f%n", run.serverCpuMicrosPerRequest(),
                run.generatorCpuMicrosPerRequest());
        run.lockTimes().ifPresent(t -> out.printf(Locale.ROOT,
                "lock, µs: wait p50 %.1f p99 %.1f max %.1f  hold p50 %.1f p99 %.1f max %.1f  (%d requests)%n",
                t.waits().p50() / 1e3, t.waits().p99() / 1e3, t.waits().max() / 1e3, t.holds().p50() / 1e3,
                t.holds().p99() / 1e3, t.holds().max() / 1e3, t.holds().count()));
        run.schedulerActivity().ifPresent(a -> out.printf(Locale.ROOT,
                "Shuttle per request: wake-ups %.3f  empty wake-ups %.3f  steals %.3f  parks %.3f%n",
                a.wakeUpsPerRequest(r.completedWithLeadIn()), a.emptyWakeUpsPerRequest(r.completedWithLeadIn()),
                a.stealsPerRequest(r.completedWithLeadIn()), a.parksPerRequest(r.completedWithLeadIn())));
        run.schedulingDelay().ifPresent(d -> out.printf(Locale.ROOT,
                "scheduling delay, µs: p50 %.1f  p99 %.1f  (%d samples)%n", run.delayMicros(50), run.delayMicros(99),
                d.samples()));
        run.switches().ifPresent(c -> out.printf(Locale.ROOT,
                "server context switches per request: %.3f (voluntary %d, involuntary %d)%n",
                run.switchesPerRequest(), c.voluntary(), c.involuntary()));
    }
}
