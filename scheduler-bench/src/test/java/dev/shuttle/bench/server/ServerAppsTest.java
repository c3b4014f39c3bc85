package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.Schedulers;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each server main in a child JVM, as the benchmark starts it (the agent from {@code shuttle.agentJar}, which the
 * build sets to scheduler-core's jar): every endpoint answers its body, the requests ran on virtual threads of the
 * scheduler the command line asked for, the lock endpoints' requests were timed, and Shuttle's counters are read.
 */
class ServerAppsTest {
    private static final Map<Endpoint, String> BODIES = Map.of(
            Endpoint.HELLO, "hello",
            Endpoint.SLEEP, "slept",
            Endpoint.LOCK_REENTRANT, "locked",
            Endpoint.LOCK_SPINBIT, "locked",
            Endpoint.FAN_OUT, "joined",
            Endpoint.FILE, Integer.toString(ServerHandlers.FILE_BYTES));

    static List<Arguments> serversAndSchedulers() {
        List<Arguments> cases = new ArrayList<>();
        for (Framework f : Framework.values()) {
            cases.add(Arguments.of(f, Schedulers.JDK));
            cases.add(Arguments.of(f, Schedulers.SHUTTLE));
        }
        return cases;
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("serversAndSchedulers")
    void everyEndpointAnswersOnTheSchedulerAskedFor(Framework framework, String scheduler) throws Exception {
        // A child process starts with the slack of the thread that spawns it, and the benchmark's runs with it lowered.
        // Lowered on a thread of its own: the rest of this JVM keeps the default, which SchedulerSlackTest relies on.
        FutureTask<ServerProcess> start = new FutureTask<>(() -> {
            SchedulerSlack.lowerCurrentThread();
            return ServerProcess.start(framework, scheduler.equals(Schedulers.SHUTTLE), List.of());
        });
        Thread.ofPlatform().start(start);
        try (ServerProcess server = start.get();
                HttpConnection client = new HttpConnection(server.port(), 10_000)) {
            assertEquals(scheduler, client.get(ServerHandlers.INFO), server.commandLine());
            for (Endpoint e : Endpoint.values()) {
                long sent = System.nanoTime();
                assertEquals(BODIES.get(e), client.get(e.path()), e.path() + " on " + server.commandLine());
                long handled = client.handledAt();
                assertTrue(handled - sent >= 0 && System.nanoTime() - handled >= 0,
                        e.path() + " handled at " + handled + ", not between its send and its answer");
            }
            assertEquals(scheduler, client.get(ServerHandlers.INFO), "after the endpoints: " + server.commandLine());
            Map<Endpoint, LockTimes> locks = LockTimes.parse(client.get(ServerHandlers.LOCKS));
            assertEquals(Set.of(Endpoint.LOCK_REENTRANT, Endpoint.LOCK_SPINBIT), locks.keySet());
            for (LockTimes t : locks.values()) {
                assertEquals(1, t.waits().count(), t.toString());
                assertEquals(1, t.holds().count(), t.toString());
                assertTrue(t.holds().p50() >= ServerHandlers.CRITICAL_SECTION_NANOS, t.toString());
            }
            assertEquals(0, LockTimes.parse(client.get(ServerHandlers.LOCKS)).get(Endpoint.LOCK_REENTRANT).waits()
                    .count(), "each call of " + ServerHandlers.LOCKS + " resets the times");
            assertTrue(Long.parseLong(client.get(ServerHandlers.CPU)) > 0);
            GcPauses gc = GcPauses.parse(client.get(ServerHandlers.GC));
            assertTrue(gc.collections() >= 0 && gc.millis() >= 0, gc.toString());
            assertEquals("", client.get(ServerHandlers.SLACK), server.commandLine());
            String counters = client.get(ServerHandlers.SCHEDULER);
            if (scheduler.equals(Schedulers.JDK)) {
                assertEquals("", counters, "no Shuttle scheduler to read on the JDK default");
            } else {
                SchedulerActivity before = SchedulerActivity.parse(counters);
                assertTrue(before.carrierThreads() > 0, counters);
                // A sleeping request must run again; a quick one may be served in the same run as the readings.
                client.get(Endpoint.SLEEP.path());
                SchedulerActivity during = SchedulerActivity.parse(client.get(ServerHandlers.SCHEDULER)).since(before);
                assertTrue(during.tasksRun() > 0, "the request woke from its sleep as a task run: " + during);
            }
            assertEquals(scheduler, client.get(ServerHandlers.INFO), "the connection reads on after empty bodies");
        }
    }

    @Test
    void namesTheSchedulerOfTheCallingThreadOnly() throws InterruptedException {
        assertEquals("platform thread " + Thread.currentThread().getName(), ServerHandlers.schedulerOfCurrentThread());
        AtomicReference<String> onVirtual = new AtomicReference<>();
        Thread.ofVirtual().start(() -> onVirtual.set(ServerHandlers.schedulerOfCurrentThread())).join();
        assertEquals(Schedulers.JDK, onVirtual.get(), "this test JVM runs without the agent");
    }
}
