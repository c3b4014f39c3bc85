package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.bench.server.ScriptedServer.Answer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {
    /**
     * The request timeout of the tests that count timeouts: far longer than any answered request takes on a loaded
     * 2-core machine (a 300 ms timeout could time out an answered one there), so only the scripted stalls reach it.
     */
    private static final long TIMEOUT = TimeUnit.MILLISECONDS.toNanos(1_500);
    /** A scripted stall that the timeout always ends first. */
    private static final long PAST_TIMEOUT_MILLIS = 10_000;

    /**
     * One 300 ms stall at a fixed 100 requests per second: the ~30 requests meant to start during the stall waited
     * for it, and an open-loop generator must count that wait (wrk2's correction). Measuring only each response's
     * own time would show one slow request.
     */
    @Test
    void countsTheQueueingBehindAStallFromEachIntendedStart() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> n == 0 ? Answer.stall(300) : Answer.OK);
                LoadGenerator load = new LoadGenerator(server.port(), 1, TimeUnit.SECONDS.toNanos(2))) {
            LoadGenerator.Result r = load.openLoop(Endpoint.HELLO, 100, TimeUnit.SECONDS.toNanos(1));
            assertEquals(0, r.failures(), r.firstFailure());
            assertEquals(100, r.planned());
            assertEquals(r.planned(), r.completed());
            long slow = r.latency().getCountBetweenValues(TimeUnit.MILLISECONDS.toNanos(100), Long.MAX_VALUE / 2);
            assertTrue(slow >= 15, slow + " requests over 100 ms: the wait behind the stall was not counted");
        }
    }

    /**
     * The same stall, inside the handler, on one connection: the slowest request (the 1 % of 100) spent it between the
     * handler's entry and its answer, not on the way to the server.
     */
    @Test
    void placesAStallInTheHandlerAfterTheHandlersEntryAndTheNextRequestBehindIt() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> n == 0 ? Answer.stall(300) : Answer.OK);
                LoadGenerator load = new LoadGenerator(server.port(), 1, TimeUnit.SECONDS.toNanos(2))) {
            LoadGenerator.Result r = load.openLoop(Endpoint.HELLO, 100, TimeUnit.SECONDS.toNanos(1));
            SlowestRequests.Split slow = r.slowest();
            long stall = TimeUnit.MILLISECONDS.toNanos(300);
            assertTrue(slow.requests() >= 1, slow.toString());
            assertTrue(slow.back() >= stall / slow.requests(), slow.toString());
            assertTrue(slow.back() + slow.behindPrevious() > 10 * (slow.toHandler() + slow.waitingToSend()),
                    slow.toString());
            assertTrue(slow.behindPrevious() >= 0 && slow.waitingToSend() >= 0 && slow.toHandler() >= 0,
                    "each part ends after the one before it begins: " + slow);
        }
    }

    /**
     * One request stalls for far past the timeout and one in ten gets a 500, on one connection at 50 per second:
     * exactly those count, each with its latency, and the connection is replaced so the other 44 still complete. One
     * stall only: each holds the connection for the timeout, and a connection behind its schedule stops sending
     * {@link LoadGenerator#GRACE_NANOS} after the run's end.
     */
    @Test
    void countsStalledAndFailedRequestsAndCarriesOnWithTheSchedule() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> n == 3 ? Answer.stall(PAST_TIMEOUT_MILLIS)
                : n % 10 == 6 ? Answer.status(500) : Answer.OK);
                LoadGenerator load = new LoadGenerator(server.port(), 1, TIMEOUT)) {
            long duration = TimeUnit.SECONDS.toNanos(1);
            long start = System.nanoTime();
            LoadGenerator.Result r = load.openLoop(Endpoint.HELLO, 50, duration);
            long took = System.nanoTime() - start;
            assertEquals(50, r.planned());
            assertEquals(1, r.timedOut(), r.firstFailure());
            assertEquals(5, r.failed(), r.firstFailure());
            assertEquals(44, r.completed());
            assertEquals(r.planned(), r.latency().getTotalCount(), "a latency for every request sent");
            assertTrue(r.latency().getCountBetweenValues(TIMEOUT, Long.MAX_VALUE / 2) >= 1,
                    "a timed-out request waited at least its timeout from its intended start");
            assertTrue(took < load.boundNanos(0, duration), "took " + took / 1_000_000 + " ms");
        }
    }

    /** A server that answers nothing at all: every request times out, and the run still ends within its bound. */
    @Test
    void aSilentServerTimesOutEveryRequestWithinTheRunsBound() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.stall(60_000));
                LoadGenerator load = new LoadGenerator(server.port(), 2, TIMEOUT)) {
            long duration = TimeUnit.MILLISECONDS.toNanos(300);
            long start = System.nanoTime();
            LoadGenerator.Result r = load.closedLoop(Endpoint.HELLO, duration);
            long took = System.nanoTime() - start;
            assertEquals(0, r.completed());
            assertTrue(r.timedOut() >= 2, r.timedOut() + " timed out");
            assertEquals(r.planned(), r.timedOut());
            assertTrue(took < load.boundNanos(0, duration), "took " + took / 1_000_000 + " ms");
        }
    }

    /**
     * A closed loop, then an open loop, over the same generator: the second run goes on the connections the first
     * left open, and the server sees as many connections as the generator has, not one more per run.
     */
    @Test
    void runsOneAfterAnotherReuseTheirConnections() throws IOException, InterruptedException {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK);
                LoadGenerator load = new LoadGenerator(server.port(), 3, TimeUnit.SECONDS.toNanos(2))) {
            LoadGenerator.Result first = load.closedLoop(Endpoint.HELLO, TimeUnit.MILLISECONDS.toNanos(200));
            LoadGenerator.Result second = load.openLoop(Endpoint.HELLO, 60, TimeUnit.MILLISECONDS.toNanos(200));
            assertEquals(0, first.failures() + second.failures(), first.firstFailure() + second.firstFailure());
            assertEquals(12, second.completed());
            assertEquals(3, server.clients(), "connections the server accepted");
        }
    }

    /**
     * The generator keeps its recorders from run to run: a run's slowest requests are its own, not a stall of the
     * run before. Every request of the first run's slowest spent at least the stall in the handler, so the second
     * run's slowest, answered at once, stays below it unless it was carried over (no tighter clock than that).
     */
    @Test
    void aRunsSlowestRequestsAreItsOwn() throws IOException, InterruptedException {
        long stall = TimeUnit.SECONDS.toNanos(1);
        try (ScriptedServer server = new ScriptedServer(
                n -> n == 0 ? Answer.stall(TimeUnit.NANOSECONDS.toMillis(stall)) : Answer.OK);
                LoadGenerator load = new LoadGenerator(server.port(), 1, TimeUnit.SECONDS.toNanos(3))) {
            LoadGenerator.Result first = load.openLoop(Endpoint.HELLO, 100, TimeUnit.SECONDS.toNanos(1));
            LoadGenerator.Result second = load.openLoop(Endpoint.HELLO, 100, TimeUnit.MILLISECONDS.toNanos(500));
            assertTrue(first.slowest().back() >= stall, first.slowest().toString());
            assertEquals(50, second.completed());
            assertEquals(1, second.slowest().requests(), second.slowest().toString());
            assertTrue(second.slowest().back() < stall, second.slowest().toString());
        }
    }

    /** A request that broke its connection leaves the next run a new one, not the broken one. */
    @Test
    void aConnectionThatTimedOutIsNotCarriedIntoTheNextRun() throws IOException, InterruptedException {
        try (ScriptedServer server = new ScriptedServer(n -> n == 0 ? Answer.stall(PAST_TIMEOUT_MILLIS) : Answer.OK);
                LoadGenerator load = new LoadGenerator(server.port(), 1, TIMEOUT)) {
            LoadGenerator.Result first = load.openLoop(Endpoint.HELLO, 10, TimeUnit.MILLISECONDS.toNanos(100));
            LoadGenerator.Result second = load.openLoop(Endpoint.HELLO, 10, TimeUnit.MILLISECONDS.toNanos(300));
            assertEquals(1, first.timedOut(), first.firstFailure());
            assertEquals(0, second.failures(), second.firstFailure());
            assertEquals(3, second.completed());
            assertEquals(2, server.clients(), "the timed-out connection and its replacement");
        }
    }

    /**
     * A 500 ms stall at the start of an 800 ms lead-in, one connection at 100 per second: the lead-in's 80 requests
     * are sent (the server sees them) but none is counted, and the stall's backlog has cleared before the window, so
     * no request of the window waited for it. What runs as the window starts runs once, after the stall.
     */
    @Test
    void aLeadInIsSentButNotMeasuredAndTheWindowStartRunsAfterIt() throws Exception {
        long stall = TimeUnit.MILLISECONDS.toNanos(500);
        AtomicInteger arrivals = new AtomicInteger();
        try (ScriptedServer server = new ScriptedServer(n -> {
            arrivals.incrementAndGet();
            return n == 0 ? Answer.stall(TimeUnit.NANOSECONDS.toMillis(stall)) : Answer.OK;
        }); LoadGenerator load = new LoadGenerator(server.port(), 1, TimeUnit.SECONDS.toNanos(2))) {
            List<Integer> arrivalsAtStart = new ArrayList<>();
            LoadGenerator.Result r = load.openLoop(Endpoint.HELLO, 100, TimeUnit.MILLISECONDS.toNanos(800),
                    TimeUnit.MILLISECONDS.toNanos(400), () -> arrivalsAtStart.add(arrivals.get()));
            assertEquals(0, r.failures(), r.firstFailure());
            assertEquals(40, r.planned());
            assertEquals(40, r.completed());
            assertEquals(40, r.latency().getTotalCount(), "a latency for every request of the window, none else");
            assertEquals(80, r.leadInCompleted());
            assertEquals(120, r.completedWithLeadIn());
            assertEquals(120, arrivals.get(), "requests the server got");
            assertEquals(1, arrivalsAtStart.size(), "readings at the window's start");
            assertTrue(arrivalsAtStart.get(0) >= 51, arrivalsAtStart + " requests before the window started");
            long max = r.latency().getMaxValue();
            // The stalled request's latency, counted from its intended start, is at least the stall.
            assertTrue(max < stall, max / 1_000_000 + " ms: the stall was counted");
        }
    }

    /** What runs as the window starts may fail: that stops the run at once, and the failure is the caller's. */
    @Test
    void aFailureAtTheWindowsStartStopsTheRun() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK);
                LoadGenerator load = new LoadGenerator(server.port(), 2, TimeUnit.SECONDS.toNanos(2))) {
            long start = System.nanoTime();
            IOException e = assertThrows(IOException.class, () -> load.openLoop(Endpoint.HELLO, 100,
                    TimeUnit.MILLISECONDS.toNanos(100), TimeUnit.SECONDS.toNanos(30), () -> {
                        throw new IOException("control connection broke");
                    }));
            assertEquals("control connection broke", e.getMessage());
            long took = System.nanoTime() - start;
            assertTrue(took < TimeUnit.SECONDS.toNanos(10), "took " + took / 1_000_000 + " ms of a 30 s window");
        }
    }

    @Test
    void closedLoopCompletesRequestsWithinItsBound() throws IOException, InterruptedException {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK);
                LoadGenerator load = new LoadGenerator(server.port(), 4, TimeUnit.SECONDS.toNanos(2))) {
            long duration = TimeUnit.MILLISECONDS.toNanos(300);
            long start = System.nanoTime();
            LoadGenerator.Result r = load.closedLoop(Endpoint.HELLO, duration);
            long took = System.nanoTime() - start;
            assertEquals(0, r.failures());
            assertEquals("", r.firstFailure());
            assertTrue(r.completed() > 0);
            assertTrue(took < load.boundNanos(0, duration), "took " + took / 1_000_000 + " ms");
        }
    }
}
