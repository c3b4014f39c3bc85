package dev.shuttle.bench.server;

import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.Schedulers;
import dev.shuttle.bench.metrics.ProcessSwitches;
import dev.shuttle.bench.metrics.ThreadSwitches;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BinaryOperator;

/**
 * The real-server benchmark: each {@link Framework}'s server (Helidon first) in a child JVM, first on the JDK's default
 * scheduler, then on Shuttle through its agent, each loaded from this JVM by {@link LoadGenerator} on 127.0.0.1. Per
 * endpoint: a closed-loop warm-up, the maximum throughput (closed loop), then open-loop runs at fixed fractions of the
 * JDK default's maximum on that framework, the same rates for both schedulers, each after a lead-in at its rate.
 * Server CPU per request is read from the server's own process clock ({@code /cpu}) around each run; the generator's
 * from this process's. On the lock endpoints the server also times, in each request's handler, the wait for the lock
 * and the hold of it ({@link TimedLock}), and each run reads its own ({@code /locks}, reset before the run): the
 * end-to-end latency mixes in the generator and the OS, the handler's times say how much of it is spent at the lock.
 * On Shuttle each run also reads the scheduler's counters around it ({@code /scheduler}), so the report can say where
 * Shuttle's CPU went. After an endpoint's steps, a profiled run at {@link Settings#profileLoad} samples the server's
 * Java code ({@link JavaSampler}), so the report can say where each scheduler's server spent its CPU.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp scheduler-bench/target/benchmarks.jar \
 *     dev.shuttle.bench.server.ServerBench [--smoke] [--rounds N] [--out FILE] [--plots DIR]
 *     [--server helidon|jdk]... [--endpoint PATH]... [--server-arg FLAG]... [--request-timeout MS]
 *     [--loads 0.25,0.5]</pre>
 *
 * {@code --rounds} runs all of that N times (by default once), every server in a new JVM each round, the JDK default
 * first in odd rounds and Shuttle first in even ones; every round is loaded at round 1's rates, and the report gives
 * each cell's median over the rounds with its range ({@link RoundSummary}): one run's p99 on a shared machine moves
 * several-fold between identical runs. {@code --server} (repeatable) runs only the named frameworks, by default all of
 * them; {@code --endpoint} (repeatable) runs only the endpoints named by path, e.g. {@code /lock/reentrant};
 * {@code --server-arg} (repeatable) adds a JVM flag to every server alike, e.g. to profile them:
 * {@code --server-arg -XX:StartFlightRecording=filename=/tmp/server-%p.jfr}. {@code --plots} writes the latency
 * against offered load of each framework and endpoint there, as SVG, and links them in the report;
 * {@code --loads} runs the open-loop steps only at these fractions of the JDK default's maximum (by default 25, 50
 * and 75 %), so that a question about one load can take five rounds in the time of two;
 * {@code --request-timeout} is how many milliseconds a request may go unanswered before it counts as timed out (by
 * default 2000, {@link #REQUEST_TIMEOUT_NANOS}; {@link ServerBenchArgs} has the range).
 */
