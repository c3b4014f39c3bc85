package dev.shuttle.scheduler;

/**
 * How long a carrier that ran out of work keeps searching before it parks (seed 000: spin briefly, then park; never
 * spin unbounded): the budget of a {@link SearchBackoff}. A round is one pass over the global queue and every busy
 * carrier's run queue; between two rounds the carrier spins a burst of {@link Thread#onSpinWait()}.
 *
 * <p>No round yields. A {@code Thread.yield()} that finds another runnable thread on its core gives the core away and
 * is an involuntary context switch like a preemption; the threads that take the core are most often the platform
 * threads that feed the carriers (the JDK's poller, a server's dispatcher), which then find the carrier they were
 * about to wake still on its way back, and the carrier loses the core again mid-task. Spinning holds the core only for
 * the burst, and a carrier that is being preempted stops spinning ({@link SearchBackoff#contended}).
 *
 * @param spinRounds rounds after the first, each after a burst of {@code spinsPerRound} onSpinWait calls
 * @param spinsPerRound onSpinWait calls between two rounds
 */
record SpinPolicy(int spinRounds, int spinsPerRound) {
    static final SpinPolicy DEFAULT = new SpinPolicy(4, 64);

    SpinPolicy {
        if (spinRounds < 0 || spinsPerRound < 0) {
            throw new IllegalArgumentException("spin policy values must be >= 0: " + spinRounds + ", "
                    + spinsPerRound);
        }
    }
}
