package dev.shuttle.bench.server;

import dev.shuttle.bench.Schedulers;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The runs of every round gathered by table cell (framework, endpoint and load): each scheduler's median over the
 * rounds and its range, the Shuttle/JDK ratio as the median of the per-round ratios, and in how many rounds Shuttle was
 * worse. A per-round ratio pairs two runs minutes apart, so a machine that is slower for a while moves both of them;
 * a ratio of the medians would pair runs from different rounds.
 */
final class RoundSummary {
    /** The median of some values, with their lowest and highest; all NaN when there are no values. */
    record Spread(double median, double low, double high) {
        /** NaN values (a metric with nothing to divide by) are left out. */
        static Spread of(double... values) {
            double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
            if (v.length == 0) {
                return new Spread(Double.NaN, Double.NaN, Double.NaN);
            }
            int mid = v.length / 2;
            double median = v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
            return new Spread(median, v[0], v[v.length - 1]);
        }
    }

    /**
     * One metric of one cell over the rounds. {@code shuttleWorse} counts the rounds in which Shuttle's run was worse
     * than the JDK default's of the same round, by any margin; {@code interval} is the project's win/loss rule over
     * the same per-round ratios.
     */
    record Comparison(Spread jdk, Spread shuttle, Spread ratio, RatioInterval interval, int shuttleWorse, int rounds,
            boolean higherIsBetter) {
        /** Judged on the medians, the values the table shows side by side. */
        boolean shuttleLoses() {
            return worse(shuttle.median(), jdk.median(), higherIsBetter);
        }
    }

    /** The runs of one cell, one per round on each scheduler, in round order. */
    record Cell(List<ServerBench.Run> jdk, List<ServerBench.Run> shuttle) {
        /**
         * @throws IllegalArgumentException if the two schedulers' runs are not of the same rounds, which would leave
         *     a per-round ratio without its pair
         */
        Cell {
            if (!rounds(jdk).equals(rounds(shuttle))) {
                throw new IllegalArgumentException("runs of rounds " + rounds(jdk) + " on the JDK default but "
                        + rounds(shuttle) + " on Shuttle");
            }
        }

        Comparison compare(ToDoubleFunction<ServerBench.Run> metric, boolean higherIsBetter) {
            double[] j = jdk.stream().mapToDouble(metric).toArray();
            double[] s = shuttle.stream().mapToDouble(metric).toArray();
            double[] ratios = new double[j.length];
            int worse = 0;
            for (int i = 0; i < j.length; i++) {
                ratios[i] = j[i] == 0 ? Double.NaN : s[i] / j[i];
                if (worse(s[i], j[i], higherIsBetter)) {
                    worse++;
                }
            }
            return new Comparison(Spread.of(j), Spread.of(s), Spread.of(ratios), RatioInterval.of(ratios), worse, j.length,
                    higherIsBetter);
        }

        private static List<Integer> rounds(List<ServerBench.Run> runs) {
            return runs.stream().map(ServerBench.Run::round).toList();
        }
    }

    private final List<ServerBench.Run> runs;

    RoundSummary(List<ServerBench.Run> runs) {
        this.runs = runs;
    }

    /** The runs of one scheduler in one cell, in round order. */
    List<ServerBench.Run> runs(Framework f, Endpoint e, String scheduler, double load) {
        return runs.stream().filter(r -> r.framework() == f && r.endpoint() == e && r.scheduler().equals(scheduler)
                && r.load() == load).sorted(Comparator.comparingInt(ServerBench.Run::round)).toList();
    }

    /** The cell's runs, empty unless both schedulers have some. */
    Optional<Cell> cell(Framework f, Endpoint e, double load) {
        List<ServerBench.Run> jdk = runs(f, e, Schedulers.JDK, load);
        List<ServerBench.Run> shuttle = runs(f, e, Schedulers.SHUTTLE, load);
        return jdk.isEmpty() || shuttle.isEmpty() ? Optional.empty() : Optional.of(new Cell(jdk, shuttle));
    }

    private static boolean worse(double shuttle, double jdk, boolean higherIsBetter) {
        return higherIsBetter ? shuttle < jdk : shuttle > jdk;
    }
}
