package dev.shuttle.scheduler;

/**
 * How long runnable virtual threads wait for a carrier: the time from a thread being handed to its scheduler (started,
 * unparked or unblocked, yielded, or woken by a timer) to a carrier starting to run it, sampled one hand-off in
 * eight, since the scheduler was built. The same shape on both schedulers, so that a service can be measured on one
 * and then the other:
 * <ul>
 *   <li>{@code dev.shuttle:type=SchedulingDelay,name=<scheduler name>} for each {@link ShuttleScheduler} (the one the
 *       agent installs is {@code default}), registered and unregistered with its {@link ShuttleSchedulerMXBean};</li>
 *   <li>{@code dev.shuttle:type=SchedulingDelay,name=jdk-default} for the JDK's own scheduler, when the agent runs
 *       with {@code -Dshuttle.measure=true} and no {@code jdk.virtualThreadScheduler.implClass}.</li>
 * </ul>
 * Percentiles are the upper bound of the bucket the percentile falls in (buckets are at most 12.5 % wide), capped at
 * the maximum; 0 before the first sample. The bucket counts are cumulative, so a monitoring system can difference two
 * readings to get any window. docs/operations.md, "Scheduling delay", explains the measurement and its cost.
 */
public interface SchedulingDelayMXBean {

    /**
     * The scheduler's name: a Shuttle scheduler's, or {@code jdk-default}.
     *
     * @return the scheduler's name
     */
    String getName();

    /**
     * Sampled waits recorded.
     *
     * @return the number of sampled waits recorded
     */
    long getSchedulingDelaySamples();

    /**
     * The median sampled wait, in nanoseconds.
     *
     * @return the median sampled wait, in nanoseconds; 0 before the first sample
     */
    long getSchedulingDelayP50Nanos();

    /**
     * The 90th percentile of the sampled waits, in nanoseconds.
     *
     * @return the 90th percentile of the sampled waits, in nanoseconds; 0 before the first sample
     */
    long getSchedulingDelayP90Nanos();

    /**
     * The 99th percentile of the sampled waits, in nanoseconds.
     *
     * @return the 99th percentile of the sampled waits, in nanoseconds; 0 before the first sample
     */
    long getSchedulingDelayP99Nanos();

    /**
     * The 99.9th percentile of the sampled waits, in nanoseconds.
     *
     * @return the 99.9th percentile of the sampled waits, in nanoseconds; 0 before the first sample
     */
    long getSchedulingDelayP999Nanos();

    /**
     * The longest sampled wait.
     *
     * @return the longest sampled wait, in nanoseconds; 0 before the first sample
     */
    long getSchedulingDelayMaxNanos();

    /**
     * The lower bound of each bucket, in nanoseconds, ascending; the last bucket has no upper bound (waits of about
     * nine minutes or more).
     *
     * @return the lower bound of each bucket, in nanoseconds, ascending
     */
    long[] getSchedulingDelayBucketBoundsNanos();

    /**
     * Sampled waits per bucket of {@link #getSchedulingDelayBucketBoundsNanos()}, all kinds together.
     *
     * @return sampled waits per bucket of {@link #getSchedulingDelayBucketBoundsNanos}, all kinds together
     */
    long[] getSchedulingDelayBucketCounts();

    /**
     * The hand-off kinds the operations below accept: {@code start}, {@code wake}, {@code yield}, {@code timer}.
     *
     * @return the hand-off kinds the operations below accept
     */
    String[] getSchedulingDelayKinds();

    /**
     * Sampled waits per bucket of one kind of hand-off. On the JDK's scheduler a timer's wake-up is counted as
     * {@code wake}.
     *
     * @return the counts, one per bucket
     * @param kind one of {@link #getSchedulingDelayKinds()}
     * @throws IllegalArgumentException naming {@code kind} if it is none of them
     */
    long[] schedulingDelayBucketCountsOf(String kind);

    /**
     * A percentile of one kind of hand-off, or of all ({@code all}), in nanoseconds.
     *
     * @return the percentile, in nanoseconds; 0 before the first sample
     * @param kind       one of {@link #getSchedulingDelayKinds()}, or {@code all}
     * @param percentile above 0, at most 100
     * @throws IllegalArgumentException naming the kind or the percentile if it is not one of those
     */
    long schedulingDelayPercentileNanos(String kind, double percentile);
}
