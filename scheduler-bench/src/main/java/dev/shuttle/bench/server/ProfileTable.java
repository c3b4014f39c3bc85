package dev.shuttle.bench.server;

import dev.shuttle.bench.Schedulers;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The report's table of the profiled runs ({@link ServerBench.Profile}): per endpoint, where the server's sampled Java
 * code spent its CPU on each scheduler, by {@link CodeArea}, in microseconds per request. Rounds are pooled (their
 * samples and requests added up) rather than given medians: a profiled run holds a few thousand samples, and an area
 * with a few dozen would swing between rounds on sampling alone.
 */
final class ProfileTable {
    private ProfileTable() {
    }

    /** Appends the table of {@code f}'s profiled runs to {@code md}; nothing if it has none. */
    static void append(StringBuilder md, ServerBench.Results results, Framework f, String title) {
        List<ServerBench.Profile> profiles = results.profiles().stream().filter(p -> p.framework() == f).toList();
        if (profiles.isEmpty()) {
            return;
        }
        double load = profiles.getFirst().load();
        md.append("\n#### ").append(title).append(": where the server's Java code spent its CPU at ")
                .append(String.format(Locale.ROOT, "%.0f%%", load * 100)).append(" load (JFR)\n\n");
        md.append("A run per endpoint and scheduler after the measured steps, not in the tables above, at the same")
                .append(" rate as the step, with JFR's execution sampler (`jdk.ExecutionSample`, every ")
                .append(JavaSampler.PERIOD.toMillis()).append(" ms) in the server: each sample stands for that long")
                .append(" of one thread running Java code, and goes to the topmost frame on its stack that lies in")
                .append(" one of the areas below (`CodeArea`); µs per request is samples × period over the run's")
                .append(" requests, lead-in included, ").append(results.settings().rounds() == 1 ? "one round"
                        : "the " + results.settings().rounds() + " rounds' samples and requests added up")
                .append(". The sampler sees only threads running Java code: garbage collection, the JIT and time in")
                .append(" system calls are in the server CPU per request of the tables above, not here.\n\n");
        md.append("| endpoint | where | JDK default µs/req | Shuttle µs/req | Shuttle − JDK µs/req |\n")
                .append("|---|---|---:|---:|---:|\n");
        for (Endpoint e : Endpoint.values()) {
            Optional<Pooled> jdk = pooled(profiles, e, Schedulers.JDK);
            Optional<Pooled> shuttle = pooled(profiles, e, Schedulers.SHUTTLE);
            if (jdk.isEmpty() || shuttle.isEmpty()) {
                continue;
            }
            for (CodeArea area : CodeArea.values()) {
                if (jdk.get().samples().count(area) + shuttle.get().samples().count(area) > 0) {
                    row(md, e, area.description(), jdk.get().micros(area), shuttle.get().micros(area));
                }
            }
            row(md, e, "**all sampled Java code**", jdk.get().totalMicros(), shuttle.get().totalMicros());
        }
    }

    private static void row(StringBuilder md, Endpoint e, String where, double jdk, double shuttle) {
        md.append(String.format(Locale.ROOT, "| %s | %s | %.2f | %.2f | %+.2f |%n", e.path(), where, jdk, shuttle,
                shuttle - jdk));
    }

    /** One endpoint's profiled runs on one scheduler, every round's added up. */
    private record Pooled(JavaSamples samples, long requests) {
        double micros(CodeArea area) {
            return microsPerRequest(samples.count(area));
        }

        double totalMicros() {
            return microsPerRequest(samples.total());
        }

        private double microsPerRequest(long sampleCount) {
            return sampleCount * (double) samples.periodNanos() / 1e3 / requests;
        }
    }

    private static Optional<Pooled> pooled(List<ServerBench.Profile> profiles, Endpoint e, String scheduler) {
        return profiles.stream().filter(p -> p.endpoint() == e && p.scheduler().equals(scheduler))
                .map(p -> new Pooled(p.samples(), p.requests()))
                .reduce((a, b) -> new Pooled(a.samples().plus(b.samples()), a.requests() + b.requests()))
                .filter(p -> p.requests() > 0);
    }
}
