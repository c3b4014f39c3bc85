/**
 * Hand-offs between virtual threads through {@code java.util.concurrent}, Shuttle beside the JDK's default scheduler
 * (issue 20). The JDK's own waiters decide between spinning and parking by asking about the carrier
 * ({@code ForkJoinWorkerThread.hasKnownQueuedWork}), and a woken thread's place in the run queue decides how long it
 * waits for its waker; the scheduling benchmarks ({@code sched.PingPong}: park/unpark) do not see either. What each
 * benchmark measures and why (docs/design.md, "The JDK's contracts", has what those JDK waiters ask):
 *
 * <ul>
 *   <li>{@link dev.shuttle.bench.juc.ChannelPingPong}: round trip of two threads through two channels of one kind,
 *       {@code SynchronousQueue}, {@code LinkedTransferQueue.transfer}, {@code Exchanger}, {@code ArrayBlockingQueue}
 *       or {@code LinkedBlockingQueue} ({@link dev.shuttle.bench.juc.Channel}): the spin-then-park rendezvous of
 *       the first three and the lock-and-condition queues of the last two, one hand-off at a time.</li>
 *   <li>{@link dev.shuttle.bench.juc.ChannelProducerConsumer}: 1 to 8 independent producer/consumer pairs on the
 *       same kinds: the same waiters with more runnable threads than carriers, where spinning costs a carrier that
 *       queued work could use.</li>
 *   <li>{@link dev.shuttle.bench.juc.LockHandoff}: a contended {@code ReentrantLock} or one-permit
 *       {@code Semaphore}: the releaser wakes a waiter and keeps running.</li>
 *   <li>{@link dev.shuttle.bench.juc.LatchFanIn}: start 8 threads, await a {@code CountDownLatch}: fan-out from a
 *       running thread and the wake-up of the one waiter.</li>
 *   <li>{@link dev.shuttle.bench.juc.FutureChain}: {@code CompletableFuture.thenApplyAsync} stages, one new virtual
 *       thread each.</li>
 *   <li>{@link dev.shuttle.bench.juc.SkynetChannels}: skynet whose results travel through
 *       {@code SynchronousQueue}s, as Go's skynet does through channels.</li>
 * </ul>
 *
 * <p>Conventions shared with {@code dev.shuttle.bench.sched}: a {@code scheduler} parameter ({@code jdk} or
 * {@code shuttle}, one carrier per processor), fresh threads per invocation so nothing leaks between calls, a check
 * that could fail on every result, process CPU per operation ({@code cpu_us_per_op}) and, where an operation has a
 * latency, its percentiles, each thread filling its own histogram that the JMH thread merges after joining it.
 *
 * <p>The forks carry Shuttle's agent ({@code -javaagent:} the benchmarks jar, both sides, so the flags are the same):
 * {@code SmokeRun} and {@code FullRun} add it ({@link dev.shuttle.bench.BenchJvm#agent}); from JMH's command line
 * pass {@code -jvmArgsPrepend -javaagent:scheduler-bench/target/benchmarks.jar}.
 */
package dev.shuttle.bench.juc;
