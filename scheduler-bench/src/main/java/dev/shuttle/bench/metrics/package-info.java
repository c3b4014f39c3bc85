/**
 * How the suite measures beyond JMH's time per operation, reported as JMH secondary results (in the JSON output
 * under {@code secondaryMetrics}).
 *
 * <ul>
 *   <li>Latency: {@link dev.shuttle.bench.metrics.LatencyStats} records nanoseconds into an HdrHistogram and reports
 *       p50, p99, p99.9, max and mean in microseconds. Timer lateness is always the actual wake time minus the
 *       intended deadline, both from {@link java.lang.System#nanoTime()}, clamped at 0 like Go's.</li>
 *   <li>CPU: {@link dev.shuttle.bench.metrics.CpuStats} divides process CPU time
 *       ({@link dev.shuttle.bench.metrics.ProcessCpu}: {@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)} at nanosecond
 *       precision, all threads, the seeds' task-clock) by operations. It is the one CPU clock of the suite: every
 *       benchmark and launcher reads it, and it fails loudly rather than fall back to a tick-counting clock.</li>
 *   <li>Outside JMH, by thread: {@link dev.shuttle.bench.metrics.ThreadSwitches} (context switches) and
 *       {@link dev.shuttle.bench.metrics.ThreadCpu} (CPU time, from {@code schedstat}) summed by the role a thread
 *       plays for virtual threads, so that the carriers' share stands apart from the JIT's and the collector's;
 *       {@link dev.shuttle.bench.metrics.ProcessSwitches} per thread of another process.</li>
 *   <li>Both are {@code @AuxCounters(EVENTS)}, which JMH sums over measurement iterations; so they accumulate over
 *       all measurement iterations and publish in the last one only ({@code MeasurementPhase}).</li>
 *   <li>{@link dev.shuttle.bench.metrics.Signal} is an allocation-free park/unpark hand-off and
 *       {@link dev.shuttle.bench.metrics.Spin} Go's {@code doWork} busy loop.</li>
 * </ul>
 */
package dev.shuttle.bench.metrics;
