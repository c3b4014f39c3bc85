package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoundSummaryTest {
    /** A maximum-throughput run whose server CPU, the metric these tests compare, is {@code cpuNanos}. */
    private static ServerBench.Run run(int round, String scheduler, long cpuNanos) {
        return ServerReportTest.run(round, Endpoint.SLEEP, scheduler, 0, 100, 100, cpuNanos, 0, 0);
    }

    private static RoundSummary.Cell cell(long[] jdk, long[] shuttle) {
        List<ServerBench.Run> runs = new ArrayList<>();
        // Last round first: pairs are made by round number, not by the order runs were listed in.
        for (int round = jdk.length; round >= 1; round--) {
            runs.add(run(round, "shuttle", shuttle[round - 1]));
            runs.add(run(round, "jdk", jdk[round - 1]));
        }
        return new RoundSummary(runs).cell(Framework.HELIDON, Endpoint.SLEEP, 0).orElseThrow();
    }

    @Test
    void aSpreadIsTheMedianAndTheExtremesLeavingOutNaN() {
        assertEquals(new RoundSummary.Spread(2, 1, 11), RoundSummary.Spread.of(11, 1, 2));
        assertEquals(new RoundSummary.Spread(2.5, 1, 4), RoundSummary.Spread.of(4, Double.NaN, 1, 3, 2));
        assertTrue(Double.isNaN(RoundSummary.Spread.of(Double.NaN).median()));
    }

    @Test
    void theRatioIsTheMedianOfPerRoundRatiosNotTheRatioOfMedians() {
        // Per-round ratios 4/2, 5/10, 6/5; the medians are both 5, a ratio of 1.
        RoundSummary.Comparison c = cell(new long[] {2, 10, 5}, new long[] {4, 5, 6})
                .compare(ServerBench.Run::serverCpuNanos, false);
        assertEquals(new RoundSummary.Spread(5, 2, 10), c.jdk());
        assertEquals(new RoundSummary.Spread(5, 4, 6), c.shuttle());
        assertEquals(1.2, c.ratio().median(), 1e-9);
        assertEquals(0.5, c.ratio().low(), 1e-9);
        assertEquals(2.0, c.ratio().high(), 1e-9);
        assertEquals(3, c.rounds());
        assertFalse(c.shuttleLoses(), "equal medians are no loss");
    }

    @Test
    void countsTheRoundsShuttleWasWorseInAndJudgesTheLossOnTheMedians() {
        long[] jdk = {2, 10, 3};
        long[] shuttle = {4, 5, 3};
        RoundSummary.Comparison lowerIsBetter = cell(jdk, shuttle).compare(ServerBench.Run::serverCpuNanos, false);
        assertEquals(1, lowerIsBetter.shuttleWorse(), "round 1 only; round 3 is a tie");
        assertTrue(lowerIsBetter.shuttleLoses(), "median 4 against 3");
        RoundSummary.Comparison higherIsBetter = cell(jdk, shuttle).compare(ServerBench.Run::serverCpuNanos, true);
        assertEquals(1, higherIsBetter.shuttleWorse(), "round 2 only");
        assertFalse(higherIsBetter.shuttleLoses());
    }

    @Test
    void aCellNeedsBothSchedulersAndTheSameRoundsOnEach() {
        RoundSummary onlyJdk = new RoundSummary(List.of(run(1, "jdk", 1)));
        assertTrue(onlyJdk.cell(Framework.HELIDON, Endpoint.SLEEP, 0).isEmpty());
        assertTrue(onlyJdk.cell(Framework.HELIDON, Endpoint.HELLO, 0).isEmpty());
        RoundSummary unpaired = new RoundSummary(List.of(run(1, "jdk", 1), run(2, "jdk", 1), run(1, "shuttle", 1),
                run(3, "shuttle", 1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> unpaired.cell(Framework.HELIDON, Endpoint.SLEEP, 0));
        assertEquals("runs of rounds [1, 2] on the JDK default but [1, 3] on Shuttle", e.getMessage());
    }
}
