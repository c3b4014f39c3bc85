/**
 * Timer benchmarks, ported from Go's {@code time} package (seeds 002 and 004). They use only public JDK timed-park
 * APIs ({@code Thread.sleep}, {@code LockSupport.parkNanos}), so they measure whatever timer path the scheduler
 * has: today the JDK's, later Shuttle's per-carrier heaps.
 *
 * <ul>
 *   <li>{@link dev.shuttle.bench.timer.ParallelTimerLatency} and
 *       {@link dev.shuttle.bench.timer.StaggeredTickerLatency}: lateness under busy and staggered CPU load. Go arms
 *       timers from the busy goroutine; here the busy driver thread starts the timer threads, which arm their own
 *       timed park, so the timers depend on the scheduler running a thread started by a busy carrier.</li>
 *   <li>{@link dev.shuttle.bench.timer.Tickers}: 10 to 10,000 threads sleeping 1 ms in a loop: wake-ups per second,
 *       CPU per wake-up and lateness. Its sleepers ({@link dev.shuttle.bench.timer.TickerSleepers}) also run outside
 *       JMH in {@code server.PollerTickersBench}, in a JVM whose network pollers exist, which a JMH fork never has.</li>
 *   <li>{@link dev.shuttle.bench.timer.TimerStop}, {@link dev.shuttle.bench.timer.TimerReset},
 *       {@link dev.shuttle.bench.timer.TimerStartStop}: the timer arm and cancel a virtual thread's timed park performs,
 *       called from a virtual thread on its own scheduler's pool
 *       ({@link dev.shuttle.bench.timer.TimerBenchmark}); {@link dev.shuttle.bench.timer.Sleep}: Go's Sleep1000.</li>
 * </ul>
 */
package dev.shuttle.bench.timer;
