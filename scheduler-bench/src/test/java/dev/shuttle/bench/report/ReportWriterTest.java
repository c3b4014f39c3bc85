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
        assertTrue(md.contains("| sched.PingPong.roundTrip |  | score | ns/op | 1,479 | 3,000 | 2.03x | lower | - |"));
        assertTrue(md.contains("**sched.PingPong.roundTrip** score: 2.03x"));
        assertTrue(md.contains("| timer.TimerStop.armAndCancel | impl=stpe jmh.threads=2 | score | 95 | ns/op | 121.3 |"));
        assertTrue(md.contains("![x.svg](benchmarks/x.svg)"));
        assertTrue(md.contains("| ParallelTimerLatency | 2 |"));
    }
}
