package dev.shuttle.scheduler;

/**
 * How a searching carrier idles between its rounds before it parks, in the spirit of Agrona's
 * {@code BackoffIdleStrategy}: spin, then yield, then stop pausing (the carrier parks), the stages set by a
 * {@link SpinPolicy}, with two departures that Agrona's class has no place for. A round's spin is a burst of
 * {@code onSpinWait}, not one, since each round is a pass over every busy processor; and the number of rounds adapts,
 * the policy's rounds while spinning pays off and fewer while it does not. Agrona's park stage (timed parks that back
 * off) does not fit either: a carrier parks only through the idle-bit protocol, which a waker ends, and sleeps toward
 * a deadline only as the timer watch ({@code Carrier.awaitWake}, {@link TimerWatch#sleep}). One per processor, used by
 * its holder only: no synchronization.
 *
 * <p>Why spin where it would yield near a timer. {@code Thread.yield} can hand the core to another runnable thread
 * for a whole time slice, several milliseconds on Linux, and a searching carrier is neither idle nor between tasks:
 * nobody would fire a timer that falls due meanwhile. So a pause that would yield spins instead while a timer falls
 * due within {@link #YIELD_HORIZON_NANOS}.
 *
 * <p>Why adapt. A search that pauses between rounds is worth its CPU when work arrives within the pauses: a
 * producer/consumer pair handing off every few microseconds (PingPong) finds its partner's next task before
 * parking, which saves a park, an unpark and the wake-up latency. When work arrives only after far longer, as with
 * threads that sleep a millisecond, every search burns its full budget for nothing, once per carrier per wake-up:
 * with 10 threads sleeping 1 ms, the search loop was 11% of the carriers' CPU samples. HotSpot's adaptive spinning
 * for monitors faces the same choice and answers it the same way: spin only while spinning recently succeeded.
 * Measured (2 carriers, JMH, interleaved forks, 2026-11-21): Tickers with 10 threads 11.5 instead of 12.6 µs CPU
 * per wake-up (medians of 5), Wakeup with 20 µs between wake-ups 138 instead of 150-154 µs CPU per operation,
 * PingPong unchanged (565-588 against 554-591 ns).
 *
 * <p>The rules. A search that finds work after at least one pause earns the full budget back. A search that finds
 * nothing costs one round of budget, yield rounds going first (they end the budget). A carrier woken with work
 * sooner after it began to park than a full-budget search lasts would have found that work by spinning: that
 * restores the full budget too, so a carrier whose budget ran out learns when spinning would pay again.
 */
final class SearchBackoff {
    /** A pause spins instead of yielding when a timer falls due sooner than this. */
    static final long YIELD_HORIZON_NANOS = 10_000_000L;

    private final SpinPolicy policy;
    /** Pause rounds the next search may spend: 0 to {@code policy.rounds()}. */
    private int rounds;
    /**
     * When the current full-budget search first paused, or 0: only full-budget searches that pause are timed, so a
     * search that finds work at once (the common case under load) reads no clock.
     */
    private long searchStart;
    /** How long the last unsuccessful full-budget search took; 0 until one was measured. */
    private long fullSearchNanos;
    /** When the carrier began to park with less than the full budget, or 0 when there is nothing to learn. */
    private long parkedAt;

    SearchBackoff(SpinPolicy policy) {
        this.policy = policy;
        this.rounds = policy.rounds();
    }

    /** Rounds the search now beginning may pause for. */
    int startSearch() {
        searchStart = 0L;
        return rounds;
    }

    /**
     * Pauses between round {@code round} and the next: a burst of {@code onSpinWait} in the policy's spin rounds, a
     * {@link Thread#yield()} after them, or a burst in its place while a timer falls due within
     * {@link #YIELD_HORIZON_NANOS} (the heaps looked at only for a pause that would yield).
     */
    void pause(int round, TimerDeadlines deadlines) {
        boolean yields = policy.yieldsAfter(round) && !deadlines.dueWithin(YIELD_HORIZON_NANOS);
        if (round == 0 && rounds == policy.rounds()) {
            searchStart = System.nanoTime();
        }
        if (yields) {
            Thread.yield();
        } else {
            for (int i = 0; i < policy.spinsPerRound(); i++) {
                Thread.onSpinWait();
            }
        }
    }

    /** The search found work in round {@code round} (0 = before any pause). */
    void found(int round) {
        if (round > 0) {
            rounds = policy.rounds();
        }
    }

    /** The search found nothing. */
    void wasted() {
        if (searchStart != 0L) {
            fullSearchNanos = System.nanoTime() - searchStart;
        }
        if (rounds > 0) {
            rounds--;
        }
    }

    /** The carrier is about to park. */
    void parking() {
        parkedAt = rounds < policy.rounds() && fullSearchNanos > 0L ? System.nanoTime() : 0L;
    }

    /** The carrier was woken from its park to search: a waker handed it work. */
    void wokenToSearch() {
        if (parkedAt != 0L && System.nanoTime() - parkedAt < fullSearchNanos) {
            rounds = policy.rounds();
        }
    }
}
