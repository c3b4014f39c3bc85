package dev.shuttle.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class ChartsTest {
    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void barChartIsWellFormedSvgWithOneRectPerValue() throws Exception {
        Map<String, double[]> series = new LinkedHashMap<>();
        series.put("jdk", new double[] {0.5, 2.4, 14.2, 8265});
        series.put("shuttle <&> \"x\"", new double[] {0.4, Double.NaN, 10, 900});
        Document doc = parse(Charts.bars("PingPong & co", "µs", List.of("p50", "p99", "p99.9", "max"), series, true));
        assertEquals("svg", doc.getDocumentElement().getLocalName());
        assertEquals("http://www.w3.org/2000/svg", doc.getDocumentElement().getNamespaceURI());
        // background + 7 bars + 2 legend swatches
        assertEquals(10, doc.getElementsByTagName("rect").getLength());
        assertTrue(doc.getDocumentElement().getTextContent().contains("shuttle <&> \"x\""));
    }

    @Test
    void lineChartIsWellFormed() throws Exception {
        Map<String, double[][]> series = Map.of("jdk", new double[][] {{2, 3.5}, {8, 4.1}, {64, 9.0}});
        Document doc = parse(Charts.lines("Wakeup", "parallelism", "µs", series));
        assertEquals(1, doc.getElementsByTagName("polyline").getLength());
        assertEquals(3, doc.getElementsByTagName("circle").getLength());
    }

    @Test
    void plotsPicksLatencyAndCpuCharts() throws Exception {
        List<Measurement> ms = List.of(
                new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", "jdk"), "p99_us", 2, "#"),
                new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", "shuttle"), "p99_us", 1, "#"),
                new Measurement("timer.Tickers.window", Map.of("scheduler", "jdk", "threads", "10"), "cpu_us_per_op",
                        26, "#"));
        Map<String, String> plots = Plots.all(ms);
        assertEquals(List.of("latency-sched-pingpong-roundtrip.svg", "cpu-per-wakeup.svg"),
                List.copyOf(plots.keySet()));
        for (String svg : plots.values()) {
            parse(svg);
        }
    }
}
