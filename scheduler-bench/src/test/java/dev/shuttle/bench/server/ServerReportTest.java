package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.bench.metrics.ThreadSwitches;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ServerReportTest {
    private static ServerBench.Run run(Endpoint e, String scheduler, double load, long completed, long latencyMicros,
            long serverCpuNanos) {
        return run(1, e, scheduler, load, completed, latencyMicros, serverCpuNanos, 0, 0);
    }

    private static ServerBench.Run run(Endpoint e, String scheduler, double load, long completed, long latencyMicros,
            long serverCpuNanos, long failed, long timedOut) {
        return run(1, e, scheduler, load, completed, latencyMicros, serverCpuNanos, failed, timedOut);
    }

    /** The runs as one benchmark's results on Helidon, both schedulers: {@code rounds} rounds at {@code loads}. */
    private static ServerBench.Results helidonResults(List<ServerBench.Run> runs, double[] loads, int rounds) {
        return helidonResults(runs, List.of(), loads, rounds);
    }

    private static ServerBench.Results helidonResults(List<ServerBench.Run> runs, List<ServerBench.Profile> profiles,
            double[] loads, int rounds) {
        return new ServerBench.Results(new ServerBench.Settings("test", 1, 1, 1, 1, 1, loads, 4, 1, rounds, 0.5, 1),
                runs, profiles, Map.of(Framework.HELIDON, Map.of("jdk", "java A", "shuttle", "java -javaagent:x A")));
    }

    /**
     * A run of one second: {@code completed} is also its rate, and every request took {@code latencyMicros}; the
     * slowest spent a tenth of it behind the previous answer, 15 % waiting to send, a quarter to the handler and the
     * rest back; the server collected garbage 4 times, for a millisecond per 25 µs of that latency.
     */
    static ServerBench.Run run(int round, Endpoint e, String scheduler, double load, long completed,
            long latencyMicros, long serverCpuNanos, long failed, long timedOut) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(latencyMicros * 1_000, completed + failed + timedOut);
        return new ServerBench.Run(round, Framework.HELIDON, e, scheduler, load, load * 1_000,
                new LoadGenerator.Result(completed + failed + timedOut, completed, failed, timedOut, 1_000_000_000L, h,
                        0, completed * 10_000, "", new SlowestRequests.Split(1, latencyMicros * 1e3,
                        0.1 * latencyMicros * 1e3, 0.15 * latencyMicros * 1e3, latencyMicros * 1e3 / 4,
                        latencyMicros * 1e3 / 2, Double.NaN, Double.NaN, Double.NaN), new SlowestRequests.Split(1,
                        0.5 * latencyMicros * 1e3, 0, 0, 0.2 * latencyMicros * 1e3, 0.3 * latencyMicros * 1e3,
                        Double.NaN, Double.NaN, Double.NaN)), serverCpuNanos, Optional.empty(),
                Optional.empty(), new GcPauses(4, latencyMicros / 25), Optional.empty(), Optional.empty());
    }

    /** A lock endpoint's run whose requests waited as given, in nanoseconds, and held {@code hold}, p99 1 µs more. */
    private static ServerBench.Run lockRun(int round, String scheduler, double load, long tookLock, long waitP50,
            long waitP90, long waitP99, long waitP999, long hold) {
        ServerBench.Run r = run(round, Endpoint.LOCK_REENTRANT, scheduler, load, 500, 200, 50_000_000, 0, 0);
        LockTimes times = new LockTimes(
                new LockTimes.Distribution(tookLock, waitP50, waitP90, waitP99, waitP999, waitP999),
                new LockTimes.Distribution(tookLock, hold, hold, hold + 1_000, hold + 1_000, hold + 1_000));
        return new ServerBench.Run(r.round(), r.framework(), r.endpoint(), r.scheduler(), r.load(), r.offeredRate(),
                r.result(), r.serverCpuNanos(), Optional.of(times), Optional.empty(), r.gc(), r.schedulingDelay(),
                r.switches());
    }

    /** A Shuttle run of {@code /hello} whose scheduler did {@code activity}. */
    private static ServerBench.Run activityRun(int round, double load, long completed, long timedOut,
            SchedulerActivity activity) {
        ServerBench.Run r = run(round, Endpoint.HELLO, "shuttle", load, completed, 200, 50_000_000, 0, timedOut);
        return new ServerBench.Run(r.round(), r.framework(), r.endpoint(), r.scheduler(), r.load(), r.offeredRate(),
                r.result(), r.serverCpuNanos(), r.lockTimes(), Optional.of(activity), r.gc(), r.schedulingDelay(),
                r.switches());
    }

    /** A run of {@code /hello} whose server's scheduling delays and context switches were as given. */
    private static ServerBench.Run delayRun(String scheduler, double load, long latencyMicros, String delays,
            long voluntary, long involuntary) {
        ServerBench.Run r = run(Endpoint.HELLO, scheduler, load, 500, latencyMicros, 50_000_000);
        return new ServerBench.Run(r.round(), r.framework(), r.endpoint(), r.scheduler(), r.load(), r.offeredRate(),
                r.result(), r.serverCpuNanos(), r.lockTimes(), r.schedulerActivity(), r.gc(),
                Optional.of(DelayCounts.parse(delays)), Optional.of(new ThreadSwitches.Counts(voluntary,
                        involuntary)));
    }

    /**
     * Each step's row puts the scheduling delay beside the end-to-end latency and the context switches per request
     * (500 requests) beside them; Shuttle's lower delay is no loss, its extra switches are; the report says the JDK
     * default's delay comes from the measuring agent.
     */
    @Test
    void theDelayTableGivesTheSchedulersShareAndTheSwitchesPerRequest() {
        List<ServerBench.Run> runs = List.of(
                delayRun("jdk", 0, 500, "jdk-default 0-256:90 4096-4608:9 1048576-1179648:1", 1000, 250),
                delayRun("shuttle", 0, 500, "default 0-256:99 4096-4608:1", 1500, 500),
                delayRun("jdk", 0.5, 200, "jdk-default 0-256:50 4096-4608:50", 500, 0),
                delayRun("shuttle", 0.5, 300, "default 4096-4608:100", 500, 0));
        String md = ServerReport.markdown(helidonResults(runs, new double[] {0.5}, 1), "cmd", null);
        assertTrue(md.contains("on the JDK default it runs in its measuring mode (`-Dshuttle.measure=true`, no"
                + " `implClass`)"), md);
        String table = md.substring(md.indexOf("#### Helidon SE: the scheduler's share of latency, and context"
                + " switches"));
        assertTrue(table.contains("`/proc/<pid>/task/*/status`"), table);
        assertTrue(table.contains("| /hello | max | 0.500 / 0.500 (1.00x) | 0.500 / 0.500 (1.00x)"
                + " | 0.256 / 0.256 (1.00x) | 4.61 / 0.256 (0.06x) | 100 / 100 | 2.50 / 4 (1.60x)"
                + " | 2 / 3 | 0.500 / 1 |\n"), table);
        assertTrue(table.contains("| /hello | 50% | 0.200 / 0.300 (1.50x) | 0.200 / 0.300 (1.50x)"
                + " | 0.256 / 4.61 (18.00x) | 4.61 / 4.61 (1.00x) | 100 / 100 | 1 / 1 (1.00x)"
                + " | 1 / 1 | 0.00 / 0.00 |\n"), table);
        String losses = md.substring(md.indexOf("#### Helidon SE: where Shuttle loses"));
        assertTrue(losses.contains("- /hello at max server context switches per request: 1.60x\n"), losses);
        assertFalse(losses.contains("scheduling delay p99"), losses);
    }

    /** A profiled run of {@code /lock/spinbit} whose 1 ms samples fell in the scheduler and the handler's spin. */
    private static ServerBench.Profile profile(int round, String scheduler, long requests, long schedulerSamples,
            long spinSamples) {
        return new ServerBench.Profile(round, Framework.HELIDON, Endpoint.LOCK_SPINBIT, scheduler, 0.5, requests,
                new JavaSamples(1_000_000, Map.of(CodeArea.SCHEDULER, schedulerSamples, CodeArea.HANDLER_SPIN,
                        spinSamples)));
    }

    @Test
    void profileTablePoolsTheRoundsPerEndpointAndScheduler() {
        List<ServerBench.Run> runs = List.of(run(Endpoint.LOCK_SPINBIT, "jdk", 0.5, 500, 200, 50_000_000),
                run(Endpoint.LOCK_SPINBIT, "shuttle", 0.5, 500, 200, 50_000_000));
        // JDK: 30 + 10 scheduler samples of 1 ms over 2,000 requests = 20 µs per request; Shuttle 60 over 2,000 = 30.
        List<ServerBench.Profile> profiles = List.of(profile(1, "jdk", 1_000, 30, 40),
                profile(1, "shuttle", 1_000, 20, 40), profile(2, "jdk", 1_000, 10, 40),
                profile(2, "shuttle", 1_000, 40, 40));
        String md = ServerReport.markdown(helidonResults(runs, profiles, new double[] {0.5}, 2), "cmd", null);
        assertTrue(md.contains("where the server's Java code spent its CPU at 50% load (JFR)"), md);
        assertTrue(md.contains("the 2 rounds' samples and requests added up"), md);
        assertTrue(md.contains("| /lock/spinbit | " + CodeArea.SCHEDULER.description() + " | 20.00 | 30.00 | +10.00 |"),
                md);
        assertTrue(md.contains("| /lock/spinbit | " + CodeArea.HANDLER_SPIN.description() + " | 40.00 | 40.00 |"
                + " +0.00 |"), md);
        assertTrue(md.contains("| /lock/spinbit | **all sampled Java code** | 60.00 | 70.00 | +10.00 |"), md);
        assertFalse(md.contains(CodeArea.LOCK.description()), "an area sampled on neither side has no row");
        assertFalse(ServerReport.markdown(helidonResults(runs, new double[] {0.5}, 2), "cmd", null)
                .contains("(JFR)"), "no profiled runs, no table");
    }

    @Test
    void tablesPairBothSchedulersAndListEveryLoss() {
        List<ServerBench.Run> runs = new ArrayList<>();
        runs.add(run(Endpoint.HELLO, "jdk", 0, 1000, 500, 100_000_000));
        runs.add(run(Endpoint.HELLO, "shuttle", 0, 900, 500, 80_000_000));
        runs.add(run(Endpoint.HELLO, "jdk", 0.5, 500, 200, 50_000_000));
        runs.add(run(Endpoint.HELLO, "shuttle", 0.5, 500, 300, 40_000_000));
        ServerBench.Results results = helidonResults(runs, new double[] {0.5}, 1);
        String md = ServerReport.markdown(results, "cmd", "plots");
        assertTrue(md.contains("| /hello | 1,000 | 900 | 0.90x |"), md);
        assertTrue(md.contains("| 0.89x | 0, 0 / 0, 0 |\n"), "no failures in the maximum's row: " + md);
        assertTrue(md.contains("| /hello | 50% | 500 | 0.200 / 0.300 (1.50x) |"), md);
        assertTrue(md.contains("| /hello | 50% | latency | 0.200 / 0.300 (1.50x) | 0.0200 / 0.0300 (1.50x)"
                + " | 0.0300 / 0.0450 (1.50x) | 0.0500 / 0.0750 (1.50x) | 0.100 / 0.150 (1.50x) | 4 / 4"
                + " | 8 / 12 (1.50x) |\n"),
                "the slowest requests' split: " + md);
        assertTrue(md.contains("| /hello | 50% | service | 0.100 / 0.150 (1.50x) | 0.00 / 0.00 (-) | 0.00 / 0.00 (-)"
                + " | 0.0400 / 0.0600 (1.50x) | 0.0600 / 0.0900 (1.50x) | 4 / 4 | 8 / 12 (1.50x) |\n"), md);
        assertTrue(md.contains("### Helidon SE (helidon-webserver 4.5.0)"), md);
        assertFalse(md.contains("com.sun.net.httpserver,"), "a framework that did not run has no section: " + md);
        assertFalse(md.contains("lock wait and hold"), "no lock table without lock times: " + md);
        assertFalse(md.contains("what Shuttle's scheduler did"), "no activity table without activity: " + md);
        String losses = md.substring(md.indexOf("#### Helidon SE: where Shuttle loses"));
        assertTrue(losses.contains("/hello maximum throughput: 0.90x"), losses);
        assertTrue(losses.contains("/hello at 50% p99: 1.50x"), losses);
        assertFalse(losses.contains("server CPU per request at 50%"), losses);
        assertTrue(md.contains("![Helidon SE /hello](plots/server-helidon-hello.svg)"), md);
        assertFalse(md.contains("server-helidon-sleep.svg"), "no chart for an endpoint that did not run: " + md);
        Map<String, String> plots = ServerReport.plots(results);
        assertEquals(1, plots.size());
        assertTrue(plots.get("server-helidon-hello.svg").contains("Shuttle p99"));
    }

    /** {@link #run} with the time to the handler cut at the dispatch: to it, waiting to run and reading, 2:1:1. */
    private static ServerBench.Run dispatchedRun(String scheduler, long latencyMicros) {
        ServerBench.Run r = run(Endpoint.HELLO, scheduler, 0.5, 500, latencyMicros, 50_000_000);
        SlowestRequests.Split s = r.result().slowest();
        double toHandler = s.toHandler();
        SlowestRequests.Split cut = new SlowestRequests.Split(s.requests(), s.latency(), s.behindPrevious(),
                s.waitingToSend(), toHandler, s.back(), toHandler / 2, toHandler / 4, toHandler / 4);
        LoadGenerator.Result g = r.result();
        return new ServerBench.Run(r.round(), r.framework(), r.endpoint(), r.scheduler(), r.load(), r.offeredRate(),
                new LoadGenerator.Result(g.planned(), g.completed(), g.failed(), g.timedOut(), g.nanos(),
                        g.latency(), g.leadInCompleted(), g.generatorCpuNanos(), g.firstFailure(), cut, cut),
                r.serverCpuNanos(), r.lockTimes(), r.schedulerActivity(), r.gc(), r.schedulingDelay(),
                r.switches());
    }

    @Test
    void aServerThatSendsItsDispatchHasTheTimeToTheHandlerCutThere() {
        ServerBench.Results results = helidonResults(List.of(run(Endpoint.HELLO, "jdk", 0, 1000, 500, 100_000_000),
                run(Endpoint.HELLO, "shuttle", 0, 900, 500, 80_000_000), dispatchedRun("jdk", 200),
                dispatchedRun("shuttle", 400)), new double[] {0.5}, 1);

        String md = ServerReport.markdown(results, "cmd", "plots");

        assertTrue(md.contains(" to the handler ms | to the dispatch ms | waiting to run ms | reading ms | back ms |"),
                md);
        assertTrue(md.contains("| /hello | 50% | latency | 0.200 / 0.400 (2.00x) | 0.0200 / 0.0400 (2.00x)"
                + " | 0.0300 / 0.0600 (2.00x) | 0.0500 / 0.100 (2.00x) | 0.0250 / 0.0500 (2.00x)"
                + " | 0.0125 / 0.0250 (2.00x) | 0.0125 / 0.0250 (2.00x) | 0.100 / 0.200 (2.00x) | 4 / 4"), md);
        assertTrue(md.contains("waiting to run (from the hand-off until the new virtual thread ran"), md);
    }

    @Test
    void failedAndTimedOutRequestsHaveAColumnAndMoreOnShuttleIsALoss() {
        List<ServerBench.Run> runs = new ArrayList<>();
        runs.add(run(Endpoint.FILE, "jdk", 0, 1000, 500, 100_000_000, 0, 0));
        runs.add(run(Endpoint.FILE, "shuttle", 0, 1000, 500, 100_000_000, 0, 0));
        runs.add(run(Endpoint.FILE, "jdk", 0.5, 500, 200, 50_000_000, 1, 2));
        runs.add(run(Endpoint.FILE, "shuttle", 0.5, 500, 200, 50_000_000, 0, 4));
        runs.add(run(Endpoint.FILE, "jdk", 0.75, 500, 200, 50_000_000, 0, 7));
        runs.add(run(Endpoint.FILE, "shuttle", 0.75, 500, 200, 50_000_000, 0, 6));
        String md = ServerReport.markdown(helidonResults(runs, new double[] {0.5, 0.75}, 1), "cmd", null);
        assertTrue(md.contains("| 500/503 / 500/504 | 1, 2 / 0, 4 |\n"), md);
        assertTrue(md.contains("| 500/507 / 500/506 | 0, 7 / 0, 6 |\n"), md);
        String losses = md.substring(md.indexOf("#### Helidon SE: where Shuttle loses"));
        assertTrue(losses.contains("- /file at 50% failed or timed out: 4 requests, 3 on the JDK default\n"), losses);
        assertFalse(losses.contains("at 75%"), "fewer failures on Shuttle is no loss: " + losses);
    }

    /**
     * From five rounds on a ratio is judged by the project's rule: the maximum throughput, a little above and below
     * the JDK default's from round to round, is parity; the CPU per request, a fifth lower in every round, a win.
     */
    @Test
    void fromFiveRoundsEachRatioCarriesItsIntervalAndVerdict() {
        List<ServerBench.Run> runs = new ArrayList<>();
        long[] shuttleMax = {990, 1010, 1000, 995, 1005};
        for (int round = 1; round <= 5; round++) {
            runs.add(run(round, Endpoint.HELLO, "jdk", 0, 1000, 500, 100_000_000, 0, 0));
            runs.add(run(round, Endpoint.HELLO, "shuttle", 0, shuttleMax[round - 1], 500,
                    80_000_000 * shuttleMax[round - 1] / 1000, 0, 0));
            runs.add(run(round, Endpoint.HELLO, "jdk", 0.5, 500, 200, 50_000_000, 0, 0));
            runs.add(run(round, Endpoint.HELLO, "shuttle", 0.5, 500, 200, 50_000_000, 0, 0));
        }
        String md = ServerReport.markdown(helidonResults(runs, new double[] {0.5}, 5), "cmd", null);
        String row = md.substring(md.indexOf("| /hello | 1,000 |"));
        row = row.substring(0, row.indexOf('\n'));
        assertTrue(row.matches(".*\\| 1\\.00x \\[[0-9.]+, [0-9.]+\\] parity \\|.*"), row);
        assertTrue(row.contains("| 0.80x [0.80, 0.80] lower |"), row);
    }

    /**
     * Three rounds where the per-round ratios' median differs from the ratio of the medians, and Shuttle is worse in
     * some rounds only: each cell shows the medians and ranges, each loss the rounds it was worse in.
     */
    @Test
    void overRoundsEachCellIsAMedianWithItsRangeAndEachLossCountsItsRounds() {
        List<ServerBench.Run> runs = new ArrayList<>();
        long[][] max = {{1000, 900}, {1200, 1300}, {900, 950}};
        long[][] p99Micros = {{200, 400}, {900, 500}, {300, 360}};
        long[][] timedOut = {{0, 3}, {0, 0}, {5, 4}};
        // Shuttle's round 3 listed first: rounds are paired by number, not by order.
        for (int round = 3; round >= 1; round--) {
            for (int side = 0; side < 2; side++) {
                String scheduler = side == 0 ? "jdk" : "shuttle";
                runs.add(run(round, Endpoint.HELLO, scheduler, 0, max[round - 1][side], 500,
                        side == 0 ? 100_000_000 : 80_000_000, 0, 0));
                runs.add(run(round, Endpoint.HELLO, scheduler, 0.5, 500, p99Micros[round - 1][side], 50_000_000, 0,
                        timedOut[round - 1][side]));
            }
        }
        ServerBench.Results results = helidonResults(runs, new double[] {0.5}, 3);
        String md = ServerReport.markdown(results, "cmd", null);
        assertTrue(md.contains("3 rounds, the order of the schedulers alternating, every round's open-loop rates"
                + " from the JDK default's maxima in round 1"), md);
        assertTrue(md.contains("| /hello | 1,000 [900-1,200] | 950 [900-1,300] | 1.06x [0.90x-1.08x] |"
                + " 100 [83.33-111.1] | 84.21 [61.54-88.89] | 0.76x [0.74x-0.89x] | 0, 0 / 0, 0 |\n"), md);
        assertTrue(md.contains("| /hello | 50% | 500 | 0.300 [0.200-0.900] / 0.400 [0.360-0.500] (1.20x"
                + " [0.56x-2.00x]) |"), md);
        assertTrue(md.contains("| 100 / 100 (1.00x) | 10 / 10 (1.00x) | 500/500 [500-505] / 500/503 [500-504]"
                + " | 0, 0 [0-5] / 0, 3 [0-4] |\n"), md);
        String losses = md.substring(md.indexOf("#### Helidon SE: where Shuttle loses"));
        assertTrue(losses.contains("- /hello maximum throughput: 950 against 1,000, per-round ratio 1.06x"
                + " [0.90x-1.08x], worse in 1 of 3 rounds\n"), losses);
        assertTrue(losses.contains("- /hello at 50% p99: 0.400 against 0.300, per-round ratio 1.20x [0.56x-2.00x],"
                + " worse in 2 of 3 rounds\n"), losses);
        assertTrue(losses.contains("- /hello at 50% failed or timed out: 3 [0-4] requests, 0 [0-5] on the JDK"
                + " default, worse in 1 of 3 rounds\n"), losses);
        assertFalse(losses.contains("server CPU per request at the maximum"), "Shuttle's CPU is lower: " + losses);
        // The chart's y axis ends 10% above the highest point: Shuttle's median p99, not round 2's JDK p99.
        assertTrue(ServerReport.plots(results).get("server-helidon-hello.svg").contains(">0.440</text>"));
    }

    /**
     * The lock endpoint's waits and holds over three rounds, the same in every round at the maximum and not at 50%:
     * medians with ranges as in the other tables, and no row for an endpoint without a lock.
     */
    @Test
    void theLockTableGivesTheWaitsAndHoldOfTheLockEndpointsOnly() {
        List<ServerBench.Run> runs = new ArrayList<>();
        long[] jdkTook = {500, 510, 490};
        long[] jdkP99 = {900, 26_000, 5_000};
        long[] shuttleP99 = {84_000, 340_000, 100_000};
        for (int round = 1; round <= 3; round++) {
            runs.add(lockRun(round, "jdk", 0, 1000, 1_000, 2_000, 5_000, 9_000, 21_000));
            runs.add(lockRun(round, "shuttle", 0, 900, 3_000, 8_000, 84_000, 120_000, 21_500));
            runs.add(lockRun(round, "jdk", 0.5, jdkTook[round - 1], 500, 800, jdkP99[round - 1], 30_000, 20_100));
            runs.add(lockRun(round, "shuttle", 0.5, 500, 2_000, 40_000, shuttleP99[round - 1], 400_000, 20_200));
            for (double load : new double[] {0, 0.5}) {
                runs.add(run(round, Endpoint.HELLO, "jdk", load, 500, 200, 50_000_000, 0, 0));
                runs.add(run(round, Endpoint.HELLO, "shuttle", load, 500, 200, 50_000_000, 0, 0));
            }
        }
        String md = ServerReport.markdown(helidonResults(runs, new double[] {0.5}, 3), "cmd", null);
        String heading = "\n#### Helidon SE: lock wait and hold inside the handler\n\n";
        assertTrue(md.indexOf(heading) > md.indexOf("#### Helidon SE: where Shuttle loses"), md);
        assertTrue(md.endsWith(heading
                + "Timed by the handler on the request's virtual thread over the step and its lead-in, in µs: the"
                + " wait from before `lock()` to its return, so a waiter that parked counts until it runs again, and the hold from then to the return"
                + " of `unlock()`, JDK default / Shuttle (Shuttle/JDK); timed here because the end-to-end latency"
                + " above also includes the generator and the OS.\n\n"
                + "| endpoint | load | requests that took the lock | wait p50 µs | wait p90 µs | wait p99 µs |"
                + " wait p99.9 µs | hold p50 µs | hold p99 µs |\n|---|---:|---|---|---|---|---|---|---|\n"
                + "| /lock/reentrant | max | 1000 / 900 | 1 / 3 (3.00x) | 2 / 8 (4.00x) | 5 / 84 (16.80x)"
                + " | 9 / 120 (13.33x) | 21 / 21.50 | 22 / 22.50 |\n"
                + "| /lock/reentrant | 50% | 500 [490-510] / 500 | 0.500 / 2 (4.00x) | 0.800 / 40 (50.00x)"
                + " | 5 [0.900-26] / 100 [84-340] (20.00x [13.08x-93.33x]) | 30 / 400 (13.33x) | 20.10 / 20.20"
                + " | 21.10 / 21.20 |\n"),
                md);
    }

    /**
     * Shuttle's scheduler counters over three rounds of /hello: medians over the rounds with their ranges, per completed
     * request (round 2 at 50% also timed out 100 requests, which did not complete), and no row for /sleep, whose
     * Shuttle runs carry no counters.
     */
    @Test
    void theSchedulerTableGivesShuttlesCountersPerCompletedRequest() {
        List<ServerBench.Run> runs = new ArrayList<>();
        long[] wakeUps = {750, 1000, 500};
        long[] empty = {250, 500, 100};
        long[] parks = {800, 1000, 600};
        long[] handOffs = {3, 5, 4};
        long[] retakes = {1, 1, 2};
        long[] carriers = {2, 3, 2};
        for (int round = 1; round <= 3; round++) {
            int i = round - 1;
            runs.add(run(round, Endpoint.HELLO, "jdk", 0, 1000, 500, 100_000_000, 0, 0));
            runs.add(activityRun(round, 0, 1000, 0, new SchedulerActivity(3000, 0, 2000, 0, 0, 0, 0, 0, 2)));
            runs.add(run(round, Endpoint.HELLO, "jdk", 0.5, 500, 200, 50_000_000, 0, 0));
            runs.add(activityRun(round, 0.5, 500, round == 2 ? 100 : 0, new SchedulerActivity(2000, 50, parks[i],
                    wakeUps[i], empty[i], handOffs[i], retakes[i], 0, carriers[i])));
            for (double load : new double[] {0, 0.5}) {
                runs.add(run(round, Endpoint.SLEEP, "jdk", load, 500, 200, 50_000_000, 0, 0));
                runs.add(run(round, Endpoint.SLEEP, "shuttle", load, 500, 200, 50_000_000, 0, 0));
            }
        }
        String md = ServerReport.markdown(helidonResults(runs, new double[] {0.5}, 3), "cmd", null);
        String heading = "\n#### Helidon SE: what Shuttle's scheduler did\n\n";
        assertTrue(md.indexOf(heading) > md.indexOf("#### Helidon SE: where Shuttle loses"), md);
        assertTrue(md.endsWith(heading
                + "What the counters of Shuttle's scheduler MXBean grew by over each run and its lead-in, the /req"
                + " columns per request completed over both, the others as counted; an empty wake-up is a"
                + " carrier woken to search that"
                + " parked again without running a task.\n\n"
                + "| endpoint | load | requests completed | wake-ups/req | empty wake-ups/req | empty % of wake-ups |"
                + " steals/req | parks/req | hand-offs (by the monitor) | monitor rescues |"
                + " carrier threads at the end |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
                + "| /hello | max | 1000 | 0.00 | 0.00 | - | 0.00 | 2 | 0 (0) | 0 | 2 |\n"
                + "| /hello | 50% | 500 | 1.50 [1-2] | 0.500 [0.200-1] | 33.33 [20-50] | 0.100 | 1.60 [1.20-2]"
                + " | 4 [3-5] (1 [1-2]) | 0 | 2 [2-3] |\n"),
                md);
    }
}
