package dev.shuttle.bench.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportWriterTest {
    @Test
    void reportHasContextTablesLossesAndGoColumn() {
        List<Measurement> ms = JmhResults.fromJson(JmhResultsTest.JSON.replace("\"shuttle\"", "\"jdk\""));
        List<Measurement> all = new java.util.ArrayList<>(ms);
        all.add(new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", "shuttle"), "score", 3000, "ns/op"));
        List<GoBench.Result> go = GoBench.parse(GoBenchTest.OUTPUT);
        String md = ReportWriter.markdown(new ReportWriter.Context("FullRun", "2025-01-01", "25", "2 cores", "shared"),
                all, new GoReference(go, 2), go, Map.of("x.svg", "<svg/>"), List.of("a note"));
        assertTrue(md.contains("- Note: shared"));
        assertTrue(md.contains("| sched.PingPong.roundTrip |  | **score** | ns/op | 1,479 | 3,000 | 2.03x | lower | - |"));
        assertTrue(md.contains("**sched.PingPong.roundTrip** score: 2.03x"));
        assertTrue(md.contains("| timer.TimerStop.armAndCancel | impl=stpe jmh.threads=2 | score | 95 | ns/op | 121.3 |"));
        assertTrue(md.contains("![x.svg](benchmarks/x.svg)"));
        assertTrue(md.contains("timer slack"));
        assertTrue(md.contains("| ParallelTimerLatency | 2 |"));
    }

    /** The summary opens the report: primary metrics only, a verdict per row, before the charts and the full table. */
    @Test
    void summaryOfPrimaryMetricsComesFirstThenChartsThenTheFullTable() {
        List<Measurement> ms = List.of(
                new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", "jdk"), "score", 2000, "ns/op"),
                new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", "shuttle"), "score", 1000, "ns/op"),
                new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", "jdk"), "p99_us", 1, "us"),
                new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", "shuttle"), "p99_us", 9, "us"),
                new Measurement("sched.Skynet.tree", Map.of("scheduler", "jdk"), "score", 100, "ms/op"),
                new Measurement("sched.Skynet.tree", Map.of("scheduler", "shuttle"), "score", 130, "ms/op"),
                new Measurement("sched.Wakeup.pair", Map.of("scheduler", "jdk"), "score", 100, "ns/op"),
                new Measurement("sched.Wakeup.pair", Map.of("scheduler", "shuttle"), "score", 103, "ns/op"));
        String md = ReportWriter.markdown(new ReportWriter.Context("c", "d", "25", "m", ""), ms,
                new GoReference(List.of(), 2), List.of(), Map.of("x.svg", "<svg/>"), List.of());
        int summary = md.indexOf("## Summary");
        int charts = md.indexOf("## Charts");
        int full = md.indexOf("## JDK default scheduler versus Shuttle");
        assertTrue(summary > 0 && summary < md.indexOf("## How to reproduce") && charts > summary && full > charts, md);
        String table = md.substring(summary, charts);
        assertTrue(table.contains("| sched.PingPong.roundTrip |  | score (ns/op, lower is better) | 2,000 | 1,000 | 0.50x"
                + " | Shuttle better |"), table);
        assertTrue(table.contains("| 1.30x | **Shuttle worse** |"), table);
        assertTrue(table.contains("| 1.03x | level |"), table);
        assertTrue(!table.contains("p99_us"), table);
    }
}

class ReportWriterLossesTest {
    private static Measurement m(String scheduler, String metric, double value) {
        return new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", scheduler), metric, value, "#");
    }

    /** A 2 % loss is listed too, apart from the large ones; a win is not. */
    @Test
    void listsEveryRowWhereShuttleIsWorse() {
        String md = ReportWriter.markdown(new ReportWriter.Context("c", "d", "25", "m", ""),
                List.of(m("jdk", "p50_us", 100), m("shuttle", "p50_us", 102), m("jdk", "p99_us", 100),
                        m("shuttle", "p99_us", 150), m("jdk", "max_us", 100), m("shuttle", "max_us", 90)),
                new GoReference(List.of(), 2), List.of(), Map.of(), List.of());
        String losses = md.substring(md.indexOf("## Where Shuttle loses"));
        assertTrue(losses.contains("p99_us: 1.50x"), losses);
        assertTrue(losses.contains("p50_us: 1.02x"), losses);
        assertTrue(losses.indexOf("p99_us: 1.50x") < losses.indexOf("p50_us: 1.02x"), losses);
        assertTrue(!losses.contains("max_us"), losses);
    }
}
