package dev.shuttle.bench.report;

import dev.shuttle.bench.SchedulerSlack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code docs/benchmarks.md}: how the numbers were made; a summary of each benchmark's primary metric, how to
 * reproduce the run and the charts, for the reader who wants the picture first; then the side-by-side tables with
 * ratios and Go's number for the same scenario where Go has one, the rows where Shuttle loses with the path each
 * benchmark exercises, benchmarks that produced no result, and Go's own runs.
 */
public final class ReportWriter {
    /** Where the numbers came from. */
    public record Context(String command, String date, String jvm, String machine, String note) {
    }

    /** What each benchmark exercises: where to look first when Shuttle loses on it. */
    private static final Map<String, String> EXERCISES = Map.ofEntries(
            Map.entry("sched.ExternalArrivals",
                    "tasks submitted one at a time from a platform thread to parked carriers: the wake-up from"
                    + " outside, and whether the woken carrier wakes another for nothing (empty wake-ups)"),
            Map.entry("sched.IdleCpu", "what carriers do once the work is gone: how long they spin before they park,"
                    + " and any periodic wake-up while idle"),
            Map.entry("sched.PingPong",
                    "the park/unpark hand-off: where a woken thread is queued (runNext), whether another"
                    + " carrier is woken, and carrier park/unpark"),
            Map.entry("sched.Skynet",
                    "thread start and join throughput: the submit path, run-queue overflow to the global"
                    + " queue, stealing"),
            Map.entry("sched.Wakeup",
                    "block/wake pairs with idle carriers: the cost of searching carriers and of waking idle"
                    + " ones (seed 001)"),
            Map.entry("timer.ParallelTimerLatency",
                    "timers firing while one carrier is busy: the idle carrier that watches"
                    + " the earliest deadline, and stealing of expired timers from the busy carrier's heap"),
            Map.entry("timer.StaggeredTickerLatency",
                    "timer wake-ups competing with CPU-bound work: the timer watch passing"
                    + " between carriers as they get busy, and woken threads queued behind a busy carrier's work"),
            Map.entry("timer.Tickers", "many timed parks: the timer queue and one carrier park/unpark per wake-up"),
            Map.entry("timer.Sleep", "thread start + timer arm + wake for 1000 short sleeps"),
            Map.entry("timer.TimerStop",
                    "a timed park's timer arm and cancel on its own scheduler: the carrier's timer heap"
                    + " (Shuttle) against the pool's delay-scheduler queue (JDK)"),
            Map.entry("timer.TimerReset",
                    "a timed park's timer cancel and re-arm on its own scheduler: the carrier's timer"
                    + " heap (Shuttle) against the pool's delay-scheduler queue (JDK)"),
            Map.entry("timer.TimerStartStop",
                    "1000 timers armed then cancelled from one virtual thread: the carrier's timer"
                    + " heap growing and shrinking (Shuttle) against the delay-scheduler queue (JDK)"),
            Map.entry("juc.ChannelPingPong", "the JDK's spin-then-park waiters (LinkedTransferQueue, Exchanger ask"
                    + " ForkJoinWorkerThread.hasKnownQueuedWork before spinning; docs/design.md) and the runNext"
                    + " hand-off"),
            Map.entry("juc.ChannelProducerConsumer", "spin-then-park waiters with several pairs per carrier: the"
                    + " spin budget against queued work, and where each woken thread is queued"),
            Map.entry("juc.LockHandoff", "AQS release waking a waiter while the releaser keeps running: a woken"
                    + " thread in runNext waits for its waker to block"),
            Map.entry("juc.LatchFanIn", "thread start from a running virtual thread and the last count-down waking"
                    + " the coordinator: where started threads queue and when a second carrier is woken"),
            Map.entry("juc.FutureChain", "one thread start per stage from a thread that then ends: the submit path"
                    + " and runNext"),
            Map.entry("juc.SkynetChannels", "thread start plus a SynchronousQueue rendezvous per node: spin-then-park"
                    + " waiters under a deep run queue"));

    /** Within this share of 1, a ratio is called level in the summary: one run's spread is larger. */
    private static final double LEVEL = 0.05;

    private ReportWriter() {
    }

