package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The text in which the server sends its lock times and the parent reads them. */
class LockTimesTest {
    private static final LockTimes REENTRANT = new LockTimes(
            new LockTimes.Distribution(60, 900, 2100, 26000, 41000, 90000),
            new LockTimes.Distribution(60, 20100, 20500, 21900, 30000, 45000));
    private static final LockTimes NONE = new LockTimes(new LockTimes.Distribution(0, 0, 0, 0, 0, 0),
            new LockTimes.Distribution(0, 0, 0, 0, 0, 0));

    @Test
    void theServersTextReadsBackAsItWasWrittenEndpointsInTheirOrder() {
        Map<Endpoint, LockTimes> times = Map.of(Endpoint.LOCK_SPINBIT, NONE, Endpoint.LOCK_REENTRANT, REENTRANT);
        String text = LockTimes.format(times);
        assertEquals("""
                /lock/reentrant wait 60 900 2100 26000 41000 90000
                /lock/reentrant hold 60 20100 20500 21900 30000 45000
                /lock/spinbit wait 0 0 0 0 0 0
                /lock/spinbit hold 0 0 0 0 0 0
                """, text);
        assertEquals(times, LockTimes.parse(text));
    }

    /** What a {@link TimedLock} gives, from its real histograms, reads back the same. */
    @Test
    void aTimedLocksIntervalReadsBackTheSame() {
        TimedLock lock = new TimedLock(new ReentrantLock());
        for (int i = 0; i < 5; i++) {
            lock.spinUnder(10_000 * (i + 1));
        }
        Map<Endpoint, LockTimes> times = Map.of(Endpoint.LOCK_REENTRANT, lock.interval());
        assertEquals(5, times.get(Endpoint.LOCK_REENTRANT).holds().count());
        assertEquals(times, LockTimes.parse(LockTimes.format(times)));
    }

    @Test
    void summarisesAHistogram() {
        Histogram h = new Histogram(3);
        for (int v = 1; v <= 1000; v++) {
            h.recordValue(v);
        }
        assertEquals(new LockTimes.Distribution(1000, 500, 900, 990, 999, 1000), LockTimes.Distribution.of(h));
    }

    private static final String HOLD = "/lock/reentrant hold 1 1 1 1 1 1";
    private static final String FIELDS = "8 fields separated by single spaces are needed (path, wait or hold, count,"
            + " p50, p90, p99, p99.9, max), not ";
    private static final String ORDER = "a negative count or percentile, or a percentile below the one before it: ";

    /** A malformed line, and why. */
    static List<Arguments> malformedLines() {
        return List.of(
                Arguments.of("/lock/reentrant wait 1 1 1 1 1", FIELDS + 7),
                Arguments.of("/lock/reentrant  wait 1 1 1 1 1 1", FIELDS + 9),
                Arguments.of("/hello wait 1 1 1 1 1 1", "/hello takes no lock"),
                Arguments.of("/lock wait 1 1 1 1 1 1", "no endpoint /lock; the server has /hello, /sleep,"
                        + " /lock/reentrant, /lock/spinbit, /fanout, /file"),
                Arguments.of("/lock/reentrant waits 1 1 1 1 1 1", "the second field must be wait or hold, not waits"),
                Arguments.of("/lock/reentrant wait 1 1 1.5 1 1 1", "field 5 is not a whole number: 1.5"),
                Arguments.of("/lock/reentrant wait 3 5 4 6 7 8", ORDER + "count 3, p50 p90 p99 p99.9 max [5, 4, 6, 7,"
                        + " 8]"),
                Arguments.of("/lock/reentrant wait -1 0 0 0 0 0", ORDER + "count -1, p50 p90 p99 p99.9 max [0, 0, 0,"
                        + " 0, 0]"),
                Arguments.of(HOLD, "a second hold line for /lock/reentrant"));
    }

    /** After a good line, so that the message's line number is checked too. */
    @ParameterizedTest
    @MethodSource("malformedLines")
    void refusesAMalformedLineNamingIt(String line, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LockTimes.parse(HOLD + "\n" + line + "\n"));
        assertEquals("malformed lock times, line 2 `" + line + "`: " + why, e.getMessage());
    }

    @Test
    void refusesAnEndpointWithoutItsWaitOrItsHold() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LockTimes.parse(HOLD));
        assertEquals("malformed lock times: /lock/reentrant has no wait line", e.getMessage());
    }

    @Test
    void noTextIsNoLockTimes() {
        assertEquals(Map.of(), LockTimes.parse(""));
    }
}
