package dev.shuttle.stress.timers;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A cancel races the lock holder's add, which rebuilds the heap when cancelled timers pass a quarter of it. The heap
 * holds a live timer, one already cancelled (in the heap) and one cancelled in the inbox, so the add merges and
 * rebuilds whether or not the racing cancel has landed. The rebuild must keep every armed timer, whatever the
 * cancel's CAS and its count do meanwhile, and the count of cancelled timers must come back to zero once they are all
 * dropped: a count left high would have every later add rebuild the heap again.
 *
 * <p>r1 = which timers fired (1 the live one, 2 the cancelled victim, 4 the added one), r2 = 1 if the heap still
 * reported itself zombie-heavy once emptied.
 *
 * <p>Mutants ({@code ./shuttle mutants TimerCancelVersusCleanUp}; scheduler-stress/mutants/TimerCancelVersusCleanUp):
 * {@code non-atomic-zombie-count}, forbidden "5, 1" in 3 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("cancel() racing an add() that cleans up: no armed timer dropped, no cancelled one fired, the count exact")
@Outcome(id = "5, 0", expect = ACCEPTABLE, desc = "the live and the added timer fired, the cancelled ones were dropped")
@Outcome(id = {"0, 0", "1, 0", "4, 0", "0, 1", "1, 1", "4, 1"}, expect = FORBIDDEN, desc = "an armed timer was lost")
@Outcome(id = {"2, 0", "3, 0", "6, 0", "7, 0", "2, 1", "3, 1", "6, 1", "7, 1"}, expect = FORBIDDEN,
        desc = "a cancelled timer fired")
@Outcome(id = "5, 1", expect = FORBIDDEN, desc = "the count of cancelled timers drifted")
@State
public class TimerCancelVersusCleanUp {

    private final TimerHeap heap = new TimerHeap();
    private int fired;
    private final Timer live = new Timer(() -> fired |= 1, 10);
    private final Timer victim = new Timer(() -> fired |= 2, 20);
    private final Timer added = new Timer(() -> fired |= 4, 30);

    public TimerCancelVersusCleanUp() {
        Timer dead = new Timer(() -> fired |= 8, 40);
        Timer deadInInbox = new Timer(() -> fired |= 8, 50);
        lock();
        heap.add(live);
        heap.add(victim);
        heap.add(dead);
        heap.unlock();
        dead.cancel(false);
        heap.arm(deadInInbox);
        deadInInbox.cancel(false);
    }

    @Actor
    public void cancel() {
        victim.cancel(false);
    }

    @Actor
    public void add() {
        lock();
        try {
            heap.add(added);
        } finally {
            heap.unlock();
        }
    }

    @Arbiter
    public void check(II_Result r) {
        lock();
        try {
            heap.fireExpired(Long.MAX_VALUE - 1, 10, e -> { throw new AssertionError(e); });
            heap.drainInbox();
            r.r1 = fired;
            r.r2 = heap.isZombieHeavy() ? 1 : 0;
        } finally {
            heap.unlock();
        }
    }

    /** Only one of the constructor, the adding actor and the arbiter holds the lock at a time; a failed try is a bug. */
    private void lock() {
        if (!heap.tryLock()) {
            throw new IllegalStateException("the heap's lock is held by nobody else in this test");
        }
    }
}
