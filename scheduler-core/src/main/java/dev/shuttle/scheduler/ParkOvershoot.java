package dev.shuttle.scheduler;

/**
 * How much later than asked one carrier's timed parks return: a running estimate of a low quantile, so that the timer
 * watcher can park that much before its deadline and spin the rest, instead of firing every timer that late. Owner
 * only, no synchronization.
 *
 * <p>Why. With the timer slack lowered to 1 ns ({@link TimerSlack}) a carrier's {@code parkNanos} still returns tens
 * of microseconds late on a virtual machine (the hypervisor's timer and the wake-up path), and that overshoot is
 * nearly all of a timer's lateness on ParallelTimerLatency (docs/design.md, "Timers", spinning the last stretch).
 * Spinning near a deadline must be bounded and cheap. Bounded: the lead never exceeds {@link #MAX_LEAD_NANOS}.
 * Cheap: the lead tracks the {@value #QUANTILE_PERCENT}th percentile of the overshoot, so nine parks in ten return at
 * or after the deadline and spin not at all, and the tenth spins for the difference only.
 *
 * <p>How. A stochastic quantile estimate: an overshoot below the lead lowers it by {@code (100 - q)%} of a step, one
 * at or above raises it by {@code q%}, so it settles where a fraction {@code q} of the overshoots fall below it, and
 * follows the machine as its wake-up latency drifts. It starts at 0: a carrier learns its lead from its first few
 * hundred timed parks and never wakes early before it has.
 */
final class ParkOvershoot {
    static final long MAX_LEAD_NANOS = 100_000;
    static final int QUANTILE_PERCENT = 10;
    private static final long STEP_NANOS = 2_000;

    /** Owner: how long before a deadline to park until. */
    private long lead;

    long lead() {
        return lead;
    }

    /** Owner: a timed park returned {@code overshoot} ns after the time it was asked to return at (>= 0). */
    void record(long overshoot) {
        long next = overshoot < lead
                ? lead - STEP_NANOS * (100 - QUANTILE_PERCENT) / 100
                : lead + STEP_NANOS * QUANTILE_PERCENT / 100;
        lead = Math.max(0, Math.min(next, MAX_LEAD_NANOS));
    }
}
