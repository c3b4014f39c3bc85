package dev.shuttle.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ComparisonTableTest {
    private static Measurement m(String bench, String scheduler, String metric, double value, String unit) {
        return new Measurement(bench, Map.of("scheduler", scheduler, "threads", "10"), metric, value, unit);
    }

    @Test
    void pairsJdkAndShuttleAndComputesRatio() {
        ComparisonTable t = new ComparisonTable(List.of(
                m("timer.Tickers.window", "jdk", "cpu_us_per_op", 20, "#"),
                m("timer.Tickers.window", "shuttle", "cpu_us_per_op", 5, "#"),
                m("timer.Tickers.window", "jdk", "ops_per_s", 1000, "#"),
                m("timer.Tickers.window", "shuttle", "ops_per_s", 1500, "#")));
        assertEquals(2, t.rows().size());
        ComparisonTable.Row cpu = t.rows().get(1);
        assertEquals("threads=10", cpu.params());
        assertEquals(0.25, cpu.ratio(), 1e-12);
        assertFalse(cpu.higherIsBetter());
        assertFalse(cpu.shuttleLoses(0.05));
        ComparisonTable.Row rate = t.rows().get(0); // Tickers' primary metric
        assertTrue(rate.higherIsBetter());
        assertEquals(1.5, rate.ratio(), 1e-12);
    }

    @Test
    void lossDependsOnDirection() {
        ComparisonTable t = new ComparisonTable(List.of(
                m("sched.PingPong.roundTrip", "jdk", "score", 100, "ns/op"),
                m("sched.PingPong.roundTrip", "shuttle", "score", 120, "ns/op"),
                m("x.Rate.run", "jdk", "score", 100, "ops/s"),
                m("x.Rate.run", "shuttle", "score", 120, "ops/s")));
        assertTrue(t.rows().get(0).shuttleLoses(0.05));
        assertFalse(t.rows().get(1).shuttleLoses(0.05));
    }

    @Test
    void missingSideGivesNoRatioAndUnpairedAreKept() {
        ComparisonTable t = new ComparisonTable(List.of(
                m("sched.Skynet.tree", "jdk", "score", 2800, "ms/op"),
                new Measurement("timer.TimerStop.armAndCancel", Map.of("impl", "stpe"), "score", 90, "ns/op")));
        assertNull(t.rows().get(0).shuttle());
        assertTrue(Double.isNaN(t.rows().get(0).ratio()));
        assertEquals(1, t.unpaired().size());
        assertTrue(t.toText().contains("-"));
    }

    /** Tickers' JMH score is its window length: the table drops it and lists the declared primary metric first. */
    @Test
    void windowScoreGivesWayToThePrimaryMetric() {
        ComparisonTable t = new ComparisonTable(List.of(
                m("timer.Tickers.window", "jdk", "score", 100, "ms/op"),
                m("timer.Tickers.window", "shuttle", "score", 100, "ms/op"),
                m("timer.Tickers.window", "jdk", "p99_us", 20, "#"),
                m("timer.Tickers.window", "shuttle", "p99_us", 10, "#"),
                m("timer.Tickers.window", "jdk", "ops_per_s", 1000, "#"),
                m("timer.Tickers.window", "shuttle", "ops_per_s", 1500, "#"),
                m("sched.PingPong.roundTrip", "jdk", "score", 2, "ns/op"),
                m("sched.PingPong.roundTrip", "shuttle", "score", 1, "ns/op")));
        assertEquals(List.of("ops_per_s", "p99_us", "score"), t.rows().stream().map(ComparisonTable.Row::metric).toList());
        assertEquals(List.of(true, false, true), t.rows().stream().map(ComparisonTable.Row::primary).toList());
        assertEquals(java.util.Optional.of("ops_per_s"), ComparisonTable.primaryMetric("timer.Tickers.window"));
        assertEquals(java.util.Optional.empty(), ComparisonTable.primaryMetric("sched.PingPong.roundTrip"));
    }

    @Test
    void formatsNumbersAndRatios() {
        assertEquals("2,800", ComparisonTable.format(2800.4));
        assertEquals("123.5", ComparisonTable.format(123.45));
        assertEquals("12.35", ComparisonTable.format(12.345));
        assertEquals("0.749", ComparisonTable.format(0.7491));
        assertEquals("-", ComparisonTable.format(null));
        assertEquals("0.85x", ComparisonTable.formatRatio(0.8512));
        assertEquals("-", ComparisonTable.formatRatio(Double.NaN));
    }

    @Test
    void textTableHasHeaderAndAlignedRows() {
        String text = new ComparisonTable(List.of(
                m("sched.PingPong.roundTrip", "jdk", "p99_us", 2.4, "#"),
                m("sched.PingPong.roundTrip", "shuttle", "p99_us", 1.2, "#"))).toText();
        List<String> lines = text.lines().toList();
        assertEquals(3, lines.size());
        assertTrue(lines.get(0).startsWith("benchmark"));
        assertTrue(lines.get(0).contains("Shuttle/JDK"));
        assertTrue(lines.get(2).contains("0.50x"));
        assertTrue(lines.get(2).contains("lower"));
        assertEquals(lines.get(0).indexOf("metric"), lines.get(2).indexOf("p99_us"));
    }

    @Test
    void markdownAddsReferenceColumn() {
        String md = new ComparisonTable(List.of(m("sched.Skynet.tree", "jdk", "score", 2, "ms/op"),
                m("sched.Skynet.tree", "shuttle", "score", 1, "ms/op"))).toMarkdown(r -> "1.3", "Go");
        assertTrue(md.lines().findFirst().orElseThrow().endsWith("Go |"));
        assertTrue(md.contains("| 0.50x | lower | 1.3 |"));
    }
}