public final class ServerBench {
    /**
     * How long each phase runs, at which fractions of the JDK's maximum the latency is measured, how long a request
     * may go unanswered, from being sent, before it counts as timed out, and how many rounds run. Each open-loop
     * step is led in by {@code leadInNanos} of the same load, not measured: a step that began straight after the
     * run before, at another rate, held far more of its slowest requests in its first 500 ms than in any other 500
     * ms, so its p99 measured the change of rate more than the rate (docs/design.md, "Measuring a change").
     *
     * <p>Between the maximum and the first step, {@code openWarmupNanos} of the first step's load, not measured,
     * completes the warm-up. A closed loop keeps every scheduler thread busy, so the code a scheduler runs when its
     * threads go idle and are woken (Shuttle's park and search, the JDK pool's {@code awaitWork}) is first compiled
     * in the first open-loop step, and its JIT burst (interpreted, then C1, then deoptimised and C2) fell into that
     * step's window, whose p99 then measured the compiler more than the load (docs/design.md, "Measuring a change").
     */
    public record Settings(String name, long warmupNanos, long maxNanos, long openWarmupNanos, long leadInNanos,
            long stepNanos, double[] loads, int connections, long requestTimeoutNanos, int rounds, double profileLoad,
            long profileNanos) {
        /**
         * @throws IllegalArgumentException if {@code rounds} is under 1, there is no load step, or a profiled run is
         *     asked for ({@code profileNanos} above 0) at a load that is not above 0
         */
        public Settings {
            if (rounds < 1) {
                throw new IllegalArgumentException("rounds " + rounds + ": at least 1 is needed");
            }
            if (loads.length == 0) {
                throw new IllegalArgumentException("no open-loop load step: at least one is needed");
            }
            if (profileNanos > 0 && !(profileLoad > 0)) {
                throw new IllegalArgumentException("profiled run at load " + profileLoad + ": must be above 0");
            }
        }

        String describe() {
            String one = String.format(java.util.Locale.ROOT, "%d connections, kept open from run to run; per"
                    + " endpoint %.1f s closed-loop warm-up, %.1f s closed loop for the maximum, %.1f s open loop at"
                    + " the first step's load not measured, %.1f s per open-loop load step after %.1f s of the same"
                    + " load not measured; a request not answered within %.1f s of being sent has timed out",
                    connections, warmupNanos / 1e9, maxNanos / 1e9, openWarmupNanos / 1e9, stepNanos / 1e9,
                    leadInNanos / 1e9, requestTimeoutNanos / 1e9);
            if (profileNanos > 0) {
                one += String.format(java.util.Locale.ROOT, "; then, not in the tables, %.1f s at %.0f%% load after"
                        + " %.1f s of it, with the server's Java code sampled", profileNanos / 1e9, profileLoad * 100,
                        leadInNanos / 1e9);
            }
            return rounds == 1 ? one : one + "; " + rounds + " rounds, the order of the schedulers alternating,"
                    + " every round's open-loop rates from the JDK default's maxima in round 1, which runs it first";
        }

        Settings withRequestTimeout(long nanos) {
            return new Settings(name, warmupNanos, maxNanos, openWarmupNanos, leadInNanos, stepNanos, loads,
                    connections, nanos, rounds, profileLoad, profileNanos);
        }

        /** These settings with the open-loop steps at {@code fractions} of the JDK default's maximum. */
        Settings withLoads(double[] fractions) {
            return new Settings(name, warmupNanos, maxNanos, openWarmupNanos, leadInNanos, stepNanos, fractions.clone(),
                    connections, requestTimeoutNanos, rounds, profileLoad, profileNanos);
        }

        /** These settings run {@code n} rounds. */
        public Settings withRounds(int n) {
            return new Settings(name, warmupNanos, maxNanos, openWarmupNanos, leadInNanos, stepNanos, loads,
                    connections, requestTimeoutNanos, n, profileLoad, profileNanos);
        }
    }

    /**
     * Above the slowest p99.9 these servers have shown (1.2 s, the JDK default's {@code /fanout} at 75% load, and that
     * from the intended start, the generator's queueing included), so a slow answer seldom times out; a stall does:
     * the JDK default's Helidon has left {@code /file} requests unanswered for over 2 s.
     */
    static final long REQUEST_TIMEOUT_NANOS = seconds(2);
    public static final Settings FULL = new Settings("full", seconds(6), seconds(5), seconds(5), seconds(1),
            seconds(5), new double[] {0.25, 0.5, 0.75}, 64, REQUEST_TIMEOUT_NANOS, 1, 0.5, seconds(5));
    /** A few seconds per server: that every endpoint answers on both schedulers, not a measurement. */
    public static final Settings SMOKE = new Settings("smoke", millis(200), millis(300), millis(100), millis(100),
            millis(300), new double[] {0.5}, 8, REQUEST_TIMEOUT_NANOS, 1, 0.5, millis(300));

