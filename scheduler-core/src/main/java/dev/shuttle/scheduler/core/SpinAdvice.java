package dev.shuttle.scheduler.core;

/**
 * Whether the spins a carrier has advised lately paid, so that it stops betting on a searcher when they do not
 * (HotSpot's adaptive spinning for monitors asks the same of its own spins). Owned by one {@link Carrier}: only its
 * thread calls it, from the JDK's question about queued work and after each task, so it needs no atomics.
 *
 * <p>The bet. A waiter whose partner sits in this carrier's {@code runNext} is told to spin while a searcher is up:
 * the searcher takes the partner, the two hand over between two spinning carriers, and on a quiet machine that beats
 * switching both on one carrier. It fails when the cores are shared with other runnable threads: the partner's
 * carrier loses its core, the waiter spins its whole budget (1,024 pauses in {@code Exchanger}) and parks anyway, and
 * the next hand-off splits the pair again (docs/design.md, "Spinning and parking"). What tells the two apart is the
 * advice's outcome: a thread told to spin that asks again was met within its spin; one that unmounts before asking
 * again spun for nothing and parked. {@link #answered} and {@link #unmounted} see exactly those two events.
 *
 * <p>The rule. Each wasted spin adds {@link #WASTE_WEIGHT}, each spin that paid takes one away, so the score grows
 * only while more than about one advised spin in {@code WASTE_WEIGHT + 1} is wasted. Past {@link #WASTE_LIMIT} the
 * carrier stops betting for the next {@link #SUPPRESSED_BETS} questions that would have been bets: their waiters park
 * and the pair stays on this carrier, as on the JDK's pool; then it tries again. A quiet machine's occasional wasted
 * spin (a GC, an OS tick) stays under the limit; a shared machine's, where a large share of spins run out, reaches it
 * within a few dozen hand-offs. The advice where nothing is queued at all is the JDK's own and never changes; its
 * outcomes count all the same, since they say whether spinning pays on this machine now.
 */
final class SpinAdvice {
    /** What one wasted spin adds to the score; a spin that paid takes one away. */
    static final int WASTE_WEIGHT = 8;
    /** The score past which the carrier stops betting. */
    static final int WASTE_LIMIT = 64;
    /** Bets skipped once the limit is passed, before the carrier tries again. */
    static final int SUPPRESSED_BETS = 4096;

    private boolean advisedSpin;
    private int score;
    private int suppressed;

    /** Asked when a waiter's partner is in {@code runNext} and a searcher is up: may the waiter spin for it? */
    boolean mayBet() {
        if (suppressed > 0) {
            suppressed--;
            return false;
        }
        return true;
    }

    /** The carrier answered the JDK's question; {@code spin}: it told the waiter to spin. */
    void answered(boolean spin) {
        if (advisedSpin && score > 0) {
            score--;                       // the last advised spin was met: its thread asks again
        }
        advisedSpin = spin;
    }

    /** The carrier's task unmounted; if it was last told to spin, that spin ran out and it parked. */
    void unmounted() {
        if (advisedSpin) {
            advisedSpin = false;
            score += WASTE_WEIGHT;
            if (score > WASTE_LIMIT) {
                score = 0;
                suppressed = SUPPRESSED_BETS;
            }
        }
    }
}
