package dev.shuttle.bench.server;

import dev.shuttle.bench.metrics.ThreadSwitches;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How many OS threads must wake for a request that reaches an idle server? Request/response round trips over TCP on
 * loopback at low concurrency ({@link EchoServerApp}: a virtual thread per connection, blocking socket I/O, a
 * fixed-size message echoed), each run in a server JVM of its own under the agent with the same flags as the server
 * benchmark: the JDK's default scheduler (the agent measuring), Shuttle with {@code -Dshuttle.netpoll=off} (the JDK's
 * poller threads deliver readiness) and Shuttle with netpoll at its default, on; the order rotates from round to round.
 * Per round trip it reports the server's context switches by thread role (carriers, the JDK's poller threads, the
 * others), the server's CPU ({@code CLOCK_PROCESS_CPUTIME_ID}, ns), round-trip latency p50 and p99, and Shuttle's
 * counters; each Shuttle/JDK comparison as the median of the per-round ratios with its 95 % interval
 * ({@link RatioInterval}).
 *
 * <p>The clients are platform threads in this JVM, one connection each, sending a message and reading its echo in a
 * loop: the generator then does not depend on the scheduler under test, it is the same code for every configuration,
 * and none of its threads' switches or CPU is counted in the server's figures. Each blocks in {@code read} for the
 * answer, so at most {@code clients} round trips are in flight.
 *
 * <p>Usage: {@code java --enable-native-access=ALL-UNNAMED -cp scheduler-bench/target/benchmarks.jar
 * dev.shuttle.bench.server.EchoBench [--rounds N] [--round-trips N] [--warmup N] [--clients 1,2] [--size BYTES]}, from
 * the repository root (the agent is found as for the server benchmark).
 */
public final class EchoBench {
    private static final int TIMEOUT_MILLIS = 10_000;

    /** One server configuration: on Shuttle or the JDK default (the agent measuring), with extra flags. */
    record Config(String name, boolean shuttle, List<String> flags) {
    }

    static final List<Config> CONFIGS = List.of(new Config("jdk", false, List.of()),
            new Config("shuttle-off", true, List.of("-Dshuttle.netpoll=off")),
            new Config("shuttle-on", true, List.of()));

    /** The command line: rounds, measured and warm-up round trips per run, client counts, message size. */
    public record Args(int rounds, int roundTrips, int warmup, List<Integer> clients, int size) {
        static final String USAGE = "usage: EchoBench [--rounds N] [--round-trips N] [--warmup N] [--clients 1,2]"
                + " [--size BYTES]";