    /**
     * One load run: the closed-loop maximum ({@code load} 0), an open-loop step at a fraction of the JDK's, or
     * ({@code load} NaN) an open-loop run at a rate given outright ({@link SteadyLoad}), in
     * {@code round} (from 1). {@code lockTimes} are the waits for and holds of the lock that the server timed during
     * this run alone, for an endpoint that {@link Endpoint#takesLock}; empty for the others. {@code schedulerActivity}
     * is what Shuttle's scheduler did during this run; empty on the JDK default. {@code gc} are the server's
     * garbage-collection pauses during this run. {@code schedulingDelay} is the histogram of how long the server's
     * virtual threads waited for a carrier during this run (Shuttle's own, or the measuring agent's on the JDK
     * default; empty if the server has neither), and {@code switches} its threads' context switches during this run
     * (empty where {@code /proc} cannot say).
     */
    public record Run(int round, Framework framework, Endpoint endpoint, String scheduler, double load,
            double offeredRate, LoadGenerator.Result result, long serverCpuNanos, Optional<LockTimes> lockTimes,
            Optional<SchedulerActivity> schedulerActivity, GcPauses gc, Optional<DelayCounts> schedulingDelay,
            Optional<ThreadSwitches.Counts> switches) {
        /** Over the run's lead-in and window, as the server's CPU was read ({@link ServerBench#measure}). */
        double serverCpuMicrosPerRequest() {
            long n = result.completedWithLeadIn();
            return n == 0 ? Double.NaN : serverCpuNanos / 1e3 / n;
        }

        /** The server's context switches, voluntary and involuntary, per request of the lead-in and window. */
        double switchesPerRequest() {
            long n = result.completedWithLeadIn();
            return n == 0 || switches.isEmpty() ? Double.NaN
                    : (switches.get().voluntary() + switches.get().involuntary()) / (double) n;
        }

        /** The {@code percentile}th scheduling delay of the run, in µs; NaN without a sample. */
        double delayMicros(double percentile) {
            return schedulingDelay.map(d -> d.percentileNanos(percentile) / 1e3).orElse(Double.NaN);
        }

        /** Over the run's lead-in and window, as the generator's CPU was read. */
        double generatorCpuMicrosPerRequest() {
            long n = result.completedWithLeadIn();
            return n == 0 ? Double.NaN : result.generatorCpuNanos() / 1e3 / n;
        }
    }

    /** One server JVM's share of a round: a framework on one scheduler, running every endpoint. */
    record Pass(int round, Framework framework, String scheduler) {
        /** How messages name the server. */
        String which() {
            return framework.id() + " server on " + scheduler + " in round " + round;
        }

        /**
         * Whether this pass's maxima set the open-loop rates: the JDK default's in round 1, so that both schedulers
         * and every round are loaded at the same rates.
         */
        boolean setsRates() {
            return round == 1 && scheduler.equals(Schedulers.JDK);
        }
    }

    /**
     * A profiled run: {@code samples} of the server's Java code over {@code requests} requests (lead-in included) at
     * {@code load} of the JDK default's maximum, run after the endpoint's measured steps and not one of them.
     */
    public record Profile(int round, Framework framework, Endpoint endpoint, String scheduler, double load,
            long requests, JavaSamples samples) {
    }

    /**
     * Everything one benchmark run measured, the profiled runs (none unless {@link Settings#profileNanos} is above 0),
     * and the server command lines by framework and scheduler.
     */
    public record Results(Settings settings, List<Run> runs, List<Profile> profiles,
            Map<Framework, Map<String, String>> commands) {
        /** Requests that failed or timed out in the measured runs, warm-ups aside. */
        public long failures() {
            return runs.stream().mapToLong(r -> r.result().failures()).sum();
        }
    }

    private ServerBench() {
    }

    public static void main(String[] args) throws Exception {
        ServerBenchArgs options = ServerBenchArgs.parse(args);
        Results results = run(options.settings(), options.frameworks(), options.endpoints(), options.serverArgs());
        String plotLink = null;
        if (options.plots().isPresent()) {
            Path dir = options.plots().get();
            Files.createDirectories(dir);
            for (Map.Entry<String, String> plot : ServerReport.plots(results).entrySet()) {
                Files.writeString(dir.resolve(plot.getKey()), plot.getValue());
            }
            plotLink = options.plotLink();
        }
        String markdown = ServerReport.markdown(results, "java -cp scheduler-bench/target/benchmarks.jar "
                + ServerBench.class.getName() + " " + String.join(" ", args), plotLink);
        if (options.out().isPresent()) {
            Files.writeString(options.out().get(), markdown);
        } else {
            System.out.print(markdown);
        }
    }

    /**
     * Runs every endpoint of every framework on both schedulers, with the servers' flags as {@link ServerProcess} sets
     * them.
     */
    public static Results run(Settings settings) throws IOException, InterruptedException {
        return run(settings, List.of(Framework.values()), List.of(Endpoint.values()), List.of());
    }

