package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ServerReportTest {
    private static ServerBench.Run run(Endpoint e, String scheduler, double load, long completed, long latencyMicros,
            long serverCpuNanos) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(latencyMicros * 1_000, completed);
        return new ServerBench.Run(Framework.HELIDON, e, scheduler, load, load * 1_000,
                new LoadGenerator.Result(completed, completed, 0, 0, 1_000_000_000L, h, completed * 10_000, ""),
                serverCpuNanos);
    }

    @Test
    void tablesPairBothSchedulersAndListEveryLoss() {
        List<ServerBench.Run> runs = new ArrayList<>();
        runs.add(run(Endpoint.HELLO, "jdk", 0, 1000, 500, 100_000_000));
        runs.add(run(Endpoint.HELLO, "shuttle", 0, 900, 500, 80_000_000));
        runs.add(run(Endpoint.HELLO, "jdk", 0.5, 500, 200, 50_000_000));
        runs.add(run(Endpoint.HELLO, "shuttle", 0.5, 500, 300, 40_000_000));
        ServerBench.Settings settings = new ServerBench.Settings("test", 1, 1, 1, new double[] {0.5}, 4, 1);
        ServerBench.Results results = new ServerBench.Results(settings, runs,
                Map.of(Framework.HELIDON, Map.of("jdk", "java A", "shuttle", "java -javaagent:x A")));
        String md = ServerReport.markdown(results, "cmd", "plots");
        assertTrue(md.contains("| /hello | 1,000 | 900 | 0.90x |"), md);
        assertTrue(md.contains("| /hello | 50% | 500 | 0.200 / 0.300 (1.50x) |"), md);
        assertTrue(md.contains("### Helidon SE (helidon-webserver 4.5.0)"), md);
        assertFalse(md.contains("com.sun.net.httpserver,"), "a framework that did not run has no section: " + md);
        String losses = md.substring(md.indexOf("#### Helidon SE: where Shuttle loses"));
        assertTrue(losses.contains("/hello maximum throughput: 0.90x"), losses);
        assertTrue(losses.contains("/hello at 50% p99: 1.50x"), losses);
        assertFalse(losses.contains("server CPU per request at 50%"), losses);
        assertTrue(md.contains("![Helidon SE /hello](plots/server-helidon-hello.svg)"), md);
        Map<String, String> plots = ServerReport.plots(results);
        assertEquals(1, plots.size());
        assertTrue(plots.get("server-helidon-hello.svg").contains("Shuttle p99"));
    }
}
