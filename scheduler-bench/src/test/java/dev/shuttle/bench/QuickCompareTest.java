package dev.shuttle.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.bench.report.Measurement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuickCompareTest {
    private static Measurement m(String scheduler, double value) {
        return new Measurement("sched.PingPong.roundTrip", Map.of("scheduler", scheduler), "score", value, "ns/op");
    }

    /** Means per side, the ratio of the means, and the per-round ratios' range beside it. */
    @Test
    void showsTheRangeOfPerRoundRatios() {
        String text = QuickCompare.table(List.of(List.of(m("jdk", 100), m("shuttle", 50)),
                List.of(m("shuttle", 70), m("jdk", 100))));
        String row = text.lines().filter(l -> l.startsWith("sched.PingPong")).findFirst().orElseThrow();
        assertTrue(row.contains("0.60x"), row);
        assertTrue(row.contains("0.50x-0.70x (2)"), row);
    }
}
