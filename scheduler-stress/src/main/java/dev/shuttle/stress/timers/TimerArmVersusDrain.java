package dev.shuttle.stress.timers;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * One thread arms while the lock holder drains. Whichever side of the drain's swap the push
 * lands on, afterwards the timer must be advertised by earliestDeadline() (from the heap's
 * published top or the inbox's bound) and reachable by the next drain. Resetting the inbox
 * bound after the swap instead of before, or lowering it before the push, loses it here.
 *
 * <p>r1 = the drainer found the timer at the top of its heap, r2 = earliestDeadline() named it
 * after both actors, r3 = a second drain found it.
 *
 * <p>Mutants ({@code ./shuttle mutants TimerArmVersusDrain}; scheduler-stress/mutants/TimerArmVersusDrain): {@code
 * reset-bound-after-take}, forbidden "0, 0, 1" in 3 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("arm() racing drainInbox(): the timer ends up in the heap or stays advertised in the inbox, never lost.")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the drain took the timer into the heap")
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the push missed the drain; the inbox still advertised it")
@Outcome(id = {"0, 0, 0", "0, 0, 1", "1, 0, 0", "1, 0, 1"}, expect = FORBIDDEN, desc = "armed but not advertised by earliestDeadline()")
@Outcome(id = {"0, 1, 0", "1, 1, 0"}, expect = FORBIDDEN, desc = "advertised but gone from heap and inbox")
@State
public class TimerArmVersusDrain {

    private static final long DEADLINE = 42;

    private final TimerHeap heap = new TimerHeap();
    private final Timer timer = new Timer(() -> { }, DEADLINE);

    @Actor
    public void arm() {
        heap.arm(timer);
    }

    @Actor
    public void drain(III_Result r) {
        r.r1 = drainAndFind() ? 1 : 0;
    }

    @Arbiter
    public void check(III_Result r) {
        r.r2 = heap.earliestDeadline() == DEADLINE ? 1 : 0;
        r.r3 = drainAndFind() ? 1 : 0;
    }

    private boolean drainAndFind() {
        if (!heap.tryLock()) {
            throw new IllegalStateException("only the drainer locks this heap");
        }
        try {
            heap.drainInbox();
            return heap.peek() == timer;
        } finally {
            heap.unlock();
        }
    }
}
