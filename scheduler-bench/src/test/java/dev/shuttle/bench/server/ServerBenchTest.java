package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.bench.Schedulers;
import dev.shuttle.bench.server.ScriptedServer.Answer;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The order the benchmark runs its servers in, and a load step against a local server that stalls and fails some
 * requests, or all of them.
 */
class ServerBenchTest {
    private static final long TIMEOUT = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long STEP = TimeUnit.MILLISECONDS.toNanos(600);

    private static ServerBench.Run step(ScriptedServer server, HttpConnection control)
            throws IOException, InterruptedException {
        LoadGenerator load = new LoadGenerator(server.port(), 2, TIMEOUT);
        return ServerBench.measure(control, new ServerBench.Pass(2, Framework.HELIDON, Schedulers.SHUTTLE),
                Endpoint.HELLO, 0.5, 100, () -> load.openLoop(Endpoint.HELLO, 100, STEP));
    }

    @Test
    void roundsAlternateWhichSchedulerGoesFirstAndRoundOnesJdkDefaultSetsTheRates() {
        List<ServerBench.Pass> passes = ServerBench.passes(3, List.of(Framework.HELIDON, Framework.JDK));
        assertEquals(List.of(
                "1 helidon jdk", "1 helidon shuttle", "1 jdk jdk", "1 jdk shuttle",
                "2 helidon shuttle", "2 helidon jdk", "2 jdk shuttle", "2 jdk jdk",
                "3 helidon jdk", "3 helidon shuttle", "3 jdk jdk", "3 jdk shuttle"),
                passes.stream().map(p -> p.round() + " " + p.framework().id() + " " + p.scheduler()).toList());
        assertEquals(List.of(passes.get(0), passes.get(2)),
                passes.stream().filter(ServerBench.Pass::setsRates).toList(),
                "each framework's first pass, before any pass that loads at those rates");
        assertEquals(List.of(new ServerBench.Pass(1, Framework.JDK, "jdk"), new ServerBench.Pass(1, Framework.JDK,
                "shuttle")), ServerBench.passes(1, List.of(Framework.JDK)));
    }

    @Test
    void aStepWithStalledAndFailedRequestsIsMeasuredNotAborted() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> switch (n % 10) {
            case 3 -> Answer.stall(1_000);
            case 6 -> Answer.status(500);
            default -> Answer.OK;
        }); HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            ServerBench.Run run = step(server, control);
            LoadGenerator.Result r = run.result();
            assertEquals(60, r.planned());
            assertEquals(6, r.timedOut(), r.firstFailure());
            assertEquals(6, r.failed(), r.firstFailure());
            assertEquals(48, r.completed());
            assertEquals(2, run.round());
        }
    }

    @Test
    void aStepWithNoAnswerAbortsNamingServerSchedulerEndpointAndStep() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.status(503));
                HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> step(server, control));
            assertTrue(e.getMessage().contains("the helidon server on shuttle in round 2 answered no request to /hello"
                    + " in its 50% load step: 0 of 60 planned requests completed, 60 failed, 0 timed out"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("status 503"), e.getMessage());
        }
    }

    @Test
    void aFailedControlConnectionSaysWhere() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK)) {
            HttpConnection control = new HttpConnection(server.port(), 5_000);
            control.close();
            IOException e = assertThrows(IOException.class, () -> step(server, control));
            assertTrue(e.getMessage().contains("control connection of the helidon server on shuttle in round 2, /hello"
                    + " 50% load step failed on /cpu"), e.getMessage());
        }
    }
}
