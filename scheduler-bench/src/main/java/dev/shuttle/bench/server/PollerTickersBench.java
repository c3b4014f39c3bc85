package dev.shuttle.bench.server;

import dev.shuttle.bench.metrics.ThreadSwitches;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What does a timer cost once the network pollers exist? The {@code Tickers} load (virtual threads each sleeping 1 ms
 * in a loop) in a JVM where a virtual thread has blocked on a socket, so that the JDK's pollers exist and, on Shuttle
 * with netpoll on, its idle carriers sleep in {@code epoll_wait} instead of parking ({@link PollerTickersApp}, a JVM
 * per run). The three configurations of {@link EchoBench}, each through the agent with the server benchmark's flags:
 * the JDK's default scheduler (the agent measuring), Shuttle with {@code -Dshuttle.netpoll=off} (the JDK's
 * {@code MasterPoller} thread polls) and Shuttle with netpoll at its default, on; the order rotates from round to round,
 * and each run checks that its pollers are driven as its configuration says.
 *
 * <p>Per timer fired it reports process CPU ({@code CLOCK_PROCESS_CPUTIME_ID}, µs to the nanosecond) and how much of
 * it the carriers used (the rest is the JIT, the collector, the JDK's own threads), OS wake-ups
 * (voluntary context switches of every thread, and by thread role: the carriers, the JDK's poller thread, the others),
 * involuntary switches, Shuttle's counters, and the lateness beyond 1 ms of the sampled wake-ups (mean and p99, µs);
 * each as the median over the rounds with the lowest and highest, beside the JDK default the median of the per-round
 * ratios with its 95 % interval ({@link RatioInterval}), and then netpoll on against off the same way, whose interval
 * says whether the poll changed the timer path beyond the spread.
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED -cp scheduler-bench/target/benchmarks.jar
 * dev.shuttle.bench.server.PollerTickersBench [--rounds N] [--threads 10,10000] [--warmup SECONDS]
 * [--measure SECONDS] [--idle-connections N]}, from the repository root (the agent is found as for the server
 * benchmark).
 */
public final class PollerTickersBench {
    private static final long RUN_TIMEOUT_EXTRA_SECONDS = 120;
    static final String OFF = "shuttle-off";
    static final String ON = "shuttle-on";

    /** The command line: rounds, sleeper counts, warm-up and measured seconds per run, idle connections kept open. */
    public record Args(int rounds, List<Integer> threads, int warmupSeconds, int measuredSeconds, int idleConnections) {
        static final String USAGE = "usage: PollerTickersBench [--rounds N] [--threads 10,10000] [--warmup SECONDS]"
                + " [--measure SECONDS] [--idle-connections N]";

        /**
         * The arguments of {@link #USAGE}, defaults for those not given: 5 rounds of 10 sleepers, 15 s of warm-up (as
         * the JMH {@code Tickers}: the carriers' methods reach C2 late), 6 s measured, one idle connection.
         *
         * @throws IllegalArgumentException naming a bad or unknown argument
         */
        public static Args parse(String... args) {
            int rounds = 5;
            List<Integer> threads = List.of(10);
            int warmup = 15;
            int measured = 6;
            int idle = 1;
            for (int i = 0; i < args.length; i += 2) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--rounds" -> rounds = AlternatedRounds.positive(args[i], value);
                    case "--threads" -> threads = AlternatedRounds.positives(args[i], value);
                    case "--warmup" -> warmup = AlternatedRounds.positive(args[i], value);
                    case "--measure" -> measured = AlternatedRounds.positive(args[i], value);
                    case "--idle-connections" -> idle = "0".equals(value) ? 0
                            : AlternatedRounds.positive(args[i], value);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
                }
            }
            return new Args(rounds, threads, warmup, measured, idle);
        }
    }

    private PollerTickersBench() {
    }

    public static void main(String[] args) throws Exception {
        System.out.print(run(Args.parse(args)));
    }

    /**
     * Runs every configuration {@code rounds} times at each sleeper count and returns the report.
     *
     * @throws IllegalStateException if a run fails, its pollers were driven by others than its configuration says,
     *     or a Shuttle configuration's sleepers did not run on Shuttle (or the JDK default's did)
     */
    public static String run(Args args) throws Exception {
        if (!ThreadSwitches.available()) {
            throw new IllegalStateException("PollerTickersBench reads /proc/self/task: Linux only");
        }
        Map<Integer, Map<String, List<Map<String, Double>>>> results = AlternatedRounds.rotate(args.rounds(),
                args.threads(), EchoBench.CONFIGS, EchoBench.Config::name, "sleepers",
                (config, threads) -> perTimer(config, runOnce(config, threads, args)));
        String heading = String.format(Locale.ROOT, "PollerTickersBench: %d rounds, each configuration in a JVM"
                + " whose network pollers exist (%d idle connection(s) open), %d s warm-up and %d s measured; values"
                + " per timer fired (CPU and lateness in µs), median [lowest, highest] over the rounds; ratio = median"
                + " of the per-round ratios to jdk with its 95 %% bootstrap interval (a verdict needs %d rounds)%n",
                args.rounds(), args.idleConnections(), args.warmupSeconds(), args.measuredSeconds(),
                RatioInterval.MIN_ROUNDS);
        StringBuilder report = new StringBuilder(AlternatedRounds.report(heading, results,
                EchoBench.CONFIGS.stream().map(EchoBench.Config::name).toList(), "%d sleepers"));
        for (var byThreads : results.entrySet()) {
            report.append(String.format(Locale.ROOT, "%n%d sleepers, netpoll on against off (ratio to %s)%n",
                    byThreads.getKey(), OFF));
            report.append(AlternatedRounds.table(byThreads.getValue(), List.of(OFF, ON), OFF));
        }
        return report.toString();
    }

    /** One child JVM: its {@code RESULT} pairs. */
    private static Map<String, Long> runOnce(EchoBench.Config config, int threads, Args args) throws Exception {
        List<String> command = ServerProcess.command(PollerTickersApp.class, config.shuttle(), config.flags(),
                Integer.toString(threads), Integer.toString(args.warmupSeconds()),
                Integer.toString(args.measuredSeconds()), Integer.toString(args.idleConnections()),
                config.name().equals(ON) ? "shuttle" : "jdk");
        return AlternatedRounds.runChild(config.name(), command,
                args.warmupSeconds() + args.measuredSeconds() + RUN_TIMEOUT_EXTRA_SECONDS);
    }

    /**
     * A run's values per timer fired: process CPU in µs, the carriers' and the other threads', OS wake-ups (voluntary switches) and involuntary switches of
     * every thread and by role (the dispatcher role, which this app does not have, left out), Shuttle's counters;
     * lateness in µs; timers fired per second.
     *
     * @throws IllegalStateException if no timer fired, or the sleepers ran (or did not run) on Shuttle against
     *     {@code config}
     */
    static Map<String, Double> perTimer(EchoBench.Config config, Map<String, Long> raw) {
        long n = raw.get("timersFired");
        if (n <= 0) {
            throw new IllegalStateException(config.name() + ": no timer fired in the measured window");
        }
        boolean onShuttle = raw.getOrDefault("mx.TasksRun", 0L) > 0;
        if (onShuttle != config.shuttle()) {
            throw new IllegalStateException(config.name() + "'s sleepers ran "
                    + (onShuttle ? "on Shuttle" : "without Shuttle's JVM-wide scheduler"));
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("cpuMicros", raw.get("cpuNanos") / 1e3 / n);
        m.put("carrierCpuMicros", raw.get("carrierCpuNanos") / 1e3 / n);
        m.put("otherCpuMicros", (raw.get("cpuNanos") - raw.get("carrierCpuNanos")) / 1e3 / n);
        for (var e : raw.entrySet()) {
            String name = e.getKey();
            boolean switches = name.endsWith("Voluntary") || name.endsWith("Involuntary");
            if (switches && !name.startsWith("dispatcher") || name.startsWith("mx.")) {
                m.put(name, (double) e.getValue() / n);
            }
        }
        m.put("latenessMeanMicros", raw.get("latenessMeanNanos") / 1e3);
        m.put("latenessP99Micros", raw.get("latenessP99Nanos") / 1e3);
        m.put("timersPerSecond", n * 1e9 / raw.get("elapsedNanos"));
        m.put("jdkPollerThreads", (double) raw.get("jdkPollerThreads"));
        return m;
    }
}
