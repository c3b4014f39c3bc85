package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SlowestRequestsTest {
    /** A server that does not send its dispatch. */
    private static final long N = HttpConnection.NOT_HANDLED;

    /**
     * 200 requests of about 1 ms on two recorders, and two slow ones: one that waited 6 ms behind its connection's
     * previous answer and 3 ms more to be sent, and one 19 ms slow to reach the handler.
     */
    private static List<SlowestRequests.Recorder> twoSlowAmong200() {
        SlowestRequests.Recorder a = new SlowestRequests.Recorder(101);
        SlowestRequests.Recorder b = new SlowestRequests.Recorder(101);
        for (int i = 0; i < 100; i++) {
            a.record(0, -1, 100_000, N, N, 500_000, 1_000_000);
            b.record(0, -1, 100_000, N, N, 500_000, 1_000_000 + 10 * i);
        }
        a.record(0, 6_000_000, 9_000_000, N, N, 9_100_000, 10_000_000);
        b.record(0, -5, 100_000, N, N, 19_000_000, 20_000_000);
        return List.of(a, b);
    }

    /** The slowest 1 % are exactly the two slow ones, each cut at the previous answer, the send and the handler. */
    @Test
    void splitsTheSlowestOnePercentAtThePreviousAnswerTheSendAndTheHandler() {
        SlowestRequests.Split slow = SlowestRequests.of(twoSlowAmong200(), SlowestRequests.From.INTENDED_START);

        assertEquals(2, slow.requests());
        assertEquals(15_000_000, slow.latency(), 1e-6);
        assertEquals((6_000_000 + 0) / 2.0, slow.behindPrevious(), 1e-6);
        assertEquals((3_000_000 + 100_000) / 2.0, slow.waitingToSend(), 1e-6);
        assertEquals((100_000 + 18_900_000) / 2.0, slow.toHandler(), 1e-6);
        assertEquals((900_000 + 1_000_000) / 2.0, slow.back(), 1e-6);
        assertEquals(slow.latency(), slow.behindPrevious() + slow.waitingToSend() + slow.toHandler() + slow.back(),
                1e-6);
    }

    /**
     * By service time the request that waited 9 ms before its send counts only from its send (1 ms), and still is
     * the second slowest served: the slowest 1 % are again those two, with nothing before the send.
     */
    @Test
    void fromTheSendTheSlowestAreTheSlowestServed() {
        SlowestRequests.Split served = SlowestRequests.of(twoSlowAmong200(), SlowestRequests.From.SEND);

        assertEquals(2, served.requests());
        assertEquals((1_000_000 + 19_900_000) / 2.0, served.latency(), 1e-6);
        assertEquals(0, served.behindPrevious(), 1e-6);
        assertEquals(0, served.waitingToSend(), 1e-6);
        assertEquals((100_000 + 18_900_000) / 2.0, served.toHandler(), 1e-6);
        assertEquals((900_000 + 1_000_000) / 2.0, served.back(), 1e-6);
    }

    /** Without the dispatch's moments there is nothing to cut the time to the handler at. */
    @Test
    void noDispatchSentIsNoCutAtTheDispatch() {
        SlowestRequests.Split slow = SlowestRequests.of(twoSlowAmong200(), SlowestRequests.From.INTENDED_START);

        assertTrue(Double.isNaN(slow.toDispatch()) && Double.isNaN(slow.waitingToRun())
                && Double.isNaN(slow.reading()));
    }

    /**
     * 200 requests whose server sent its dispatch; the two slowest reached the handler late, one because its thread
     * waited 8 ms to run, one because the dispatcher took 4 ms to notice it: the time to the handler is cut there.
     */
    @Test
    void theTimeToTheHandlerIsCutAtTheDispatchAndTheThreadsStart() {
        SlowestRequests.Recorder r = new SlowestRequests.Recorder(200);
        for (int i = 0; i < 198; i++) {
            r.record(0, -1, 100_000, 200_000, 300_000, 400_000, 1_000_000);
        }
        r.record(0, -1, 100_000, 200_000, 8_200_000, 8_300_000, 9_000_000);
        r.record(0, -1, 100_000, 4_100_000, 4_200_000, 4_500_000, 5_000_000);

        SlowestRequests.Split slow = SlowestRequests.of(List.of(r), SlowestRequests.From.SEND);

        assertEquals(2, slow.requests());
        assertEquals((100_000 + 4_000_000) / 2.0, slow.toDispatch(), 1e-6);
        assertEquals((8_000_000 + 100_000) / 2.0, slow.waitingToRun(), 1e-6);
        assertEquals((100_000 + 300_000) / 2.0, slow.reading(), 1e-6);
        assertEquals(slow.toHandler(), slow.toDispatch() + slow.waitingToRun() + slow.reading(), 1e-6);
    }

    @Test
    void aFullRecorderKeepsNoMoreThanItWasSizedForTheLastRequestInItsLastPlace() {
        SlowestRequests.Recorder r = new SlowestRequests.Recorder(2);
        r.record(0, 0, 0, N, N, 0, 1_000);
        r.record(0, 0, 0, N, N, 0, 5_000);
        r.record(0, 0, 0, N, N, 0, 3_000);

        SlowestRequests.Split slow = SlowestRequests.of(List.of(r), SlowestRequests.From.INTENDED_START);

        assertEquals(1, slow.requests());
        assertEquals(3_000, slow.latency(), 1e-6, "the slower of 1,000 and 3,000; 5,000 was overwritten");
    }

    @Test
    void aRecorderHoldsAtLeastOneRequest() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SlowestRequests.Recorder(0));
        assertEquals("capacity 0: a recorder holds at least one request", e.getMessage());
    }

    @Test
    void nothingRecordedIsAnEmptySplit() {
        assertEquals(0, SlowestRequests.of(List.of(new SlowestRequests.Recorder(1)), SlowestRequests.From.SEND)
                .requests());
    }

    @Test
    void aClearedRecorderHoldsNothing() {
        SlowestRequests.Recorder r = new SlowestRequests.Recorder(2);
        r.record(0, 0, 0, N, N, 0, 1_000);
        r.clear();
        assertEquals(0, SlowestRequests.of(List.of(r), SlowestRequests.From.SEND).requests());
    }
}