    /**
     * Runs the given endpoints of the given frameworks on both schedulers, in the order {@link #passes} gives, each
     * server with {@code serverArgs} added to its JVM flags. Requests that fail or time out are counted in their run's
     * result, and the benchmark goes on.
     *
     * @throws IllegalStateException if a server ran its requests on the wrong scheduler (or not on virtual threads),
     *     or a run completed no request at all
     * @throws IOException if a server's control connection failed
     */
    public static Results run(Settings settings, List<Framework> frameworks, List<Endpoint> endpoints,
            List<String> serverArgs) throws IOException, InterruptedException {
        // This process's own threads (the generator's) get the same slack whichever server they load.
        SchedulerSlack.lowerCurrentThread();
        List<Run> runs = new ArrayList<>();
        List<Profile> profiles = new ArrayList<>();
        Map<Framework, Map<String, String>> commands = new EnumMap<>(Framework.class);
        Map<Framework, Map<Endpoint, Double>> jdkMax = new EnumMap<>(Framework.class);
        for (Pass pass : passes(settings.rounds(), frameworks)) {
            runPass(settings, pass, endpoints, serverArgs, runs, profiles,
                    commands.computeIfAbsent(pass.framework(), f -> new LinkedHashMap<>()),
                    jdkMax.computeIfAbsent(pass.framework(), f -> new EnumMap<>(Endpoint.class)));
        }
        return new Results(settings, runs, profiles, commands);
    }

