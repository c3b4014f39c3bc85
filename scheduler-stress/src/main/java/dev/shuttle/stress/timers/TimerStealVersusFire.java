package dev.shuttle.stress.timers;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The owner and a thief both try to fire the same heap, as a carrier and an idle carrier
 * stealing its expired timers do. A thread that fails tryLock does nothing, so whether the
 * due timer fired at all can only be judged once both are done: the arbiter counts the runs
 * and then fires the heap itself, which must find nothing left. Were a timer skipped by both
 * (say, a lock that both fail), the arbiter's own firing would show it as "fired late".
 *
 * <p>r1 = times the action ran after both actors, r2 = timers the arbiter still found due,
 * r3 = actors that failed tryLock.
 *
 * <p>No mutant is recorded: a heap lock taken without its CAS lets owner and thief fire the heap at once, but the
 * timer's own state CAS still runs the action once, so no outcome here shows it ({@code -m quick -sc false}).
 */
@JCStressTest
@Description("Two threads tryLock + fireExpired one heap holding a due timer: it fires exactly once, before both are done.")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "both took the lock in turn; the second found nothing due")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE_INTERESTING, desc = "one failed tryLock while the other held it and fired")
@Outcome(id = {"2, 0, 0", "2, 0, 1", "2, 0, 2", "2, 1, 0", "2, 1, 1", "2, 1, 2"}, expect = FORBIDDEN, desc = "the action ran twice")
@Outcome(id = {"0, 0, 0", "0, 0, 1", "0, 0, 2", "0, 1, 0", "0, 1, 1", "0, 1, 2"}, expect = FORBIDDEN, desc = "neither actor fired the due timer")
@Outcome(id = {"1, 0, 2", "1, 1, 0", "1, 1, 1", "1, 1, 2"}, expect = FORBIDDEN, desc = "the timer was left armed for someone else, or both failed tryLock")
@State
public class TimerStealVersusFire {

    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger lockMisses = new AtomicInteger();
    private final TimerHeap heap = new TimerHeap();

    public TimerStealVersusFire() {
        heap.arm(new Timer(runs::incrementAndGet, 0));
    }

    @Actor
    public void owner() {
        fire();
    }

    @Actor
    public void thief() {
        fire();
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = runs.get();
        if (!heap.tryLock()) {
            throw new IllegalStateException("lock still held after both actors");
        }
        try {
            r.r2 = heap.fireExpired(1, Integer.MAX_VALUE, e -> { });
        } finally {
            heap.unlock();
        }
        r.r3 = lockMisses.get();
    }

    private void fire() {
        if (!heap.tryLock()) {
            lockMisses.incrementAndGet();
            return;
        }
        try {
            heap.fireExpired(1, Integer.MAX_VALUE, e -> { });
        } finally {
            heap.unlock();
        }
    }
}
