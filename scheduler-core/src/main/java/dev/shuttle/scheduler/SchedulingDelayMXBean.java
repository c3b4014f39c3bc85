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

    /** The scheduler's name: a Shuttle scheduler's, or {@code jdk-default}. */
    String getName();

    /** Sampled waits recorded. */
    long getSchedulingDelaySamples();

    long getSchedulingDelayP50Nanos();

    long getSchedulingDelayP90Nanos();

    long getSchedulingDelayP99Nanos();

    long getSchedulingDelayP999Nanos();

    /** The longest sampled wait. */
    long getSchedulingDelayMaxNanos();

    /**
     * The lower bound of each bucket, in nanoseconds, ascending; the last bucket has no upper bound (waits of about
     * nine minutes or more).
     */
    long[] getSchedulingDelayBucketBoundsNanos();

    /** Sampled waits per bucket of {@link #getSchedulingDelayBucketBoundsNanos()}, all kinds together. */
    long[] getSchedulingDelayBucketCounts();

    /** The hand-off kinds the operations below accept: {@code start}, {@code wake}, {@code yield}, {@code timer}. */
    String[] getSchedulingDelayKinds();

    /**
     * Sampled waits per bucket of one kind of hand-off. On the JDK's scheduler a timer's wake-up is counted as
     * {@code wake}.
     *
     * @param kind one of {@link #getSchedulingDelayKinds()}
     * @throws IllegalArgumentException naming {@code kind} if it is none of them
     */
    long[] schedulingDelayBucketCountsOf(String kind);

    /**
     * A percentile of one kind of hand-off, or of all ({@code all}), in nanoseconds.
     *
     * @param kind       one of {@link #getSchedulingDelayKinds()}, or {@code all}
     * @param percentile above 0, at most 100
     * @throws IllegalArgumentException naming the kind or the percentile if it is not one of those
     */
    long schedulingDelayPercentileNanos(String kind, double percentile);
}