    public static String markdown(Context ctx, List<Measurement> measurements, GoReference go,
            List<GoBench.Result> goResults, Map<String, String> plots, List<String> notes) {
        ComparisonTable table = new ComparisonTable(measurements);
        StringBuilder md = new StringBuilder();
        md.append("# Shuttle benchmarks\n\n");
        md.append("Generated by `").append(ctx.command()).append("` from JMH's JSON output; every number below was")
                .append(" measured by that run.\n\n");
        md.append("- Date: ").append(ctx.date()).append('\n');
        md.append("- JDK: ").append(ctx.jvm()).append('\n');
        md.append("- Machine: ").append(ctx.machine()).append('\n');
        if (!ctx.note().isBlank()) {
            md.append("- Note: ").append(ctx.note()).append('\n');
        }
        md.append("\nRatio = Shuttle / JDK default. \"better\" says which direction is better for the metric; both")
                .append(" sides run with one carrier per processor unless a parallelism parameter says otherwise.")
                .append(" Latency metrics (`p50_us` ... `max_us`, `mean_us`) are HdrHistogram statistics over all")
                .append(" measurement iterations; `cpu_us_per_op` is process CPU time (all threads, JIT and GC")
                .append(" included, `clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`, nanosecond precision) per operation.")
                .append(" Like for like: ").append(SchedulerSlack.describe()).append(", the same JVM flags and heap.")
                .append(" A metric in bold is the benchmark's primary one: its JMH score, or for benchmarks whose")
                .append(" score is only an observation window (Tickers, StaggeredTickerLatency, IdleCpu) the")
                .append(" secondary result named by its `@PrimaryMetric`; those window scores are not shown.")
                .append(" Timer operations (TimerStop, TimerReset, TimerStartStop) call, from a virtual thread, the")
                .append(" `ForkJoinPool.schedule` and `cancel` its own timed park uses on its scheduler.")
                .append(" Go column: Go's own benchmark for the same scenario on this machine, converted to the row's")
                .append(" unit.\n\n");
        md.append("## Summary\n\n");
        md.append("Each benchmark's primary metric. One run: the JDK default's own figures move by several times")
                .append(" between runs and machines, so read a ratio within its run, and a difference is settled")
                .append(" only over five or more rounds with the schedulers' order alternated. \"level\" is within")
                .append(" 5 %. Every metric follows under \"JDK default scheduler versus Shuttle\".\n\n");
        md.append(table.toSummaryMarkdown(LEVEL));
        md.append("\n## How to reproduce\n\n");
        md.append("`./shuttle report` runs everything below (about 80 minutes on 2 cores) and rewrites this file;")
                .append(" `./shuttle report --report-only` rebuilds it from the last run's results. One benchmark,")
                .append(" both schedulers side by side:\n\n```\n")
                .append("java -jar scheduler-bench/target/benchmarks.jar 'sched.PingPong' -p scheduler=jdk,shuttle\n")
                .append("```\n\n");
        if (!plots.isEmpty()) {
            md.append("## Charts\n\n");
            plots.keySet().forEach(f -> md.append("![").append(f).append("](").append(FILE_DIR).append('/').append(f)
                    .append(")\n\n"));
        }
        md.append("## JDK default scheduler versus Shuttle\n\n");
        md.append(table.toMarkdown(r -> go.cell(r.benchmark(), r.params(), r.metric()), "Go"));
        if (!table.unpaired().isEmpty()) {
            md.append("\n## Other results (locks)\n\n");
            md.append("| benchmark | params | metric | value | unit | Go |\n|---|---|---|---:|---|---:|\n");
            for (Measurement m : table.unpaired()) {
                String params = ComparisonTable.paramsWithoutScheduler(m);
                md.append("| ").append(m.benchmark()).append(" | ").append(params).append(" | ").append(m.metric())
                        .append(" | ").append(ComparisonTable.format(m.value())).append(" | ").append(m.unit())
                        .append(" | ").append(go.cell(m.benchmark(), params, m.metric())).append(" |\n");
            }
        }
        md.append("\n## Where Shuttle loses\n\n");
        List<String> losses = new ArrayList<>();
        List<String> slight = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (ComparisonTable.Row r : table.rows()) {
            String name = "- **" + r.benchmark() + (r.params().isEmpty() ? "" : " [" + r.params() + "]") + "** "
                    + r.metric() + ": ";
            if (r.shuttleLoses(0)) {
                String type = r.benchmark().substring(0, r.benchmark().lastIndexOf('.'));
                (r.shuttleLoses(0.05) ? losses : slight).add(name + ComparisonTable.formatRatio(r.ratio()) + " ("
                        + (r.higherIsBetter() ? "higher" : "lower") + " is better). Exercises "
                        + EXERCISES.getOrDefault(type, "see the benchmark's Javadoc") + ".");
            }
            if (r.jdk() == null || r.shuttle() == null) {
                missing.add(name + "no result for " + (r.shuttle() == null ? "Shuttle" : "the JDK")
                        + " (the benchmark failed; see the run's log).");
            }
        }
        if (losses.isEmpty() && slight.isEmpty() && missing.isEmpty()) {
            md.append("Shuttle is as good as the JDK default or better on every metric of this run.\n");
        }
        if (!losses.isEmpty()) {
            md.append("Every row where Shuttle is more than 5 % worse, with the path each benchmark exercises (the")
                    .append(" place to profile first; the run itself does not establish the cause):\n\n");
            losses.forEach(l -> md.append(l).append('\n'));
        }
        if (!slight.isEmpty()) {
            md.append("\nRows where Shuttle is worse by 5 % or less (within this machine's run-to-run noise, listed")
                    .append(" so that no loss is left out):\n\n");
            slight.forEach(l -> md.append(l).append('\n'));
        }
        if (!missing.isEmpty()) {
            md.append("\nRows with one side missing:\n\n");
            missing.forEach(l -> md.append(l).append('\n'));
        }
        if (!notes.isEmpty()) {
            md.append("\n## Run notes\n\n");
            notes.forEach(n -> md.append("- ").append(n).append('\n'));
        }
        if (!goResults.isEmpty()) {
            md.append("\n## Go reference runs\n\n| Go benchmark | GOMAXPROCS | metrics |\n|---|---:|---|\n");
            for (GoBench.Result r : goResults) {
                StringBuilder metrics = new StringBuilder();
                r.metrics().forEach((unit, v) -> metrics.append(metrics.isEmpty() ? "" : ", ")
                        .append(ComparisonTable.format(v)).append(' ').append(unit));
                md.append("| ").append(r.name()).append(" | ").append(r.procs()).append(" | ").append(metrics)
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    /** The charts' directory, relative to the report. */
    public static final String FILE_DIR = "benchmarks";
}
