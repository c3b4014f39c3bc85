package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A short steady run on a real server in a child JVM, as a profile would take one, on Shuttle through the agent. */
class SteadyLoadTest {
    @Test
    void aRunAtTheRateNamesTheServersPidAndReportsWhatTheBenchmarkWould(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("server.pid");
        SteadyLoadArgs options = new SteadyLoadArgs(Framework.JDK, "shuttle", Endpoint.LOCK_SPINBIT, 200, 0,
                TimeUnit.SECONDS.toNanos(1), Optional.of(pidFile), List.of());
        // On a thread of its own, as ServerAppsTest: the run lowers its thread's timer slack, the rest of this JVM
        // keeps the default.
        FutureTask<ServerBench.Run> task = new FutureTask<>(
                () -> SteadyLoad.run(options, TimeUnit.MILLISECONDS.toNanos(200)));
        Thread.ofPlatform().start(task);
        ServerBench.Run run = task.get(60, TimeUnit.SECONDS);

        long pid = Long.parseLong(Files.readString(pidFile).strip());
        assertTrue(pid != ProcessHandle.current().pid(), "the server's pid, not this JVM's");
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                "the server has exited once the run returned");

        LoadGenerator.Result r = run.result();
        assertTrue(Double.isNaN(run.load()), "a rate given outright is no fraction of a maximum");
        assertEquals(200.0, run.offeredRate());
        assertEquals("shuttle", run.scheduler());
        assertEquals(0, r.failures(), r.firstFailure());
        assertTrue(r.planned() >= 150 && r.planned() <= 250, "about a second at 200/s: " + r.planned());
        assertEquals(r.planned(), r.completed());
        assertTrue(run.serverCpuNanos() > 0);
        LockTimes lock = run.lockTimes().orElseThrow();
        assertTrue(lock.holds().count() > 0 && lock.holds().count() <= r.completedWithLeadIn() + 10,
                "the run's holds, its lead-in's included, not the warm-up's: " + lock);
        assertTrue(run.schedulerActivity().orElseThrow().tasksRun() >= r.completedWithLeadIn(),
                "every request ran on Shuttle: " + run.schedulerActivity());

        ByteArrayOutputStream text = new ByteArrayOutputStream();
        SteadyLoad.report(run, new PrintStream(text, true, StandardCharsets.UTF_8));
        String report = text.toString(StandardCharsets.UTF_8);
        assertTrue(report.startsWith("jdk server on shuttle, /lock/spinbit at 200 requests/s for "), report);
        assertTrue(report.contains("requests: " + r.completed() + " completed of " + r.planned() + " planned"),
                report);
        assertTrue(report.contains("\nlock, µs: wait p50 "), report);
        assertTrue(report.contains("\nShuttle per request: wake-ups "), report);
    }
}
