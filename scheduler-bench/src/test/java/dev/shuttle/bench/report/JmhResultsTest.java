package dev.shuttle.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JmhResultsTest {
    /** The shape JMH 1.37 writes with -rf json, trimmed. */
    static final String JSON = """
            [
                {
                    "jmhVersion" : "1.37",
                    "benchmark" : "dev.shuttle.bench.sched.PingPong.roundTrip",
                    "mode" : "avgt",
                    "threads" : 1,
                    "forks" : 1,
                    "jdkVersion" : "25.0.3",
                    "vmName" : "OpenJDK 64-Bit Server VM",
                    "vmVersion" : "25.0.3+9-LTS",
                    "params" : { "scheduler" : "shuttle" },
                    "primaryMetric" : {
                        "score" : 1478.5, "scoreError" : "NaN",
                        "scoreConfidence" : [ "NaN", "NaN" ],
                        "scorePercentiles" : { "0.0" : 1478.5, "100.0" : 1478.5 },
                        "scoreUnit" : "ns/op",
                        "rawData" : [ [ 1400.1, 1556.9 ] ]
                    },
                    "secondaryMetrics" : {
                        "p99_us" : { "score" : 2.435, "scoreError" : "NaN", "scoreUnit" : "#" },
                        "max_us" : { "score" : 8.2e3, "scoreError" : "NaN", "scoreUnit" : "#" }
                    }
                },
                {
                    "benchmark" : "dev.shuttle.bench.timer.TimerStop.armAndCancel",
                    "mode" : "avgt",
                    "threads" : 2,
                    "params" : { "impl" : "stpe" },
                    "primaryMetric" : { "score" : 95.0, "scoreUnit" : "ns/op" },
                    "secondaryMetrics" : { }
                }
            ]
            """;

    @Test
    void readsPrimaryAndSecondaryMetrics() {
        List<Measurement> ms = JmhResults.fromJson(JSON);
        assertEquals(4, ms.size());
        Measurement primary = ms.get(0);
        assertEquals("sched.PingPong.roundTrip", primary.benchmark());
        assertEquals(Map.of("scheduler", "shuttle"), primary.params());
        assertEquals(Measurement.SCORE, primary.metric());
        assertEquals(1478.5, primary.value());
        assertEquals("ns/op", primary.unit());
        assertEquals("p99_us", ms.get(1).metric());
        assertEquals(2.435, ms.get(1).value());
        assertEquals(8200.0, ms.get(2).value());
        assertEquals(Map.of("impl", "stpe", JmhResults.THREADS, "2"), ms.get(3).params());
    }

    @Test
    void readsJvm() {
        assertEquals("25.0.3 (OpenJDK 64-Bit Server VM 25.0.3+9-LTS)", JmhResults.jvm(JSON));
    }

    @Test
    void shortNames() {
        assertEquals("lock.MutexContention.run", Measurement.shortName("dev.shuttle.bench.lock.MutexContention.run"));
        assertEquals("Other.run", Measurement.shortName("org.example.Other.run"));
    }

    @Test
    void jsonParsesEscapesAndRejectsMalformedInput() {
        assertEquals(List.of("a\"b", "µ", 1.0, true, Map.of()), Json.parse("[\"a\\\"b\", \"\\u00b5\", 1, true, {}]"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[1, 2"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\" 1}"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[] x"));
    }
}
