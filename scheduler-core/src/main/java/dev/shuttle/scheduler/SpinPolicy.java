package dev.shuttle.scheduler;

/**
 * How long a carrier that ran out of work keeps searching before it parks (seed 000: spin briefly, then yield,
 * then park; never spin unbounded): the stages of a {@link SearchBackoff}. A round is one pass over the global queue
 * and every busy carrier's run queue.
 *
 * @param spinRounds rounds separated by {@link Thread#onSpinWait()} bursts: cheapest reaction to new work
 * @param spinsPerRound onSpinWait calls between two spinning rounds
 * @param yieldRounds further rounds separated by {@link Thread#yield()}: lets another OS thread (a submitter
 *                    on an oversubscribed machine) run before we give up the core for good
 */
record SpinPolicy(int spinRounds, int spinsPerRound, int yieldRounds) {
    static final SpinPolicy DEFAULT = new SpinPolicy(4, 64, 2);

    SpinPolicy {
        if (spinRounds < 0 || spinsPerRound < 0 || yieldRounds < 0) {
            throw new IllegalArgumentException("spin policy values must be >= 0: " + spinRounds + ", "
                    + spinsPerRound + ", " + yieldRounds);
        }
    }

    int rounds() {
        return spinRounds + yieldRounds;
    }

    /** Whether the pause after round {@code round} is a {@link Thread#yield()}. */
    boolean yieldsAfter(int round) {
        return round >= spinRounds;
    }
}
