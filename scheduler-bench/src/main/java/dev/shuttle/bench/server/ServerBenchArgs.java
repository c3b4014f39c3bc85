package dev.shuttle.bench.server;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@link ServerBench}'s command line. An unknown flag is refused rather than skipped: a mistyped
 * {@code --request-timeout} would otherwise run a multi-minute benchmark with the default.
 *
 * @param out where the report goes, standard output when empty
 * @param plots where the latency-against-offered-load charts go, none when empty
 */
record ServerBenchArgs(ServerBench.Settings settings, List<Framework> frameworks, List<Endpoint> endpoints,
        List<String> serverArgs, Optional<Path> out, Optional<Path> plots) {
    /**
     * From 10 ms, under which a healthy server's queueing alone would time out, to 60 s, past which a stalled server
     * would hold each run that much longer.
     */
    static final int MIN_TIMEOUT_MILLIS = 10;
    static final int MAX_TIMEOUT_MILLIS = 60_000;

    /**
     * @throws IllegalArgumentException naming the flag, for an unknown flag, a missing value or a value out of range
     */
    static ServerBenchArgs parse(String... args) {
        ServerBench.Settings settings = ServerBench.FULL;
        long timeoutNanos = -1;
        int rounds = 1;
        double[] loads = null;
        List<Framework> frameworks = new ArrayList<>();
        List<Endpoint> endpoints = new ArrayList<>();
        List<String> serverArgs = new ArrayList<>();
        Path out = null;
        Path plots = null;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--smoke")) {
                settings = ServerBench.SMOKE;
                continue;
            }
            if (!List.of("--server", "--endpoint", "--server-arg", "--out", "--plots", "--request-timeout",
                    "--rounds", "--loads").contains(flag)) {
                throw new IllegalArgumentException("unknown flag " + flag);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--server" -> frameworks.add(Framework.ofId(value));
                case "--endpoint" -> endpoints.add(Endpoint.ofPath(value));
                case "--server-arg" -> serverArgs.add(value);
                case "--out" -> out = Path.of(value);
                case "--plots" -> plots = Path.of(value);
                case "--rounds" -> rounds = rounds(value);
                case "--loads" -> loads = loads(value);
                default -> timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis(value));
            }
        }
        settings = settings.withRounds(rounds);
        if (loads != null) {
            settings = settings.withLoads(loads);
        }
        return new ServerBenchArgs(timeoutNanos < 0 ? settings : settings.withRequestTimeout(timeoutNanos),
                frameworks.isEmpty() ? List.of(Framework.values()) : frameworks,
                endpoints.isEmpty() ? List.of(Endpoint.values()) : endpoints, serverArgs, Optional.ofNullable(out),
                Optional.ofNullable(plots));
    }

    private static int rounds(String value) {
        int rounds = whole(value);
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds takes a whole number of rounds, 1 or more, not " + value);
        }
        return rounds;
    }

    /**
     * Fractions of the JDK default's maximum, each above 0 and at most 1, comma-separated: above the maximum an
     * open loop only measures its queue growing.
     */
    private static double[] loads(String value) {
        String[] parts = value.split(",", -1);
        double[] loads = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            double load;
            try {
                load = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                load = Double.NaN;
            }
            if (!(load > 0 && load <= 1)) {
                throw new IllegalArgumentException("--loads takes fractions of the maximum above 0 and at most 1,"
                        + " separated by commas, such as 0.25,0.5; not " + value);
            }
            loads[i] = load;
        }
        return loads;
    }

    private static int timeoutMillis(String value) {
        int millis = whole(value);
        if (millis < MIN_TIMEOUT_MILLIS || millis > MAX_TIMEOUT_MILLIS) {
            throw new IllegalArgumentException("--request-timeout takes whole milliseconds from " + MIN_TIMEOUT_MILLIS
                    + " to " + MAX_TIMEOUT_MILLIS + ", not " + value);
        }
        return millis;
    }

    /** The value as an int, or -1, which every flag taking a number refuses, if it is not a whole number. */
    private static int whole(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** How the report links the charts: relative to the report's own folder when it is written to a file. */
    String plotLink() {
        Path dir = plots.orElseThrow();
        Path from = out.map(o -> o.toAbsolutePath().getParent()).orElse(null);
        return (from == null ? dir : from.relativize(dir.toAbsolutePath())).toString().replace('\\', '/');
    }
}
