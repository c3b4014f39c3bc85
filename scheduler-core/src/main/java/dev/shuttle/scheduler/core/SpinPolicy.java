package dev.shuttle.scheduler.core;

/**
 * How long a carrier that ran out of work keeps searching before it parks (seed 000: spin briefly, then park; never
 * spin unbounded): the budget of a {@link SearchBackoff}. A round is one pass over the global queue and every busy
 * carrier's run queue; between two rounds the carrier spins on {@link Thread#onSpinWait()} for {@code pauseNanos}.
 *
 * <p>The pause is a time, not a count of {@code onSpinWait} calls, because what it must cover is a time: the gap
 * between a virtual thread blocking and another one, running on a busy carrier, handing it work (a ping-pong
 * partner's reply, a producer's next item) plus the steal. One {@code onSpinWait} is a {@code PAUSE} instruction
 * whose latency differs about tenfold between x86 generations (about 10 cycles before Skylake, about 140 after), so
 * a fixed count spins for a different time on every machine; a count that covered the gap on one parked just before
 * the work arrived on another, and the thread it would have caught waited for a park, an unpark and a wake-up.
 *
 * <p>No round yields. A {@code Thread.yield()} that finds another runnable thread on its core gives the core away and
 * is an involuntary context switch like a preemption; the threads that take the core are most often the platform
 * threads that feed the carriers (the JDK's poller, a server's dispatcher), which then find the carrier they were
 * about to wake still on its way back, and the carrier loses the core again mid-task. Spinning holds the core only for
 * the pause, and a carrier that is being preempted stops spinning ({@link SearchBackoff#contended}).
 *
 * @param spinRounds rounds after the first, each after a pause
 * @param pauseNanos how long one pause spins
 */
public record SpinPolicy(int spinRounds, long pauseNanos) {
    public static final SpinPolicy DEFAULT = new SpinPolicy(4, 4_000L);

    public SpinPolicy {
        if (spinRounds < 0 || pauseNanos < 0) {
            throw new IllegalArgumentException("spin policy values must be >= 0: " + spinRounds + ", "
                    + pauseNanos);
        }
    }
}
