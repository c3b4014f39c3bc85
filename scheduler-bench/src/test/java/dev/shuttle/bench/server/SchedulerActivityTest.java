package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The line in which the server sends its scheduler's counters, and what the parent makes of two of them. */
class SchedulerActivityTest {
    private static final SchedulerActivity BEFORE = new SchedulerActivity(1000, 10, 400, 390, 100, 2, 1, 0, 2);
    private static final SchedulerActivity AFTER = new SchedulerActivity(5000, 50, 2400, 2390, 900, 5, 3, 1, 3);
    private static final String AFTER_LINE = "tasksRun=5000 steals=50 parks=2400 wakeUps=2390 emptyWakeUps=900"
            + " handOffs=5 monitorRetakes=3 monitorRescues=1 carrierThreads=3";

    @Test
    void theServersLineReadsBackAsItWasWrittenInAnyOrder() {
        assertEquals(AFTER_LINE, AFTER.format());
        assertEquals(AFTER, SchedulerActivity.parse(AFTER_LINE));
        assertEquals(AFTER, SchedulerActivity.parse("carrierThreads=3 monitorRescues=1 monitorRetakes=3 handOffs=5"
                + " emptyWakeUps=900 wakeUps=2390 parks=2400 steals=50 tasksRun=5000"));
    }

    private static final String NAMES = " is not name=value with a name of [tasksRun, steals, parks, wakeUps,"
            + " emptyWakeUps, handOffs, monitorRetakes, monitorRescues, carrierThreads]";

    /** A malformed line, and why. */
    static List<Arguments> malformedLines() {
        return List.of(
                Arguments.of("", "``" + NAMES),
                Arguments.of(AFTER_LINE.replace(" carrierThreads=3", ""), "no carrierThreads"),
                Arguments.of(AFTER_LINE + " timers=4", "`timers=4`" + NAMES),
                Arguments.of(AFTER_LINE.replace("steals=50", "steals"), "`steals`" + NAMES),
                Arguments.of(AFTER_LINE.replace(" steals", "  steals"), "``" + NAMES),
                Arguments.of(AFTER_LINE + " parks=1", "parks twice"),
                Arguments.of(AFTER_LINE.replace("wakeUps=2390", "wakeUps=2.5e3"), "wakeUps is not a whole number:"
                        + " 2.5e3"),
                Arguments.of(AFTER_LINE.replace("handOffs=5", "handOffs=-5"), "handOffs is negative: -5"));
    }

    @ParameterizedTest
    @MethodSource("malformedLines")
    void refusesAMalformedLineSayingWhatIsWrong(String line, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SchedulerActivity.parse(line));
        assertEquals("malformed scheduler activity `" + line + "`: " + why, e.getMessage());
    }

    @Test
    void theDifferenceIsTheCountersGrowthWithTheLaterCarrierThreads() {
        assertEquals(new SchedulerActivity(4000, 40, 2000, 2000, 800, 3, 2, 1, 3), AFTER.since(BEFORE));
        SchedulerActivity fewerCarriers = new SchedulerActivity(1000, 10, 400, 390, 100, 2, 1, 0, 1);
        assertEquals(1, fewerCarriers.since(BEFORE).carrierThreads(), "a gauge, which may go down");
    }

    @Test
    void aCounterThatWentDownIsNoEarlierReadingOfTheSameScheduler() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BEFORE.since(AFTER));
        assertEquals("tasksRun went down from 5000 to 1000: not an earlier reading of the same scheduler",
                e.getMessage());
        SchedulerActivity fewerParks = new SchedulerActivity(1000, 10, 399, 390, 100, 2, 1, 0, 2);
        e = assertThrows(IllegalArgumentException.class, () -> fewerParks.since(BEFORE));
        assertTrue(e.getMessage().startsWith("parks went down from 400 to 399"), e.getMessage());
    }

    @Test
    void perRequestAndTheEmptyShareOfWakeUps() {
        SchedulerActivity run = AFTER.since(BEFORE);
        assertEquals(2.5, run.wakeUpsPerRequest(800));
        assertEquals(1.0, run.emptyWakeUpsPerRequest(800));
        assertEquals(0.05, run.stealsPerRequest(800));
        assertEquals(2.5, run.parksPerRequest(800));
        assertEquals(40.0, run.emptyWakeUpPercent());
        assertTrue(Double.isNaN(run.wakeUpsPerRequest(0)), "no request, nothing per request");
        assertTrue(Double.isNaN(new SchedulerActivity(0, 0, 0, 0, 0, 0, 0, 0, 2).emptyWakeUpPercent()),
                "no wake-up, no share of them");
    }
}
