package dev.shuttle.bench.server;

import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.Schedulers;
import dev.shuttle.bench.metrics.ThreadSwitches;
import dev.shuttle.bench.report.Charts;
import dev.shuttle.bench.report.ComparisonTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;
import java.util.stream.DoubleStream;
import java.util.stream.Stream;

/** The real-server benchmark's section of docs/benchmarks.md: maximum throughput, then latency and CPU per load. */
public final class ServerReport {
    /** The percentiles of the lock waits and holds in the report, in the order of its columns. */
    private static final List<ToLongFunction<LockTimes.Distribution>> WAIT_PERCENTILES = List.of(
            LockTimes.Distribution::p50, LockTimes.Distribution::p90, LockTimes.Distribution::p99,
            LockTimes.Distribution::p999);
    private static final List<ToDoubleFunction<SlowestRequests.Split>> SPLIT_PARTS = List.of(
            SlowestRequests.Split::latency, SlowestRequests.Split::behindPrevious, SlowestRequests.Split::waitingToSend,
            SlowestRequests.Split::toHandler, SlowestRequests.Split::back);
    /** {@link #SPLIT_PARTS} with the time to the handler followed by its cut at the dispatch. */
    private static final List<ToDoubleFunction<SlowestRequests.Split>> DISPATCH_SPLIT_PARTS = List.of(
            SlowestRequests.Split::latency, SlowestRequests.Split::behindPrevious, SlowestRequests.Split::waitingToSend,
            SlowestRequests.Split::toHandler, SlowestRequests.Split::toDispatch, SlowestRequests.Split::waitingToRun,
            SlowestRequests.Split::reading, SlowestRequests.Split::back);
    private static final List<ToLongFunction<LockTimes.Distribution>> HOLD_PERCENTILES = List.of(
            LockTimes.Distribution::p50, LockTimes.Distribution::p99);

    private ServerReport() {
    }

    /**
     * Latency against offered load, one chart per framework and endpoint, p50 and p99 of both schedulers, keyed by file
     * name ({@code server-<framework>-<endpoint>.svg}).
     */
    public static Map<String, String> plots(ServerBench.Results results) {
        Map<String, String> files = new LinkedHashMap<>();
        for (Framework f : results.commands().keySet()) {
            files.putAll(plots(results, f));
        }
        return files;
    }

    private static Map<String, String> plots(ServerBench.Results results, Framework f) {
        RoundSummary summary = new RoundSummary(results.runs());
        Map<String, String> files = new LinkedHashMap<>();
        for (Endpoint e : Endpoint.values()) {
            Map<String, double[][]> series = new LinkedHashMap<>();
            for (String scheduler : List.of(Schedulers.JDK, Schedulers.SHUTTLE)) {
                for (double p : new double[] {50, 99}) {
                    List<double[]> points = new ArrayList<>();
                    for (double load : results.settings().loads()) {
                        List<ServerBench.Run> runs = summary.runs(f, e, scheduler, load);
                        if (!runs.isEmpty()) {
                            points.add(new double[] {median(runs, ServerBench.Run::offeredRate),
                                median(runs, r -> millis(r, p))});
                        }
                    }
                    if (!points.isEmpty()) {
                        series.put((scheduler.equals(Schedulers.JDK) ? "JDK default" : "Shuttle") + " p"
                                + fmtPercentile(p), points.toArray(new double[0][]));
                    }
                }
            }
            if (!series.isEmpty()) {
                files.put(plotFile(f, e), Charts.lines(shortTitle(f) + " " + e.path()
                        + ": latency against offered load",
                        "requests per second", "ms", series));
            }
        }
        return files;
    }

    private static double median(List<ServerBench.Run> runs, ToDoubleFunction<ServerBench.Run> metric) {
        return spreadOf(runs, metric).median();
    }

    private static RoundSummary.Spread spreadOf(List<ServerBench.Run> runs, ToDoubleFunction<ServerBench.Run> metric) {
        return RoundSummary.Spread.of(runs.stream().mapToDouble(metric).toArray());
    }

    private static String plotFile(Framework f, Endpoint e) {
        return "server-" + f.id() + "-" + e.name().toLowerCase(Locale.ROOT).replace('_', '-') + ".svg";
    }