    /**
     * The order the server JVMs run in: round by round, each framework on both schedulers, the JDK default first in
     * odd rounds and Shuttle first in even ones, so that neither side always runs on a machine the other has just
     * warmed or heated. Round 1 starts with the JDK default because its maxima set the rates of every round.
     */
    static List<Pass> passes(int rounds, List<Framework> frameworks) {
        List<Pass> passes = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<String> order = round % 2 == 1 ? List.of(Schedulers.JDK, Schedulers.SHUTTLE)
                    : List.of(Schedulers.SHUTTLE, Schedulers.JDK);
            for (Framework framework : frameworks) {
                for (String scheduler : order) {
                    passes.add(new Pass(round, framework, scheduler));
                }
            }
        }
        return passes;
    }

    /**
     * One server JVM through every endpoint. {@code jdkMax} holds the framework's JDK default maxima by endpoint:
     * the pass that {@link Pass#setsRates} fills it, every pass takes its open-loop rates from it.
     */
    private static void runPass(Settings settings, Pass pass, List<Endpoint> endpoints, List<String> serverArgs,
            List<Run> runs, List<Profile> profiles, Map<String, String> commands, Map<Endpoint, Double> jdkMax)
            throws IOException, InterruptedException {
        String which = pass.which();
        String scheduler = pass.scheduler();
        try (ServerProcess server = ServerProcess.start(pass.framework(), scheduler.equals(Schedulers.SHUTTLE),
                serverArgs); HttpConnection control = new HttpConnection(server.port(), 5_000);
                LoadGenerator load = new LoadGenerator(server.port(), settings.connections(),
                        settings.requestTimeoutNanos())) {
            commands.put(scheduler, server.commandLine());
            ServerThreads threads = ServerThreads.of(server.pid());
            requireScheduler(control, scheduler, which + " before its runs", server);
            for (Endpoint endpoint : endpoints) {
                System.err.println("ServerBench: " + which + " of " + settings.rounds() + ", " + endpoint.path());
                requireAnswers(load.closedLoop(endpoint, settings.warmupNanos()), which, endpoint, "warm-up");
                Run max = measure(control, pass, endpoint, threads, 0, 0,
                        () -> load.closedLoop(endpoint, settings.maxNanos()));
                runs.add(max);
                if (pass.setsRates()) {
                    jdkMax.put(endpoint, max.result().completedPerSecond());
                }
                requireAnswers(load.openLoop(endpoint, settings.loads()[0] * jdkMax.get(endpoint),
                        settings.openWarmupNanos()), which, endpoint, "open-loop warm-up");
                for (double fraction : settings.loads()) {
                    double rate = fraction * jdkMax.get(endpoint);
                    runs.add(measure(control, pass, endpoint, threads, fraction, rate, () -> load.openLoop(endpoint,
                            rate,
                            settings.leadInNanos(), settings.stepNanos(), LoadGenerator.WindowStart.NOTHING)));
                }
                if (settings.profileNanos() > 0) {
                    profiles.add(profile(control, load, settings, pass, endpoint,
                            settings.profileLoad() * jdkMax.get(endpoint)));
                }
            }
            // Again after the load: the threads that carried it exist now.
            requireScheduler(control, scheduler, which + " after its runs", server);
            String wrongSlack = controlGet(control, ServerHandlers.SLACK, which + " after its runs");
            if (!wrongSlack.isEmpty()) {
                throw new IllegalStateException("the " + which + ": scheduler threads with another timer slack,"
                        + " so the comparison would not be like for like: " + wrongSlack);
            }
        }
    }

    /**
     * The profiled run: after the measured steps, so that sampling (a stack walk per running thread every
     * {@link JavaSampler#PERIOD}) costs none of them anything; the lead-in's requests are sampled and counted alike.
     */
    private static Profile profile(HttpConnection control, LoadGenerator load, Settings settings, Pass pass,
            Endpoint endpoint, double rate) throws IOException, InterruptedException {
        String where = pass.which() + ", " + endpoint.path() + " profiled run";
        controlGet(control, ServerHandlers.PROFILE_START, where);
        LoadGenerator.Result result = load.openLoop(endpoint, rate, settings.leadInNanos(), settings.profileNanos(),
                LoadGenerator.WindowStart.NOTHING);
        JavaSamples samples = JavaSamples.parse(controlGet(control, ServerHandlers.PROFILE_STOP, where));
        requireAnswers(result, pass.which(), endpoint, "profiled run");
        return new Profile(pass.round(), pass.framework(), endpoint, pass.scheduler(), settings.profileLoad(),
                result.completedWithLeadIn(), samples);
    }

    /** {@code /info} is answered by a request thread, so this checks what ran the requests, not only the flags. */
    static void requireScheduler(HttpConnection control, String scheduler, String where,
            ServerProcess server) throws IOException {
        String actual = controlGet(control, ServerHandlers.INFO, where);
        if (!actual.equals(scheduler)) {
            throw new IllegalStateException("the " + where + " ran its requests on " + actual + ": "
                    + server.commandLine());
        }
    }

    /** Without the control connection nothing more can be checked or measured, so its failure ends the benchmark. */
    private static String controlGet(HttpConnection control, String path, String where) throws IOException {
        try {
            return control.get(path);
        } catch (IOException e) {
            throw new IOException("ServerBench: the control connection of the " + where + " failed on " + path
                    + ": " + e, e);
        }
    }

    interface LoadRun {
        LoadGenerator.Result run() throws InterruptedException, IOException;
    }

    /** Reads the server's threads' context switches from outside it; empty where {@code /proc} cannot say. */
    interface ServerThreads {
        Optional<ProcessSwitches> read();

        /** Process {@code pid}'s threads on Linux; nothing elsewhere. */
        static ServerThreads of(long pid) {
            return ThreadSwitches.available() ? () -> Optional.of(ProcessSwitches.of(pid)) : Optional::empty;
        }
    }

    /**
     * One measured run of {@code endpoint} on the server behind {@code control}, with the server's CPU and its
     * scheduler's counters read around it and, for a lock endpoint, its lock times reset before it and read after it.
     * Around the whole run, lead-in included, never amid the load: a control request there waits its turn among the
     * load's, and the server's work to answer it holds up the load's own requests (docs/design.md, "Measuring a
     * change"). So the server's per-request figures are over the requests of the lead-in and the window
     * ({@link LoadGenerator.Result#completedWithLeadIn}).
     *
     * @throws IllegalStateException if the server answered none of the run's requests, its lock times were malformed
     *     or lacked the endpoint, or its scheduler counters were malformed, went down or came or went during the run
     */
    static Run measure(HttpConnection control, Pass pass, Endpoint endpoint, ServerThreads threads, double load,
            double rate, LoadRun loadRun) throws IOException, InterruptedException {
        String phase = load == 0 ? "maximum"
                : Double.isNaN(load) ? String.format(java.util.Locale.ROOT, "run at %.0f requests/s", rate)
                : String.format(java.util.Locale.ROOT, "%.0f%% load step", load * 100);
        String where = pass.which() + ", " + endpoint.path() + " " + phase;
        // Outside the CPU readings, so that the server's summing of its histograms and reading of its MXBean are not
        // charged to the requests.
        if (endpoint.takesLock()) {
            controlGet(control, ServerHandlers.LOCKS, where);
        }
        Optional<SchedulerActivity> activity0 = readSchedulerActivity(control, where);
        Optional<DelayCounts> delay0 = readDelays(control, where);
        GcPauses gc0 = readGcPauses(control, where);
        // Read from this process, so between the two CPU readings: it costs the server nothing.
        long cpu0 = Long.parseLong(controlGet(control, ServerHandlers.CPU, where));
        Optional<ProcessSwitches> switches0 = threads.read();
        LoadGenerator.Result result = loadRun.run();
        Optional<ProcessSwitches> switches1 = threads.read();
        long cpu = Long.parseLong(controlGet(control, ServerHandlers.CPU, where)) - cpu0;
        GcPauses gc = gcDuring(gc0, readGcPauses(control, where), where);
        Optional<DelayCounts> delay = during(delay0, readDelays(control, where), where,
                "a scheduling-delay bean", DelayCounts::since);
        Optional<ThreadSwitches.Counts> switches = switches1.map(s -> s.since(switches0.orElseThrow()));
        Optional<SchedulerActivity> activity = during(activity0, readSchedulerActivity(control, where), where,
                "a Shuttle scheduler", SchedulerActivity::since);
        Optional<LockTimes> lockTimes = endpoint.takesLock() ? Optional.of(readLockTimes(control, endpoint, where))
                : Optional.empty();
        requireAnswers(result, pass.which(), endpoint, phase);
        return new Run(pass.round(), pass.framework(), endpoint, pass.scheduler(), load, rate, result, cpu,
                lockTimes, activity, gc, delay, switches);
    }

    private static Optional<DelayCounts> readDelays(HttpConnection control, String where) throws IOException {
        String line = controlGet(control, ServerHandlers.DELAY, where);
        try {
            return line.isEmpty() ? Optional.empty() : Optional.of(DelayCounts.parse(line));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ServerBench: the " + where + ": " + e.getMessage(), e);
        }
    }

    private static GcPauses gcDuring(GcPauses before, GcPauses after, String where) {
        try {
            return after.since(before);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ServerBench: the " + where + ": " + e.getMessage(), e);
        }
    }

    private static GcPauses readGcPauses(HttpConnection control, String where) throws IOException {
        String line = controlGet(control, ServerHandlers.GC, where);
        try {
            return GcPauses.parse(line);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ServerBench: the " + where + ": " + e.getMessage(), e);
        }
    }

    private static Optional<SchedulerActivity> readSchedulerActivity(HttpConnection control, String where)
            throws IOException {
        String line = controlGet(control, ServerHandlers.SCHEDULER, where);
        try {
            return line.isEmpty() ? Optional.empty() : Optional.of(SchedulerActivity.parse(line));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ServerBench: the " + where + ": " + e.getMessage(), e);
        }
    }

    /**
     * The growth of a cumulative reading over the run, {@code since(after, before)}; empty if the server has no
     * {@code what} before and after it.
     *
     * @throws IllegalStateException saying where, if {@code what} came or went during the run, or went down
     */
    private static <T> Optional<T> during(Optional<T> before, Optional<T> after, String where, String what,
            BinaryOperator<T> since) {
        if (before.isPresent() != after.isPresent()) {
            throw new IllegalStateException("ServerBench: the " + where + ": " + what + " was registered "
                    + (before.isPresent() ? "before the run but not after it" : "after the run but not before it"));
        }
        try {
            return after.map(a -> since.apply(a, before.orElseThrow()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ServerBench: the " + where + ": " + e.getMessage(), e);
        }
    }

    private static LockTimes readLockTimes(HttpConnection control, Endpoint endpoint, String where) throws IOException {
        String text = controlGet(control, ServerHandlers.LOCKS, where);
        Map<Endpoint, LockTimes> byEndpoint;
        try {
            byEndpoint = LockTimes.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("ServerBench: the " + where + ": " + e.getMessage(), e);
        }
        if (!byEndpoint.containsKey(endpoint)) {
            throw new IllegalStateException("ServerBench: the " + where + ": " + ServerHandlers.LOCKS + " has no "
                    + endpoint.path() + ": " + text);
        }
        return byEndpoint.get(endpoint);
    }

    /**
     * A run with no answer at all measures nothing, and the next would likely fare the same; failures and timeouts
     * short of that are part of the comparison, so they are only said here and reported in the tables.
     */
    static void requireAnswers(LoadGenerator.Result r, String which, Endpoint endpoint, String phase) {
        String counts = r.completed() + " of " + r.planned() + " planned requests completed, " + r.failed()
                + " failed, " + r.timedOut() + " timed out" + (r.firstFailure().isEmpty() ? ""
                : " (" + r.firstFailure() + ")");
        if (r.completed() == 0) {
            throw new IllegalStateException("ServerBench: the " + which + " answered no request to " + endpoint.path()
                    + " in its " + phase + ": " + counts);
        }
        if (r.failures() > 0) {
            System.err.println("ServerBench: " + which + " " + endpoint.path() + " " + phase + ": " + counts);
        }
    }

    private static long seconds(long s) {
        return TimeUnit.SECONDS.toNanos(s);
    }

    private static long millis(long ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }
}
