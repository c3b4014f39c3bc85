package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RatioIntervalTest {

    @Test
    void fiveRoundsAllBelowOneAreLower() {
        RatioInterval r = RatioInterval.of(new double[] {0.8, 0.82, 0.79, 0.85, 0.81});
        assertEquals(0.81, r.median(), 1e-9);
        assertTrue(r.low() <= r.median() && r.median() <= r.high(), r.toString());
        assertTrue(r.high() < 1.0, r.toString());
        assertEquals("lower", r.verdict());
    }

    @Test
    void anIntervalHoldingOneIsParityAndOneClearOfItIsHigher() {
        assertEquals("parity", RatioInterval.of(new double[] {0.7, 1.3, 0.9, 1.2, 1.05}).verdict());
        assertEquals("higher", RatioInterval.of(new double[] {1.4, 1.6, 1.5, 1.45, 1.7, 1.55}).verdict());
    }

    @Test
    void fewerThanFiveRoundsAreUnresolvedWhateverTheyShow() {
        RatioInterval r = RatioInterval.of(new double[] {2.0, 2.1, 2.2, 2.3});
        assertEquals("unresolved", r.verdict());
        assertTrue(r.format().endsWith("unresolved"), r.format());
    }

    @Test
    void roundsWithNothingToDivideByAreLeftOut() {
        RatioInterval r = RatioInterval.of(new double[] {0.5, Double.NaN, 0.5, 0.5, Double.POSITIVE_INFINITY, 0.5, 0.5});
        assertEquals(5, r.rounds());
        assertEquals("lower", r.verdict());
        assertEquals("-", RatioInterval.of(new double[] {Double.NaN}).format());
    }
}