        /**
         * The arguments of {@link #USAGE}, defaults for those not given.
         *
         * @throws IllegalArgumentException naming a bad or unknown argument
         */
        public static Args parse(String... args) {
            int rounds = 5;
            int roundTrips = 20_000;
            int warmup = 10_000;
            List<Integer> clients = List.of(1, 2);
            int size = 64;
            for (int i = 0; i < args.length; i += 2) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                switch (args[i]) {
                    case "--rounds" -> rounds = AlternatedRounds.positive(args[i], value);
                    case "--round-trips" -> roundTrips = AlternatedRounds.positive(args[i], value);
                    case "--warmup" -> warmup = AlternatedRounds.positive(args[i], value);
                    case "--clients" -> clients = AlternatedRounds.positives(args[i], value);
                    case "--size" -> size = AlternatedRounds.positive(args[i], value);
                    default -> throw new IllegalArgumentException("unknown argument " + args[i] + "; " + USAGE);
                }
            }
            for (int c : clients) {
                if (roundTrips < c || warmup < c) {
                    throw new IllegalArgumentException("--round-trips and --warmup must be at least the largest"
                            + " --clients: " + roundTrips + ", " + warmup + " for " + c + " clients");
                }
            }
            return new Args(rounds, roundTrips, warmup, clients, size);
        }
    }

    private EchoBench() {
    }

    public static void main(String[] args) throws Exception {
        System.out.print(run(Args.parse(args)));
    }

    /**
     * Runs every configuration {@code rounds} times at each client count and returns the report.
     *
     * @throws IllegalStateException if a run fails, loses or repeats an echo, or a Shuttle configuration's server did
     *     not run on Shuttle (or the JDK default's did)
     */
    public static String run(Args args) throws Exception {
        if (!ThreadSwitches.available()) {
            throw new IllegalStateException("EchoBench reads /proc/self/task: Linux only");
        }
        Map<Integer, Map<String, List<Map<String, Double>>>> results = AlternatedRounds.rotate(args.rounds(),
                args.clients(), CONFIGS, Config::name, "clients",
                (config, clients) -> perRoundTrip(config, runOnce(config, clients, args)));
        String heading = String.format(Locale.ROOT, "EchoBench: %d rounds of %d measured round"
                + " trips of %d bytes per configuration; server values per round trip (latency in µs), median"
                + " [lowest, highest] over the rounds; ratio = median of the per-round ratios to jdk with its 95 %%"
                + " bootstrap interval (a verdict needs %d rounds)%n", args.rounds(), args.roundTrips(), args.size(),
                RatioInterval.MIN_ROUNDS);
        return AlternatedRounds.report(heading, results, CONFIGS.stream().map(Config::name).toList());
    }

    /**
     * One server JVM: {@code clients} connections warm up, then the measured round trips; returns the server's
     * {@code RESULT} pairs plus {@code roundTrips}, {@code elapsedNanos} and {@code latencyP50Nanos},
     * {@code latencyP99Nanos} measured here.
     */
    private static Map<String, Long> runOnce(Config config, int clients, Args args) throws Exception {
        try (ServerProcess server = ServerProcess.start(EchoServerApp.class, config.shuttle(), config.flags(),
                Integer.toString(args.size()))) {
            List<Socket> sockets = new ArrayList<>();
            try {
                for (int c = 0; c < clients; c++) {
                    Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
                    s.setTcpNoDelay(true);
                    s.setSoTimeout(TIMEOUT_MILLIS);
                    sockets.add(s);
                }
                roundTrips(sockets, args.warmup() / clients, args.size());
                server.ask("measure", "MEASURING");
                long start = System.nanoTime();
                long[] latencies = roundTrips(sockets, args.roundTrips() / clients, args.size());
                long elapsed = System.nanoTime() - start;
                Map<String, Long> raw = new LinkedHashMap<>(
                        AlternatedRounds.parseResult(server.ask("result", "RESULT ")));
                Arrays.sort(latencies);
                raw.put("roundTrips", (long) latencies.length);
                raw.put("elapsedNanos", elapsed);
                raw.put("latencyP50Nanos", percentile(latencies, 0.50));
                raw.put("latencyP99Nanos", percentile(latencies, 0.99));
                return raw;
            } finally {
                for (Socket s : sockets) {
                    s.close();
                }
            }
        }
    }

    /**
     * {@code perClient} round trips on each socket, one platform thread per socket, all at once; returns every round
     * trip's latency in nanoseconds.
     */
    private static long[] roundTrips(List<Socket> sockets, int perClient, int size) throws Exception {
        long[][] latencies = new long[sockets.size()][perClient];
        Throwable[] failures = new Throwable[sockets.size()];
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < sockets.size(); c++) {
            int client = c;
            threads.add(Thread.ofPlatform().name("echo-client-" + c).start(() -> {
                try {
                    roundTrips(sockets.get(client), latencies[client], size);
                } catch (Throwable e) {
                    failures[client] = e;
                }
            }));
        }
        for (int c = 0; c < threads.size(); c++) {
            threads.get(c).join();
            if (failures[c] != null) {
                throw new IllegalStateException("client " + c + " failed", failures[c]);
            }
        }
        return Arrays.stream(latencies).flatMapToLong(Arrays::stream).toArray();
    }

    private static void roundTrips(Socket socket, long[] latencies, int size) throws IOException {
        byte[] message = new byte[size];
        byte[] answer = new byte[size];
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        for (int i = 0; i < latencies.length; i++) {
            message[0] = (byte) i;
            long start = System.nanoTime();
            out.write(message);
            if (in.readNBytes(answer, 0, size) != size || answer[0] != message[0]) {
                throw new IOException("round trip " + i + ": the echo was cut short or is not the message");
            }
            latencies[i] = System.nanoTime() - start;
        }
    }

    /** The value at quantile {@code q} of {@code sorted} (nearest rank). */
    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    /**
     * A run's values per round trip: the server's CPU in µs, its context switches by role (the dispatcher role, which
     * an echo server does not have, left out) and in all, Shuttle's counters; latency in µs; throughput.
     *
     * @throws IllegalStateException if the server echoed another number of messages than were sent, or ran (or did
     *     not run) on Shuttle against {@code config}
     */
    static Map<String, Double> perRoundTrip(Config config, Map<String, Long> raw) {
        long n = raw.get("roundTrips");
        if (raw.get("echoes") != n) {
            throw new IllegalStateException(config.name() + ": " + n + " round trips but the server echoed "
                    + raw.get("echoes"));
        }
        boolean onShuttle = raw.getOrDefault("mx.TasksRun", 0L) > 0;
        if (onShuttle != config.shuttle()) {
            throw new IllegalStateException(config.name() + "'s server ran "
                    + (onShuttle ? "on Shuttle" : "without Shuttle's JVM-wide scheduler"));
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("cpuMicros", raw.get("cpuNanos") / 1e3 / n);
        long all = 0;
        for (var e : raw.entrySet()) {
            String name = e.getKey();
            boolean switches = name.endsWith("Voluntary") || name.endsWith("Involuntary");
            if (switches) {
                all += e.getValue();
            }
            if (switches && !name.startsWith("dispatcher") || name.startsWith("mx.")) {
                m.put(name, (double) e.getValue() / n);
            }
        }
        m.put("switchesAll", (double) all / n);
        m.put("latencyP50Micros", raw.get("latencyP50Nanos") / 1e3);
        m.put("latencyP99Micros", raw.get("latencyP99Nanos") / 1e3);
        m.put("roundTripsPerSecond", n * 1e9 / raw.get("elapsedNanos"));
        m.put("jdkPollerThreads", (double) raw.get("jdkPollerThreads"));
        return m;
    }
}
