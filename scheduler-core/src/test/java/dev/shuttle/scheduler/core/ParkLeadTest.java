package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The watcher's park lead ({@link TimerSleepers#nextParkLead}), fed one overshoot at a time as a carrier would. */
class ParkLeadTest {
    private static final class Estimate {
        private long lead;

        void record(long overshoot) {
            lead = TimerSleepers.nextParkLead(lead, overshoot);
        }

        long lead() {
            return lead;
        }
    }


    @Test
    void leadSettlesAtTheLowQuantileOfTheOvershoots() {
        Estimate estimate = new Estimate();
        SplittableRandom random = new SplittableRandom(3);
        long[] recent = new long[20_000];
        for (int i = 0; i < 40_000; i++) {
            // 30-70 µs uniform, plus a tail: the shape of this VM's timed-park overshoot.
            long overshoot = 30_000 + random.nextLong(40_000) + (random.nextInt(50) == 0 ? 500_000 : 0);
            estimate.record(overshoot);
            recent[i % recent.length] = overshoot;
        }
        long[] sorted = recent.clone();
        Arrays.sort(sorted);
        long p10 = sorted[sorted.length * TimerSleepers.QUANTILE_PERCENT / 100];
        long early = Arrays.stream(recent).filter(o -> o < estimate.lead()).count();
        assertTrue(Math.abs(estimate.lead() - p10) <= 3_000, "lead " + estimate.lead() + " against p10 " + p10);
        assertTrue(early > recent.length * 5 / 100 && early < recent.length * 15 / 100,
                "parks that would end before the lead, and spin: " + early + " of " + recent.length);
    }

    @Test
    void leadStartsAtZeroAndStaysWithinItsBound() {
        Estimate estimate = new Estimate();
        assertEquals(0, estimate.lead(), "no early wake-up before anything was measured");
        for (int i = 0; i < 100_000; i++) {
            estimate.record(10_000_000);
        }
        assertEquals(TimerSleepers.MAX_LEAD_NANOS, estimate.lead());
        for (int i = 0; i < 100_000; i++) {
            estimate.record(0);
        }
        assertEquals(0, estimate.lead());
    }

    @Test
    void leadFollowsTheMachineWhenItsLatencyDrops() {
        Estimate estimate = new Estimate();
        for (int i = 0; i < 10_000; i++) {
            estimate.record(60_000);
        }
        assertTrue(estimate.lead() >= 58_000, "lead " + estimate.lead());
        for (int i = 0; i < 1_000; i++) {
            estimate.record(5_000);
        }
        assertTrue(estimate.lead() <= 7_000, "lead " + estimate.lead() + " after the overshoot fell to 5 µs");
    }
}
