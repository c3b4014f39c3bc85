package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.bench.Schedulers;
import dev.shuttle.bench.server.ScriptedServer.Answer;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The order the benchmark runs its servers in, and a load step against a local server that stalls and fails some
 * requests, or all of them.
 */
class ServerBenchTest {
    private static final long TIMEOUT = TimeUnit.MILLISECONDS.toNanos(300);
    private static final long STEP = TimeUnit.MILLISECONDS.toNanos(600);

    private static final ServerBench.Pass PASS = new ServerBench.Pass(2, Framework.HELIDON, Schedulers.SHUTTLE);
    /** The lock times a server has gathered before a step, and those of the step. */
    private static final String BEFORE = "/lock/reentrant wait 999 1 1 1 1 1\n/lock/reentrant hold 999 1 1 1 1 1\n";
    private static final String DURING = "/lock/reentrant wait 60 900 2100 26000 41000 90000\n"
            + "/lock/reentrant hold 60 20100 20500 21900 30000 45000\n"
            + "/lock/spinbit wait 0 0 0 0 0 0\n/lock/spinbit hold 0 0 0 0 0 0\n";

    private static ServerBench.Run step(ScriptedServer server, HttpConnection control)
            throws IOException, InterruptedException {
        try (LoadGenerator load = new LoadGenerator(server.port(), 2, TIMEOUT)) {
            return ServerBench.measure(control, PASS, Endpoint.HELLO, Optional::empty, 0.5, 100,
                    () -> load.openLoop(Endpoint.HELLO, 100, STEP));
        }
    }

