package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlternatedRoundsTest {

    @Test
    void aResultLineGivesItsPairsInOrder() {
        Map<String, Long> pairs = AlternatedRounds.parseResult("RESULT echoes=20 cpuNanos=123456789 mx.Polls=-3");
        assertEquals(List.of("echoes", "cpuNanos", "mx.Polls"), List.copyOf(pairs.keySet()));
        assertEquals(123_456_789L, pairs.get("cpuNanos"));
        assertEquals(-3L, pairs.get("mx.Polls"));
    }

    @Test
    void anythingElseIsRefusedNamingTheLine() {
        assertThrows(IllegalArgumentException.class, () -> AlternatedRounds.parseResult("PORT 80"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AlternatedRounds.parseResult("RESULT echoes"));
        assertTrue(e.getMessage().contains("echoes"), e.getMessage());
        assertThrows(NumberFormatException.class, () -> AlternatedRounds.parseResult("RESULT a=1.5"));
    }

    @Test
    void theTableShowsMediansAndRatiosToTheBaselineRoundByRound() {
        Map<String, List<Map<String, Double>>> byConfig = new LinkedHashMap<>();
        byConfig.put("jdk", List.of(Map.of("cpu", 10.0, "jdkOnly", 1.0), Map.of("cpu", 20.0, "jdkOnly", 1.0),
                Map.of("cpu", 30.0, "jdkOnly", 1.0)));
        // Per-round ratios 0.5, 0.5, 0.5: the median of the ratios, not the ratio of the medians.
        byConfig.put("shuttle", List.of(Map.of("cpu", 5.0), Map.of("cpu", 10.0), Map.of("cpu", 15.0)));
        String table = AlternatedRounds.table(byConfig, List.of("jdk", "shuttle"), "jdk");
        List<String> lines = table.lines().toList();
        assertEquals(2, lines.size(), table);
        assertTrue(lines.get(0).contains("jdk 20.000 [10.000, 30.000]"), table);
        assertTrue(lines.get(0).contains("shuttle 10.000 [5.000, 15.000] (0.50x [0.50, 0.50]"), table);
        assertTrue(lines.get(0).endsWith("unresolved)"), "three rounds decide nothing: " + table);
        assertTrue(lines.get(1).contains("jdkOnly") && lines.get(1).endsWith("shuttle -"), table);
    }

    @Test
    void argumentsAreWholePositiveNumbers() {
        assertEquals(3, AlternatedRounds.positive("--rounds", "3"));
        assertEquals(List.of(1, 2), AlternatedRounds.positives("--clients", "1, 2"));
        assertThrows(IllegalArgumentException.class, () -> AlternatedRounds.positive("--rounds", "0"));
        assertThrows(IllegalArgumentException.class, () -> AlternatedRounds.positive("--rounds", "x"));
        assertThrows(IllegalArgumentException.class, () -> AlternatedRounds.positive("--rounds", null));
    }

    @Test
    void aChildRunsToItsLastResultLine() throws Exception {
        Map<String, Long> pairs = AlternatedRounds.runChild("child", List.of("sh", "-c",
                "echo starting; echo 'RESULT a=1'; echo 'RESULT a=2 b=3'"), 30);
        assertEquals(Map.of("a", 2L, "b", 3L), pairs);
    }

    @Test
    void aChildThatFailsPrintsNoResultOrOverrunsFailsTheRun() {
        IllegalStateException failed = assertThrows(IllegalStateException.class,
                () -> AlternatedRounds.runChild("child", List.of("sh", "-c", "echo 'RESULT a=1'; exit 3"), 30));
        assertTrue(failed.getMessage().contains("exit 3"), failed.getMessage());
        assertThrows(IllegalStateException.class, () -> AlternatedRounds.runChild("child", List.of("true"), 30));
        long start = System.nanoTime();
        IllegalStateException overran = assertThrows(IllegalStateException.class,
                () -> AlternatedRounds.runChild("child", List.of("sleep", "60"), 1));
        assertTrue(overran.getMessage().contains("within 1 s"), overran.getMessage());
        assertTrue(System.nanoTime() - start < 30_000_000_000L, "the child was killed at its bound, not waited for");
    }

    @Test
    void eachGroupOfTheReportIsNamedByItsTitle() {
        Map<String, List<Map<String, Double>>> byConfig = new LinkedHashMap<>();
        byConfig.put("jdk", List.of(Map.of("cpu", 10.0)));
        byConfig.put("shuttle", List.of(Map.of("cpu", 5.0)));
        String report = AlternatedRounds.report("heading\n", Map.of(10, byConfig), List.of("jdk", "shuttle"),
                "%d sleepers");
        assertTrue(report.startsWith("heading\n\n10 sleepers\n"), report);
        assertTrue(AlternatedRounds.report("h\n", Map.of(2, byConfig), List.of("jdk", "shuttle"))
                .contains("2 client(s) in flight"));
    }

    @Test
    void configurationsRotateFromRoundToRoundAndRoundsKeepTheirOrder() throws Exception {
        List<String> order = new ArrayList<>();
        Map<Integer, Map<String, List<Map<String, Double>>>> results = AlternatedRounds.rotate(3, List.of(1, 2),
                List.of("a", "b", "c"), c -> c, "clients", (c, g) -> {
                    order.add(c + g);
                    return Map.of("run", (double) order.size());
                });
        assertEquals(List.of("a1", "b1", "c1", "a2", "b2", "c2", "b1", "c1", "a1", "b2", "c2", "a2",
                "c1", "a1", "b1", "c2", "a2", "b2"), order);
        assertEquals(List.of(5.0, 10.0, 18.0), results.get(2).get("b").stream().map(r -> r.get("run")).toList());
    }
}