    /** The title up to its first comma or parenthesis: "Helidon SE", "com.sun.net.httpserver". */
    private static String shortTitle(Framework f) {
        return f.title().split(" \\(|,")[0];
    }

    /** The section; with {@code plotDir} non-null it links the {@link #plots} there (relative to the report). */
    public static String markdown(ServerBench.Results results, String command, String plotDir) {
        StringBuilder md = new StringBuilder();
        int rounds = results.settings().rounds();
        List<String> titles = results.commands().keySet().stream().map(ServerReport::shortTitle).toList();
        md.append("## Real server: ").append(String.join(" and ", titles)).append(", virtual threads\n\n");
        md.append("Generated by `").append(command).append("` (").append(results.settings().name())
                .append(" settings: ").append(results.settings().describe()).append(").\n\n");
        md.append("- Like for like: each server runs in a child JVM with the same flags and heap, and both under")
                .append(" Shuttle's agent: on Shuttle it installs the scheduler, on the JDK default it runs in its")
                .append(" measuring mode (`-Dshuttle.measure=true`, no `implClass`), which records the JDK's own")
                .append(" scheduling delay and leaves its `ForkJoinPool` scheduling as it does. An agent's presence")
                .append(" makes HotSpot report each virtual thread's mount and unmount to JVMTI, which a JVM without")
                .append(" one skips: both servers pay that here, as Shuttle's users do, and a JDK default run without")
                .append(" any agent does not (docs/operations.md, \"Cost\"); timer")
                .append(" slack ").append(SchedulerSlack.NANOS).append(" ns on both servers' scheduler threads (the")
                .append(" server lowers it on its main thread before it creates any thread, Shuttle's carriers lower")
                .append(" their own; each server's `/slack` is checked after its runs). Each server's `/info`,")
                .append(" answered on a request thread, is checked before and after its runs: the requests ran on")
                .append(" virtual threads of the scheduler under test.\n");
        md.append("- Load: `LoadGenerator`, Java, in the parent JVM, on 127.0.0.1; one keep-alive connection per")
                .append(" platform thread, kept open from one run to the next. Open loop at a fixed rate as wrk2:")
                .append(" latency from each request's intended start, HdrHistogram; each load step begins with an")
                .append(" unmeasured lead-in at its rate on the same threads and schedule, so it does not measure")
                .append(" the change from the run before; parsing a response allocates nothing, so the generator's")
                .append(" JVM does not collect under load. A")
                .append(" request answered with a status other than 200 or a broken connection has failed; one not")
                .append(" answered within the request timeout of being sent has timed out. Either way its latency")
                .append(" counts up to then, its connection is replaced and the run goes on; both are counted per run")
                .append(" in the tables. Generator and server share the machine's processors. ").append(rounds == 1
                        ? "On each server the JDK default is measured first, then Shuttle, at the same rates"
                                + " (fractions of the JDK default's maximum on that server).\n"
                        : "In every round each server runs twice, each time in a new JVM: the JDK default first in"
                                + " odd rounds, Shuttle first in even ones, at the same rates in every round"
                                + " (fractions of the JDK default's maximum on that server in round 1, which is why"
                                + " round 1 measures it first).\n");
        if (rounds > 1) {
            md.append("- ").append(rounds).append(" rounds: each value is the median of the rounds' values,")
                    .append(" followed by their range in brackets, lowest-highest; a value without a range was the")
                    .append(" same in every round to the digits shown. Each Shuttle/JDK ratio is the median of the")
                    .append(" per-round ratios (each round's Shuttle run divided by its JDK default run), with their")
                    .append(" range.\n");
        }
        md.append("- Endpoints, the same handler code on every server: `/hello`; `/sleep` 1 ms; `/lock/reentrant`")
                .append(" and `/lock/spinbit` 20 µs of CPU under one process-wide lock; `/fanout` 8 virtual threads")
                .append(" sleeping 1 ms, joined; `/file` reads a 256 KB file from the page cache and answers its")
                .append(" length.\n");
        md.append("- CPU per request: process CPU (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`, all threads) over")
                .append(" completed requests, for the server (read through its `/cpu`) and for the generator. The")
                .append(" server is read before a step's lead-in and after the step, never amid the load (a request")
                .append(" there waits its turn and its handling delays the load's), so its CPU, collections,")
                .append(" scheduler counters and lock times are over the lead-in and the step, and per request")
                .append(" over the requests of both.\n");
        RoundSummary summary = new RoundSummary(results.runs());
        for (Map.Entry<Framework, Map<String, String>> f : results.commands().entrySet()) {
            frameworkSection(md, results, summary, f.getKey(), f.getValue(), plotDir);
        }
        return md.toString();
    }