    /** A step of {@code endpoint} whose load is one answered request, made up: only the control calls go out. */
    private static ServerBench.Run fakeStep(HttpConnection control, Endpoint endpoint, Runnable duringLoad)
            throws IOException, InterruptedException {
        return ServerBench.measure(control, PASS, endpoint, ServerBench.ServerThreads.of(ProcessHandle.current().pid()),
                0.5, 100, () -> {
            duringLoad.run();
            return new LoadGenerator.Result(1, 1, 0, 0, STEP, new Histogram(3), 0, 0, "",
                    SlowestRequests.Split.EMPTY, SlowestRequests.Split.EMPTY);
        });
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
    void settingsNeedALoadStepWhoseLoadTheOpenLoopWarmUpRunsAt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ServerBench.Settings("none", 1, 1, 1, 1, 1, new double[0], 4, 1, 1, 0.5, 1));
        assertTrue(e.getMessage().contains("no open-loop load step"), e.getMessage());
        assertTrue(ServerBench.FULL.describe().contains("5.0 s open loop at the first step's load not measured"),
                ServerBench.FULL.describe());
    }

    @Test
    void aProfiledRunNeedsALoadAndTheSettingsTextNamesIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ServerBench.Settings("no load", 1, 1, 1, 1, 1, new double[] {0.5}, 4, 1, 1, 0, 1));
        assertTrue(e.getMessage().contains("profiled run at load 0.0"), e.getMessage());
        assertTrue(ServerBench.FULL.describe().contains("5.0 s at 50% load after 1.0 s of it, with the server's Java"
                + " code sampled"), ServerBench.FULL.describe());
        assertFalse(new ServerBench.Settings("unprofiled", 1, 1, 1, 1, 1, new double[] {0.5}, 4, 1, 1, 0, 0)
                .describe().contains("sampled"));
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
            assertEquals(Optional.empty(), run.schedulerActivity(), "no Shuttle scheduler, no activity");
            assertEquals(new GcPauses(1, 3), run.gc(), "the collections between the step's two readings");
            assertEquals(Optional.empty(), run.schedulingDelay(), "no scheduling-delay bean, no delays");
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
    void aLockStepCarriesTheLockTimesOfItsOwnStepOnly() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK, n -> n == 0 ? BEFORE : DURING);
                HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            ServerBench.Run run = fakeStep(control, Endpoint.LOCK_REENTRANT,
                    () -> assertEquals(1, server.locksCalls(), "the lock times are reset before the load"));
            assertEquals(Optional.of(new LockTimes(new LockTimes.Distribution(60, 900, 2100, 26000, 41000, 90000),
                    new LockTimes.Distribution(60, 20100, 20500, 21900, 30000, 45000))), run.lockTimes());
            assertEquals(2, server.locksCalls());
        }
    }

    @Test
    void aStepOfAnEndpointWithoutALockCarriesNoLockTimes() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK, n -> DURING);
                HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            for (Endpoint e : Endpoint.values()) {
                if (!e.takesLock()) {
                    assertEquals(Optional.empty(), fakeStep(control, e, () -> { }).lockTimes(), e.path());
                }
            }
            assertEquals(0, server.locksCalls());
        }
    }

    @Test
    void lockTimesWithoutTheStepsEndpointOrMalformedAbortTheStepSayingWhere() throws Exception {
        // The first step's reading has /lock/reentrant only; the second's is malformed, and only readings are parsed.
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK, n -> n < 2 ? BEFORE : "/lock/spinbit x");
                HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            IllegalStateException missing = assertThrows(IllegalStateException.class,
                    () -> fakeStep(control, Endpoint.LOCK_SPINBIT, () -> { }));
            assertEquals("ServerBench: the helidon server on shuttle in round 2, /lock/spinbit 50% load step: /locks"
                    + " has no /lock/spinbit: " + BEFORE, missing.getMessage());
            IllegalStateException malformed = assertThrows(IllegalStateException.class,
                    () -> fakeStep(control, Endpoint.LOCK_SPINBIT, () -> { }));
            assertEquals("ServerBench: the helidon server on shuttle in round 2, /lock/spinbit 50% load step:"
                    + " malformed lock times, line 1 `/lock/spinbit x`: 8 fields separated by single spaces are"
                    + " needed (path, wait or hold, count, p50, p90, p99, p99.9, max), not 2",
                    malformed.getMessage());
        }
    }

    @Test
    void aStepOnShuttleCarriesTheGrowthOfTheSchedulerCountersDuringItOnly() throws Exception {
        String before = "tasksRun=1000 steals=10 parks=400 wakeUps=390 emptyWakeUps=100 handOffs=2 monitorRetakes=1"
                + " monitorRescues=0 carrierThreads=2";
        String after = "tasksRun=5000 steals=50 parks=2400 wakeUps=2390 emptyWakeUps=900 handOffs=5"
                + " monitorRetakes=3 monitorRescues=1 carrierThreads=3";
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK, n -> "", n -> n == 0 ? before : after);
                HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            ServerBench.Run run = fakeStep(control, Endpoint.HELLO,
                    () -> assertEquals(1, server.schedulerCalls(), "the counters are read before the load"));
            assertEquals(Optional.of(new SchedulerActivity(4000, 40, 2000, 2000, 800, 3, 2, 1, 3)),
                    run.schedulerActivity());
            assertEquals(2, server.schedulerCalls());
        }
    }

    /**
     * The step's scheduling delays are the bean's growth over it, and its context switches those of the server's
     * threads over it: here the server is this process, and a thread that parks 20 times during the load blocks at
     * least 20 times.
     */
    @Test
    void aStepCarriesTheSchedulingDelaysAndContextSwitchesOfItsOwnLoad() throws Exception {
        String before = "default 0-32:5 4096-4608:1";
        String after = "default 0-32:25 4096-4608:1 4194304-4718592:4";
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK, n -> "", n -> "", n -> n == 0 ? before : after);
                HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            java.util.concurrent.CountDownLatch parked = new java.util.concurrent.CountDownLatch(20);
            Thread parker = Thread.ofPlatform().unstarted(() -> {
                for (int i = 0; i < 20; i++) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    parked.countDown();
                }
                java.util.concurrent.locks.LockSupport.park();     // alive at the reading after the load
            });
            ServerBench.Run run = fakeStep(control, Endpoint.HELLO, () -> {
                parker.start();
                try {
                    parked.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            java.util.concurrent.locks.LockSupport.unpark(parker);
            parker.join();
            DelayCounts delay = run.schedulingDelay().orElseThrow();
            assertEquals(24, delay.samples());
            assertEquals(0.032, run.delayMicros(50));
            assertEquals(4718.592, run.delayMicros(99));
            long voluntary = run.switches().orElseThrow().voluntary();
            assertTrue(voluntary >= 20, voluntary + " voluntary switches for 20 parks");
            assertEquals((double) voluntary + run.switches().orElseThrow().involuntary(), run.switchesPerRequest(),
                    "one request");
        }
    }

    @Test
    void schedulingDelaysThatWentDownOrCameDuringTheStepAbortItSayingWhere() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK, n -> "", n -> "",
                n -> switch (n) {
                    case 0 -> "default 0-32:5";
                    case 1 -> "default 0-32:4";
                    case 2 -> "";
                    default -> "jdk-default 0-32:5";
                }); HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            IllegalStateException down = assertThrows(IllegalStateException.class,
                    () -> fakeStep(control, Endpoint.HELLO, () -> { }));
            assertEquals("ServerBench: the helidon server on shuttle in round 2, /hello 50% load step: scheduling"
                    + " delays went down in the bucket from 0 ns: not an earlier reading of the same scheduler",
                    down.getMessage());
            IllegalStateException came = assertThrows(IllegalStateException.class,
                    () -> fakeStep(control, Endpoint.HELLO, () -> { }));
            assertEquals("ServerBench: the helidon server on shuttle in round 2, /hello 50% load step: a"
                    + " scheduling-delay bean was registered after the run but not before it", came.getMessage());
        }
    }

    @Test
    void schedulerCountersThatWentDownOrCameDuringTheStepAbortItSayingWhere() throws Exception {
        String reading = "tasksRun=%d steals=0 parks=0 wakeUps=0 emptyWakeUps=0 handOffs=0 monitorRetakes=0"
                + " monitorRescues=0 carrierThreads=2";
        // Step 1 reads 5, then 4; step 2 reads nothing, then a reading.
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK, n -> "",
                n -> n == 2 ? "" : String.format(reading, 5 - n));
                HttpConnection control = new HttpConnection(server.port(), 5_000)) {
            IllegalStateException down = assertThrows(IllegalStateException.class,
                    () -> fakeStep(control, Endpoint.HELLO, () -> { }));
            assertEquals("ServerBench: the helidon server on shuttle in round 2, /hello 50% load step: tasksRun went"
                    + " down from 5 to 4: not an earlier reading of the same scheduler", down.getMessage());
            IllegalStateException came = assertThrows(IllegalStateException.class,
                    () -> fakeStep(control, Endpoint.HELLO, () -> { }));
            assertEquals("ServerBench: the helidon server on shuttle in round 2, /hello 50% load step: a Shuttle"
                    + " scheduler was registered after the run but not before it", came.getMessage());
        }
    }

    @Test
    void aFailedControlConnectionSaysWhere() throws Exception {
        try (ScriptedServer server = new ScriptedServer(n -> Answer.OK)) {
            HttpConnection control = new HttpConnection(server.port(), 5_000);
            control.close();
            IOException e = assertThrows(IOException.class, () -> step(server, control));
            assertTrue(e.getMessage().contains("control connection of the helidon server on shuttle in round 2, /hello"
                    + " 50% load step failed on /scheduler"), e.getMessage());
        }
    }
}
