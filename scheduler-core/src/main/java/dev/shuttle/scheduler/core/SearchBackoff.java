package dev.shuttle.scheduler.core;

/**
 * How many rounds a searching carrier spins before it parks: a budget of the {@link SpinPolicy}'s rounds that is
 * spent while spinning does not pay and earned back when it does. Agrona's {@code BackoffIdleStrategy} has the stages
 * (spin, then stop) but not the two questions this class answers, whether the last spins found work and whether the
 * carrier's core is wanted by other threads; its park stage does not fit either, since a carrier parks only through
 * the idle-bit protocol, which a waker ends. One per processor, used by its holder only: no synchronization. A pure
 * strategy: it reads nothing of the pool and no clock but the one its pauses spin against; the searching and parking
 * carrier tells it what happened, including whether a wake came sooner than a full search lasts, which the carrier
 * times ({@link WorkSearch#search} times a full search, {@code Idle.awaitWake} the park).
 *
 * <p>Spin only where it pays. Spinning catches work that another virtual thread is about to hand over (PingPong's
 * partner, a producer's next item) without a park, an unpark and a wake-up's latency. It holds a core for nothing
 * when the work will come from outside, after far longer (a request through the JDK's poller and a server's
 * dispatcher, a timer a millisecond away), and on a machine whose cores are all wanted it takes the core from the
 * very thread that would bring the work. HotSpot's adaptive spinning for monitors answers the first case the same
 * way (spin only while spinning recently succeeded); Go spins a searching M only while stealing can still find work;
 * the second case is {@link #contended}.
 *
 * <p>The rules. Spinning pays only for work another carrier hands over: a task stolen from a busy processor's queue
 * or {@code runNext}, pushed there by a virtual thread running on that carrier. A search that steals work after
 * {@code k} pauses sets the budget to {@code k + 1}: what paid and one more, not the full budget, so that a burst of
 * hand-offs (a fan-out's children, stolen one by one) does not end with a full-length search that finds nothing on
 * every idle carrier. A search that finds nothing costs one round of budget. A carrier woken sooner after it began
 * to park than a full-budget search lasts ({@link #wokenToSearch}), whose search then steals its work, would have
 * found that work by spinning: that restores the full budget, so a carrier whose budget ran out learns when spinning
 * would pay again. Work taken from the global queue earns nothing, however soon it came: it was submitted by a
 * thread that is not a carrier (the JDK's poller, a server's dispatcher, the unblocker), which on a machine with few
 * cores needs the very core a spinning carrier holds, so that spinning for it only makes it come later; or it is a
 * virtual thread that yielded, which asked to let others run first. A carrier
 * that was switched out while runnable since it last looked (as it parks, at most once a millisecond) spends no
 * rounds on its next search: its core is wanted by another thread, and a spin would take it from that thread.
 * Whatever the budget, a search beside a busy processor makes one pause and a second pass
 * ({@link WorkSearch#search}), which a stuck processor's runNext needs; with every other processor idle it makes
 * none, since nothing running could hand it work.
 */
final class SearchBackoff {
    /**
     * A clock read costs about as much as an {@code onSpinWait}: reading it after each would spend half the pause on
     * it.
     */
    private static final int SPINS_PER_CLOCK_READ = 8;

    private final SpinPolicy policy;
    /** Pause rounds the next search may spend: 0 to {@code policy.spinRounds()}. */
    private int rounds;
    /**
     * The carrier was woken sooner after it began to park than a full search lasts, and has not yet found work: if
     * the work it finds is stolen, spinning would have caught it.
     */
    private boolean wokenEarly;

    SearchBackoff(SpinPolicy policy) {
        this.policy = policy;
        this.rounds = policy.spinRounds();
    }

    /** Rounds the search now beginning may pause for. */
    int startSearch() {
        return rounds;
    }

    /**
     * Whether the budget is the policy's full one: only a search with the full budget tells how long a wake must come
     * after a park for spinning not to have caught its work, so only such a search is timed ({@link WorkSearch}).
     */
    boolean fullBudget() {
        return rounds == policy.spinRounds();
    }

    /**
     * Pauses between round {@code round} and the next: {@code onSpinWait} for the policy's pause, in bursts of
     * {@link #SPINS_PER_CLOCK_READ} between two clock reads. Returns the clock reading the pause began at, so that the
     * caller can time its search without a clock read of its own.
     */
    long pause(int round) {
        long now = System.nanoTime();
        long end = now + policy.pauseNanos();
        do {
            for (int i = 0; i < SPINS_PER_CLOCK_READ; i++) {
                Thread.onSpinWait();
            }
        } while (System.nanoTime() - end < 0);
        return now;
    }

    /**
     * The search found work in round {@code round} (0 = before any pause); {@code stolen} when it came from another
     * processor's queue, not from the global queue.
     */
    void found(int round, boolean stolen) {
        if (!stolen) {
            return;
        }
        if (wokenEarly) {
            rounds = policy.spinRounds();
        } else if (round > 0) {
            rounds = Math.min(policy.spinRounds(), round + 1);
        }
    }

    /** The search found nothing. */
    void wasted() {
        if (rounds > 0) {
            rounds--;
        }
    }

    /** The carrier was switched out while runnable since it last parked: its core is wanted by other threads. */
    void contended() {
        rounds = 0;
    }

    /**
     * The carrier is about to park. Returns whether the wake that ends this park can teach anything: only below the
     * full budget, where a wake sooner than a full search would restore it; so only then need the carrier time it.
     */
    boolean parking() {
        wokenEarly = false;
        return rounds < policy.spinRounds();
    }

    /**
     * The carrier was woken from its park to search: a waker handed it work. {@code soonerThanAFullSearch} when the
     * carrier timed the park ({@link #parking}) and the wake came sooner after it began to park than the last
     * unsuccessful full-budget search lasted. Whether that teaches anything is known only once the carrier finds the
     * work ({@link #found}).
     */
    void wokenToSearch(boolean soonerThanAFullSearch) {
        wokenEarly = soonerThanAFullSearch;
    }

    /**
     * The carrier stopped searching with work in hand, wherever it found it: a later find says nothing of this
     * wake.
     */
    void stoppedSearching() {
        wokenEarly = false;
    }
}