    private static void frameworkSection(StringBuilder md, ServerBench.Results results, RoundSummary summary,
            Framework f, Map<String, String> commands, String plotDir) {
        md.append("\n### ").append(f.title()).append("\n\n");
        md.append("- Server, JDK default: `").append(commands.get(Schedulers.JDK)).append("`\n");
        md.append("- Server, Shuttle: `").append(commands.get(Schedulers.SHUTTLE)).append("`\n\n");

        md.append("#### ").append(shortTitle(f)).append(": maximum throughput (closed loop)\n\n");
        md.append("| endpoint | JDK default req/s | Shuttle req/s | Shuttle/JDK | server CPU µs/req JDK | Shuttle |")
                .append(" Shuttle/JDK | failed, timed out JDK / Shuttle |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
        List<String> losses = new ArrayList<>();
        for (Endpoint e : Endpoint.values()) {
            Optional<RoundSummary.Cell> cell = summary.cell(f, e, 0);
            if (cell.isEmpty()) {
                continue;
            }
            RoundSummary.Comparison rate = cell.get().compare(r -> r.result().completedPerSecond(), true);
            RoundSummary.Comparison cpu = cell.get().compare(ServerBench.Run::serverCpuMicrosPerRequest, false);
            md.append("| ").append(e.path()).append(" | ").append(value(rate.jdk())).append(" | ")
                    .append(value(rate.shuttle())).append(" | ").append(ratio(rate)).append(" | ")
                    .append(value(cpu.jdk())).append(" | ").append(value(cpu.shuttle())).append(" | ")
                    .append(ratio(cpu)).append(" | ").append(failures(cell.get())).append(" |\n");
            lossInFailures(losses, e.path() + " at the maximum", cell.get());
            loss(losses, e.path() + " maximum throughput", rate);
            loss(losses, e.path() + " server CPU per request at the maximum", cpu);
        }

        md.append("\n#### ").append(shortTitle(f))
                .append(": latency and CPU at fixed rates (fractions of the JDK default's maximum)\n\n");
        md.append("Each cell: JDK default / Shuttle (Shuttle/JDK). Latency in ms from the intended start, of every")
                .append(" request sent: completed, failed or timed out.\n\n");
        md.append("| endpoint | load | req/s | p50 ms | p99 ms | p99.9 ms | server CPU µs/req |")
                .append(" generator CPU µs/req | completed of planned | failed, timed out |\n")
                .append("|---|---:|---:|---|---|---|---|---|---|---|\n");
        for (Endpoint e : Endpoint.values()) {
            for (double load : results.settings().loads()) {
                Optional<RoundSummary.Cell> found = summary.cell(f, e, load);
                if (found.isEmpty()) {
                    continue;
                }
                RoundSummary.Cell cell = found.get();
                String where = e.path() + " at " + percent(load);
                Map<Double, RoundSummary.Comparison> latency = new LinkedHashMap<>();
                for (double p : new double[] {50, 99, 99.9}) {
                    latency.put(p, cell.compare(r -> millis(r, p), false));
                }
                RoundSummary.Comparison cpu = cell.compare(ServerBench.Run::serverCpuMicrosPerRequest, false);
                md.append("| ").append(e.path()).append(" | ").append(percent(load)).append(" | ")
                        .append(value(spreadOf(cell.jdk(), ServerBench.Run::offeredRate))).append(" | ");
                latency.values().forEach(c -> md.append(pair(c)).append(" | "));
                md.append(pair(cpu)).append(" | ")
                        .append(pair(cell.compare(ServerBench.Run::generatorCpuMicrosPerRequest, false)))
                        .append(" | ").append(completed(cell)).append(" | ").append(failures(cell)).append(" |\n");
                lossInFailures(losses, where, cell);
                latency.forEach((p, c) -> loss(losses, where + " p" + fmtPercentile(p), c));
                loss(losses, where + " server CPU per request", cpu);
            }
        }
        delayTable(md, results, summary, f, losses);
        md.append("\n#### ").append(shortTitle(f)).append(": where Shuttle loses\n\n");
        if (losses.isEmpty()) {
            md.append(results.settings().rounds() == 1 ? "Nowhere in this run.\n"
                    : "Nowhere, on the medians of these " + results.settings().rounds() + " rounds.\n");
        } else {
            md.append(results.settings().rounds() == 1
                    ? "Every cell above where Shuttle is worse than the JDK default, by any margin:\n\n"
                    : "Every cell above where Shuttle's median is worse than the JDK default's, by any margin:"
                            + " Shuttle's median against the JDK default's, the per-round ratios' median and range,"
                            + " and in how many rounds Shuttle's run was worse than the JDK default's:\n\n");
            losses.forEach(l -> md.append(l).append('\n'));
        }
        slowestTable(md, results, summary, f);
        lockTable(md, results, summary, f);
        activityTable(md, results, summary, f);
        ProfileTable.append(md, results, f, shortTitle(f));
        if (plotDir != null) {
            md.append("\n#### ").append(shortTitle(f)).append(": latency against offered load\n\n");
            for (Endpoint e : Endpoint.values()) {
                if (!hasLoadSteps(results, summary, f, e)) {
                    continue;
                }
                md.append("![").append(shortTitle(f)).append(' ').append(e.path()).append("](").append(plotDir)
                        .append('/').append(plotFile(f, e)).append(")\n\n");
            }
        }
    }

    /**
     * The scheduler's own share of the latency beside the end-to-end latency, and the server's context switches per
     * request, at the maximum and at each load step; nothing if no step carries both. Adds Shuttle's losses in the
     * delay's p99 and in the switches to {@code losses}.
     */
    private static void delayTable(StringBuilder md, ServerBench.Results results, RoundSummary summary, Framework f,
            List<String> losses) {
        StringBuilder rows = new StringBuilder();
        for (Endpoint e : Endpoint.values()) {
            for (double load : maximumAndSteps(results)) {
                Optional<RoundSummary.Cell> found = summary.cell(f, e, load);
                if (found.isEmpty() || !carriesDelayAndSwitches(found.get())) {
                    continue;
                }
                RoundSummary.Cell cell = found.get();
                String where = e.path() + " at " + step(load);
                rows.append("| ").append(e.path()).append(" | ").append(step(load));
                for (double p : new double[] {50, 99}) {
                    rows.append(" | ").append(pair(cell.compare(r -> millis(r, p), false)));
                }
                for (double p : new double[] {50, 99}) {
                    RoundSummary.Comparison delay = cell.compare(r -> r.delayMicros(p), false);
                    rows.append(" | ").append(pair(delay));
                    if (p == 99) {
                        loss(losses, where + " scheduling delay p99", delay);
                    }
                }
                RoundSummary.Comparison samples = cell.compare(r -> r.schedulingDelay().orElseThrow().samples(),
                        true);
                rows.append(" | ").append(count(samples.jdk())).append(" / ").append(count(samples.shuttle()));
                RoundSummary.Comparison switches = cell.compare(ServerBench.Run::switchesPerRequest, false);
                rows.append(" | ").append(pair(switches));
                for (ToLongFunction<ThreadSwitches.Counts> kind : List.<ToLongFunction<ThreadSwitches.Counts>>of(
                        ThreadSwitches.Counts::voluntary, ThreadSwitches.Counts::involuntary)) {
                    RoundSummary.Comparison c = cell.compare(r -> kind.applyAsLong(r.switches().orElseThrow())
                            / (double) r.result().completedWithLeadIn(), false);
                    rows.append(" | ").append(value(c.jdk())).append(" / ").append(value(c.shuttle()));
                }
                rows.append(" |\n");
                loss(losses, where + " server context switches per request", switches);
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n#### ").append(shortTitle(f)).append(": the scheduler's share of latency, and context switches")
                .append("\n\n");
        md.append("The end-to-end latency of the table above beside the scheduling delay inside the server: the time")
                .append(" from a virtual thread becoming runnable (started, unparked, yielding, its timer due) to a")
                .append(" carrier starting to run it, one hand-off in eight sampled, from the server's")
                .append(" `dev.shuttle:type=SchedulingDelay` MXBean read before the lead-in and after the step, so")
                .append(" over both. On Shuttle the bean is the scheduler's own; on the JDK default the agent's")
                .append(" measuring mode records the same histogram for the JDK's `ForkJoinPool`, so the two columns")
                .append(" are measured alike. A percentile is the upper bound of the bucket holding it (buckets at")
                .append(" most 12.5 % wide). Context switches: voluntary (the thread blocked or parked) and")
                .append(" involuntary (switched out while runnable), summed over the server's threads from")
                .append(" `/proc/<pid>/task/*/status`, read by the generator's process around the lead-in and the")
                .append(" step, per request completed over both; counts do not drift with the machine's noise as")
                .append(" times do. JDK default / Shuttle (Shuttle/JDK).\n\n");
        md.append("| endpoint | load | end-to-end p50 ms | end-to-end p99 ms | scheduling delay p50 µs |")
                .append(" scheduling delay p99 µs | delays sampled | context switches/req | voluntary/req |")
                .append(" involuntary/req |\n|---|---:|---|---|---|---|---|---|---|---|\n");
        md.append(rows);
    }

    private static boolean carriesDelayAndSwitches(RoundSummary.Cell cell) {
        return Stream.concat(cell.jdk().stream(), cell.shuttle().stream())
                .allMatch(r -> r.schedulingDelay().isPresent() && r.switches().isPresent());
    }

    /**
     * Where the slowest requests of each load step spent their time ({@link SlowestRequests}); nothing if no step
     * carries the split.
     */
    private static void slowestTable(StringBuilder md, ServerBench.Results results, RoundSummary summary,
            Framework f) {
        record Step(Endpoint endpoint, double load, RoundSummary.Cell cell) {
        }
        List<Step> steps = new ArrayList<>();
        for (Endpoint e : Endpoint.values()) {
            for (double load : results.settings().loads()) {
                summary.cell(f, e, load).filter(ServerReport::carriesSplit)
                        .ifPresent(cell -> steps.add(new Step(e, load, cell)));
            }
        }
        boolean dispatch = steps.stream().allMatch(step -> carriesDispatch(step.cell()));
        List<ToDoubleFunction<SlowestRequests.Split>> parts = dispatch ? DISPATCH_SPLIT_PARTS : SPLIT_PARTS;
        StringBuilder rows = new StringBuilder();
        for (Step step : steps) {
            splitRow(rows, step.endpoint(), step.load(), "latency", parts, step.cell(), r -> r.result().slowest());
            splitRow(rows, step.endpoint(), step.load(), "service", parts, step.cell(),
                    r -> r.result().slowestServed());
        }
        if (steps.isEmpty()) {
            return;
        }
        md.append("\n#### ").append(shortTitle(f)).append(": where the slowest ")
                .append(fmtPercentile(SlowestRequests.TAIL * 100)).append(" % of requests spent their time\n\n");
        md.append("The answered requests at or above each run's ")
                .append(fmtPercentile(100 - SlowestRequests.TAIL * 100))
                .append("th percentile, their mean latency from the intended start cut into four parts that add up")
                .append(" to it: behind the previous answer (the connection's previous answer came after this")
                .append(" request's intended start: the queueing an open-loop generator counts); waiting to send (from")
                .append(" then, or from the intended start, until the generator wrote the request: its thread woke late")
                .append(" or waited for a processor, which generator and server share);")
                .append(" to the handler (from that write until the server's handler was entered: the server noticing")
                .append(" the bytes, the request's thread waiting to run, the framework parsing it); back (from the")
                .append(" handler's entry until the generator had read the answer: the handler's work, the write, the")
                .append(" generator's thread waking to read). The handler's entry is sent back in a response header;")
                .append(" both processes read the machine's one monotonic clock. Time behind the previous answer was")
                .append(" spent in that answer's own parts, so each step has a second row: the slowest service times")
                .append(" (from the send to the answer read, the last two parts), the requests that made the others")
                .append(" wait. Beside them, the server's garbage collections during the step and its lead-in, and")
                .append(" their summed time (the collectors' MXBeans), since a pause stops every request thread at")
                .append(" once.");
        if (dispatch) {
            md.append(" This server hands each request to its executor, and answers when it did and when the")
                    .append(" request's virtual thread began to run, so the time to the handler is cut once more: to")
                    .append(" the dispatch (the bytes in the kernel, the server's dispatcher thread noticing them),")
                    .append(" waiting to run (from the hand-off until the new virtual thread ran: the scheduler's")
                    .append(" part) and reading (the request thread reading and parsing the request).");
        }
        md.append(" In ms, JDK default / Shuttle (Shuttle/JDK).\n\n");
        md.append("| endpoint | load | slowest by | mean ms | behind the previous answer ms | waiting to send ms |")
                .append(" to the handler ms |")
                .append(dispatch ? " to the dispatch ms | waiting to run ms | reading ms |" : "")
                .append(" back ms | GC collections | GC ms |\n")
                .append("|---|---:|---|---|---|---|---|").append(dispatch ? "---|---|---|" : "")
                .append("---|---|---|\n");
        md.append(rows);
    }

    private static void splitRow(StringBuilder rows, Endpoint e, double load, String by,
            List<ToDoubleFunction<SlowestRequests.Split>> parts, RoundSummary.Cell cell,
            Function<ServerBench.Run, SlowestRequests.Split> split) {
        rows.append("| ").append(e.path()).append(" | ").append(percent(load)).append(" | ").append(by);
        for (ToDoubleFunction<SlowestRequests.Split> part : parts) {
            rows.append(" | ").append(pair(cell.compare(r -> part.applyAsDouble(split.apply(r)) / 1e6, false)));
        }
        RoundSummary.Comparison collections = cell.compare(r -> r.gc().collections(), false);
        rows.append(" | ").append(count(collections.jdk())).append(" / ").append(count(collections.shuttle()))
                .append(" | ").append(pair(cell.compare(r -> r.gc().millis(), false))).append(" |\n");
    }

    /** Whether every run of {@code cell} cut its slowest requests' time to the handler at the dispatch. */
    private static boolean carriesDispatch(RoundSummary.Cell cell) {
        return Stream.concat(cell.jdk().stream(), cell.shuttle().stream())
                .noneMatch(r -> Double.isNaN(r.result().slowest().toDispatch()));
    }

    /** Both splits come from the same recorded requests, so one that holds none says the other holds none. */
    private static boolean carriesSplit(RoundSummary.Cell cell) {
        return Stream.concat(cell.jdk().stream(), cell.shuttle().stream())
                .allMatch(r -> r.result().slowest().requests() > 0);
    }

    /**
     * The lock endpoints' waits for and holds of their lock as the handlers timed them, at the maximum and at each load
     * step; nothing if no run carries them.
     */
    private static void lockTable(StringBuilder md, ServerBench.Results results, RoundSummary summary, Framework f) {
        StringBuilder rows = new StringBuilder();
        for (Endpoint e : Endpoint.values()) {
            for (double load : maximumAndSteps(results)) {
                Optional<RoundSummary.Cell> found = summary.cell(f, e, load);
                if (found.isEmpty() || !carriesLockTimes(found.get())) {
                    continue;
                }
                RoundSummary.Cell cell = found.get();
                RoundSummary.Comparison took = cell.compare(r -> lockTimes(r).waits().count(), true);
                rows.append("| ").append(e.path()).append(" | ").append(step(load)).append(" | ")
                        .append(count(took.jdk())).append(" / ").append(count(took.shuttle()));
                for (ToLongFunction<LockTimes.Distribution> p : WAIT_PERCENTILES) {
                    rows.append(" | ").append(pair(cell.compare(r -> p.applyAsLong(lockTimes(r).waits()) / 1e3,
                            false)));
                }
                // The hold's p50 checks the measurement, the spin's 20 µs; its p99 shows a holder preempted.
                for (ToLongFunction<LockTimes.Distribution> p : HOLD_PERCENTILES) {
                    RoundSummary.Comparison hold = cell.compare(r -> p.applyAsLong(lockTimes(r).holds()) / 1e3,
                            false);
                    rows.append(" | ").append(value(hold.jdk())).append(" / ").append(value(hold.shuttle()));
                }
                rows.append(" |\n");
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n#### ").append(shortTitle(f)).append(": lock wait and hold inside the handler\n\n");
        md.append("Timed by the handler on the request's virtual thread over the step and its lead-in, in µs: the")
                .append(" wait from before `lock()` to its")
                .append(" return, so a waiter that parked counts until it runs again, and the hold from then to the")
                .append(" return of `unlock()`, JDK default / Shuttle (Shuttle/JDK); timed here because the end-to-end")
                .append(" latency above also includes the generator and the OS.\n\n");
        md.append("| endpoint | load | requests that took the lock | wait p50 µs | wait p90 µs | wait p99 µs |")
                .append(" wait p99.9 µs | hold p50 µs | hold p99 µs |\n|---|---:|---|---|---|---|---|---|---|\n");
        md.append(rows);
    }

    /**
     * Shuttle's scheduler counters over each run, per completed request, at the maximum and at each load step, beside
     * the server CPU of the tables above; nothing if no Shuttle run carries them.
     */
    private static void activityTable(StringBuilder md, ServerBench.Results results, RoundSummary summary,
            Framework f) {
        StringBuilder rows = new StringBuilder();
        for (Endpoint e : Endpoint.values()) {
            for (double load : maximumAndSteps(results)) {
                List<ServerBench.Run> runs = summary.runs(f, e, Schedulers.SHUTTLE, load);
                if (runs.isEmpty() || !runs.stream().allMatch(r -> r.schedulerActivity().isPresent())) {
                    continue;
                }
                rows.append("| ").append(e.path()).append(" | ").append(step(load)).append(" | ")
                        .append(count(spreadOf(runs, r -> r.result().completedWithLeadIn())));
                List<ToDoubleFunction<ServerBench.Run>> perRequest = List.of(
                        r -> activity(r).wakeUpsPerRequest(r.result().completedWithLeadIn()),
                        r -> activity(r).emptyWakeUpsPerRequest(r.result().completedWithLeadIn()),
                        r -> activity(r).emptyWakeUpPercent(),
                        r -> activity(r).stealsPerRequest(r.result().completedWithLeadIn()),
                        r -> activity(r).parksPerRequest(r.result().completedWithLeadIn()));
                perRequest.forEach(m -> rows.append(" | ").append(value(spreadOf(runs, m))));
                rows.append(" | ").append(count(spreadOf(runs, r -> activity(r).handOffs()))).append(" (")
                        .append(count(spreadOf(runs, r -> activity(r).monitorRetakes()))).append(") | ")
                        .append(count(spreadOf(runs, r -> activity(r).monitorRescues()))).append(" | ")
                        .append(count(spreadOf(runs, r -> activity(r).carrierThreads()))).append(" |\n");
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        md.append("\n#### ").append(shortTitle(f)).append(": what Shuttle's scheduler did\n\n");
        md.append("What the counters of Shuttle's scheduler MXBean grew by over each run and its lead-in, the /req")
                .append(" columns per request completed over both, the others as counted; an empty wake-up is a")
                .append(" carrier woken to search that parked again without running a task.\n\n");
        md.append("| endpoint | load | requests completed | wake-ups/req | empty wake-ups/req | empty % of wake-ups |")
                .append(" steals/req | parks/req | hand-offs (by the monitor) | monitor rescues |")
                .append(" carrier threads at the end |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        md.append(rows);
    }

    private static SchedulerActivity activity(ServerBench.Run run) {
        return run.schedulerActivity().orElseThrow();
    }

    /** The closed-loop maximum (load 0), then the open-loop steps: the rows of the tables that have both. */
    private static double[] maximumAndSteps(ServerBench.Results results) {
        return DoubleStream.concat(DoubleStream.of(0), Arrays.stream(results.settings().loads())).toArray();
    }

    private static String step(double load) {
        return load == 0 ? "max" : percent(load);
    }

    private static boolean carriesLockTimes(RoundSummary.Cell cell) {
        return Stream.concat(cell.jdk().stream(), cell.shuttle().stream()).allMatch(r -> r.lockTimes().isPresent());
    }

    private static LockTimes lockTimes(ServerBench.Run run) {
        return run.lockTimes().orElseThrow();
    }

    /** Completed of planned requests on each scheduler: {@code JDK completed/planned / Shuttle's}. */
    private static String completed(RoundSummary.Cell cell) {
        RoundSummary.Comparison completed = cell.compare(r -> r.result().completed(), true);
        RoundSummary.Comparison planned = cell.compare(r -> r.result().planned(), true);
        return count(completed.jdk()) + "/" + count(planned.jdk()) + " / " + count(completed.shuttle()) + "/"
                + count(planned.shuttle());
    }

    /** Failed and timed-out requests on each scheduler: {@code JDK failed, timed out / Shuttle's}. */
    private static String failures(RoundSummary.Cell cell) {
        RoundSummary.Comparison failed = cell.compare(r -> r.result().failed(), false);
        RoundSummary.Comparison timedOut = cell.compare(r -> r.result().timedOut(), false);
        return count(failed.jdk()) + ", " + count(timedOut.jdk()) + " / " + count(failed.shuttle()) + ", "
                + count(timedOut.shuttle());
    }

    /**
     * Compared apart from the latency, which hides them: a fast failure looks good in a percentile, and a timed-out
     * request's latency stops at the timeout.
     */
    private static void lossInFailures(List<String> losses, String where, RoundSummary.Cell cell) {
        RoundSummary.Comparison c = cell.compare(r -> r.result().failures(), false);
        if (c.shuttleLoses()) {
            losses.add("- " + where + " failed or timed out: " + count(c.shuttle()) + " requests, "
                    + count(c.jdk()) + " on the JDK default" + inRounds(c));
        }
    }

    /**
     * Over rounds the medians say whether Shuttle lost, so they are given beside the ratio, which, the median of the
     * per-round ratios, can fall on the other side of 1.
     */
    private static void loss(List<String> losses, String what, RoundSummary.Comparison c) {
        if (c.shuttleLoses()) {
            losses.add("- " + what + ": " + (c.rounds() == 1 ? ratio(c)
                    : ComparisonTable.format(c.shuttle().median()) + " against "
                            + ComparisonTable.format(c.jdk().median()) + ", per-round ratio " + ratio(c)
                            + inRounds(c)));
        }
    }

    private static String inRounds(RoundSummary.Comparison c) {
        return c.rounds() == 1 ? "" : ", worse in " + c.shuttleWorse() + " of " + c.rounds() + " rounds";
    }

    private static boolean hasLoadSteps(ServerBench.Results results, RoundSummary summary, Framework f, Endpoint e) {
        for (double load : results.settings().loads()) {
            if (!summary.runs(f, e, Schedulers.JDK, load).isEmpty()
                    || !summary.runs(f, e, Schedulers.SHUTTLE, load).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static double millis(ServerBench.Run run, double percentile) {
        return run.result().latency().getValueAtPercentile(percentile) / 1e6;
    }

    private static String pair(RoundSummary.Comparison c) {
        return value(c.jdk()) + " / " + value(c.shuttle()) + " (" + ratio(c) + ")";
    }

    private static String value(RoundSummary.Spread s) {
        return spread(s, ComparisonTable::format);
    }

    /**
     * The median of the per-round ratios with their range; from {@link RatioInterval#MIN_ROUNDS} rounds on, with its
     * 95 % interval and the verdict of the project's rule instead, since a range alone cannot say whether a
     * difference is beyond the spread.
     */
    private static String ratio(RoundSummary.Comparison c) {
        return c.interval().rounds() < RatioInterval.MIN_ROUNDS ? spread(c.ratio(), ComparisonTable::formatRatio)
                : c.interval().format();
    }

    /** Request counts as plain integers; a median of an even number of rounds may end in .5. */
    private static String count(RoundSummary.Spread s) {
        return spread(s, v -> v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v));
    }

    /** The median, and its range unless every round showed the same: {@code 2.25 [1.90-11.6]}. */
    private static String spread(RoundSummary.Spread s, DoubleFunction<String> format) {
        String low = format.apply(s.low());
        String high = format.apply(s.high());
        return format.apply(s.median()) + (low.equals(high) ? "" : " [" + low + "-" + high + "]");
    }

    private static String percent(double load) {
        return String.format(Locale.ROOT, "%.0f%%", load * 100);
    }

    private static String fmtPercentile(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }
}
