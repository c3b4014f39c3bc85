/**
 * Shuttle's benchmark suite: Shuttle beside the JDK's default virtual-thread scheduler, ported from the Go runtime
 * benchmarks that motivated each design choice (see {@code /work/shared/seeds}).
 *
 * <ul>
 *   <li>Every scheduler benchmark has a {@code scheduler} parameter, {@code jdk} or {@code shuttle}, resolved by
 *       {@link dev.shuttle.bench.Schedulers}; both sides run one carrier per processor unless a
 *       {@code parallelism} parameter says otherwise, and then the JDK side must be forked with the same
 *       {@code -Djdk.virtualThreadScheduler.parallelism} (the JDK reads it once).</li>
 *   <li>Each forked JVM gets {@link dev.shuttle.bench.BenchJvm}'s flags ({@code --add-opens java.lang} for Shuttle,
 *       native access for the CPU clock and the timer slack).</li>
 *   <li>Like for like: both schedulers' threads run with the same Linux timer slack
 *       ({@link dev.shuttle.bench.SchedulerSlack}): the thread that opens a trial's scheduler lowers it before any
 *       virtual thread exists, so the JDK's scheduler threads inherit it, and the trial fails if a scheduler thread
 *       kept another.</li>
 *   <li>A benchmark whose JMH score is only an observation window names its headline metric with
 *       {@link dev.shuttle.bench.PrimaryMetric}; reports drop the window.</li>
 *   <li>Exceptions in benchmark virtual threads fail the benchmark ({@link dev.shuttle.bench.VirtualTasks}); waits
 *       on other threads are bounded, so a scheduler that starves a thread fails instead of hanging.</li>
 *   <li>Launchers: {@link dev.shuttle.bench.QuickCompare} ({@code ./shuttle compare}), {@link dev.shuttle.bench.SmokeRun}
 *       (CI) and {@code report.FullRun} (docs/benchmarks.md). They find benchmarks through JMH's benchmark list,
 *       so benchmarks added in {@code dev.shuttle.bench.lock} are picked up when present.</li>
 *   <li>{@code server}: the real-server benchmark, outside JMH (child JVMs and a load generator).</li>
 * </ul>
 */
package dev.shuttle.bench;
