package dev.shuttle.bench.server;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * What the low-load benchmarks ({@link LowLoadBench}, {@link EchoBench}, {@link PollerTickersBench}) share: their
 * arguments, a child JVM run to its {@code RESULT name=value ...} line, and the table of a configuration's metrics over alternated rounds, each as its
 * median with the lowest and highest round, and beside the baseline configuration the median of the per-round ratios
 * with its 95 % interval ({@link RatioInterval}).
 */
final class AlternatedRounds {
    private AlternatedRounds() {
    }

    /**
     * The pairs of a {@code RESULT name=value ...} line.
     *
     * @throws IllegalArgumentException if the line is not one, or a value is not a whole number
     */
    static Map<String, Long> parseResult(String line) {
        if (!line.startsWith("RESULT ")) {
            throw new IllegalArgumentException("not a RESULT line: " + line);
        }
        Map<String, Long> pairs = new LinkedHashMap<>();
        for (String pair : line.substring("RESULT ".length()).strip().split(" +")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("not name=value: '" + pair + "' in " + line);
            }
            pairs.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
        }
        return pairs;
    }

    /** One run of a configuration in a group (a client count, a number of threads): its metrics. */
    interface Run<C> {
        Map<String, Double> run(C config, int group) throws Exception;
    }

    /**
     * Runs every configuration once per group in each of {@code rounds}, the order of the configurations rotating by
     * one from round to round so that none always runs first or after the same one, and prints each run's metrics to
     * standard error as it ends, the group named by {@code groupUnit} ("clients", "sleepers").
     *
     * @return results.get(group).get(configuration name) = one map of metric to value per round, in round order
     */
    static <C> Map<Integer, Map<String, List<Map<String, Double>>>> rotate(int rounds, List<Integer> groups,
            List<C> configs, Function<C, String> name, String groupUnit, Run<C> run) throws Exception {
        Map<Integer, Map<String, List<Map<String, Double>>>> results = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (int group : groups) {
                for (int k = 0; k < configs.size(); k++) {
                    C config = configs.get((k + round) % configs.size());
                    Map<String, Double> metrics = run.run(config, group);
                    results.computeIfAbsent(group, g -> new LinkedHashMap<>())
                            .computeIfAbsent(name.apply(config), c -> new ArrayList<>()).add(metrics);
                    System.err.printf(Locale.ROOT, "round %d, %d %s, %s: %s%n", round + 1, group, groupUnit,
                            name.apply(config), metrics);
                }
            }
        }
        return results;
    }

    /**
     * Runs the child JVM {@code command} to its end and returns the pairs of the last {@code RESULT} line it printed;
     * its other lines and its standard error go to this process's standard error, its other lines prefixed with
     * {@code name}.
     *
     * @throws IllegalStateException if it runs longer than {@code timeoutSeconds} (it is then killed), exits with
     *     another status than 0 or prints no {@code RESULT} line
     */
    static Map<String, Long> runChild(String name, List<String> command, long timeoutSeconds) throws Exception {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        AtomicBoolean killed = new AtomicBoolean();
        // A child that hangs keeps its output open, so the bound is kept by a thread of its own, not after the read.
        Thread killer = Thread.ofPlatform().daemon().start(() -> {
            try {
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    killed.set(true);
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                // not reached: nothing interrupts it
            }
        });
        String result = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.US_ASCII))) {
            for (String line; (line = out.readLine()) != null; ) {
                if (line.startsWith("RESULT ")) {
                    result = line;
                } else {
                    System.err.println(name + ": " + line);
                }
            }
        }
        killer.join();
        if (killed.get()) {
            throw new IllegalStateException(name + " did not end within " + timeoutSeconds + " s and was killed");
        }
        if (process.exitValue() != 0 || result == null) {
            throw new IllegalStateException(name + " failed (exit " + process.exitValue() + "): "
                    + String.join(" ", command));
        }
        return parseResult(result);
    }

    /**
     * {@code heading}, then for each client count a {@link #table} of its configurations against {@code jdk}.
     *
     * @param results results.get(clients).get(configuration) = one map of metric to value per round
     */
    static String report(String heading, Map<Integer, Map<String, List<Map<String, Double>>>> results,
            List<String> order) {
        return report(heading, results, order, "%d client(s) in flight");
    }

    /**
     * {@code heading}, then for each group (a client count, a number of threads) a line naming it by
     * {@code groupTitle}, a format taking the group's number, and a {@link #table} of its configurations against
     * {@code jdk}.
     *
     * @param results results.get(group).get(configuration) = one map of metric to value per round
     */
    static String report(String heading, Map<Integer, Map<String, List<Map<String, Double>>>> results,
            List<String> order, String groupTitle) {
        StringBuilder md = new StringBuilder(heading);
        for (var group : results.entrySet()) {
            md.append(String.format(Locale.ROOT, "%n" + groupTitle + "%n", group.getKey()));
            md.append(table(group.getValue(), order, "jdk"));
        }
        return md.toString();
    }

    /**
     * One line per metric that any run has: for each configuration in {@code order}, {@code name median [lowest,
     * highest]} over its rounds and, for all but {@code baseline}, the per-round ratios to {@code baseline}'s round
     * of the same index. A configuration without the metric shows {@code name -}.
     *
     * @param byConfig each configuration's runs, one map of metric to value per round, in round order
     */
    static String table(Map<String, List<Map<String, Double>>> byConfig, List<String> order, String baseline) {
        StringBuilder md = new StringBuilder();
        TreeSet<String> metrics = new TreeSet<>();
        byConfig.values().forEach(runs -> runs.forEach(run -> metrics.addAll(run.keySet())));
        List<Map<String, Double>> base = byConfig.get(baseline);
        for (String metric : metrics) {
            md.append(String.format(Locale.ROOT, "  %-40s", metric));
            for (String config : order) {
                double[] v = byConfig.get(config).stream().mapToDouble(r -> r.getOrDefault(metric, Double.NaN))
                        .toArray();
                if (Double.isNaN(v[0])) {
                    md.append(String.format(Locale.ROOT, " %s -", config));
                    continue;
                }
                md.append(String.format(Locale.ROOT, " %s %.3f [%.3f, %.3f]", config, RatioInterval.median(v),
                        min(v), max(v)));
                if (!config.equals(baseline)) {
                    double[] ratios = new double[v.length];
                    for (int i = 0; i < v.length; i++) {
                        double b = base.get(i).getOrDefault(metric, Double.NaN);
                        ratios[i] = b == 0 ? Double.NaN : v[i] / b;
                    }
                    md.append(" (").append(RatioInterval.of(ratios).format()).append(')');
                }
            }
            md.append('\n');
        }
        return md.toString();
    }

    static double min(double[] v) {
        double m = Double.POSITIVE_INFINITY;
        for (double x : v) {
            m = Math.min(m, x);
        }
        return m;
    }

    static double max(double[] v) {
        double m = Double.NEGATIVE_INFINITY;
        for (double x : v) {
            m = Math.max(m, x);
        }
        return m;
    }

    /** {@code value} as a whole number of at least 1, for {@code flag}. */
    static int positive(String flag, String value) {
        int n;
        try {
            n = Integer.parseInt(require(flag, value));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes a whole number: " + value);
        }
        if (n < 1) {
            throw new IllegalArgumentException(flag + " must be at least 1: " + value);
        }
        return n;
    }

    static String require(String flag, String value) {
        if (value == null) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return value;
    }

    /** A comma-separated list of whole numbers of at least 1, for {@code flag}. */
    static List<Integer> positives(String flag, String value) {
        List<Integer> list = new ArrayList<>();
        for (String s : require(flag, value).split(",")) {
            list.add(positive(flag, s.strip()));
        }
        return List.copyOf(list);
    }
}
