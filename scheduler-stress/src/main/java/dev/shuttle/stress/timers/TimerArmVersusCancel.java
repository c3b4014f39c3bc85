package dev.shuttle.stress.timers;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
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
import org.openjdk.jcstress.infra.results.ZII_Result;

/**
 * A cancel races the arm of a due timer from another thread: cancel wins whether it lands before the arm (the arm
 * then ignores the timer), while the arm holds {@code ARMING} (the arm's ARMING to ARMED CAS fails, and it enqueues
 * nothing and counts no zombie) or after it (a zombie counted, dropped by the next firing). The cancelled timer never
 * fires, and the heap's count of cancelled timers returns to zero.
 *
 * <p>r1 = cancel won, r2 = times the action ran after the heap was fired, r3 = 1 if the heap, emptied, still counts
 * a cancelled timer.
 *
 * <p>Mutants ({@code ./shuttle mutants TimerArmVersusCancel}; scheduler-stress/mutants/TimerArmVersusCancel): {@code
 * armed-without-cas}, forbidden "true, 1, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("arm() racing cancel() of a due timer: the cancel wins, the timer never fires, no zombie is left counted")
@Outcome(id = "true, 0, 0", expect = ACCEPTABLE, desc = "cancelled before, during or after the arm")
@Outcome(id = ".*, 1, .*", expect = FORBIDDEN, desc = "a cancelled timer fired")
@Outcome(id = "false, .*", expect = FORBIDDEN, desc = "cancel lost to a timer that never fired")
@Outcome(id = "true, 0, 1", expect = FORBIDDEN, desc = "the count of cancelled timers drifted")
@State
public class TimerArmVersusCancel {
    private final AtomicInteger runs = new AtomicInteger();
    private final Timer timer = new Timer(runs::incrementAndGet, 0);
    private final TimerHeap heap = new TimerHeap();

    @Actor
    public void arm() {
        heap.arm(timer);
    }

    @Actor
    public void cancel(ZII_Result r) {
        r.r1 = timer.cancel(false);
    }

    @Arbiter
    public void fire(ZII_Result r) {
        if (!heap.tryLock()) {
            throw new IllegalStateException("only the arbiter locks the heap");
        }
        try {
            heap.fireExpired(1, Integer.MAX_VALUE, e -> { throw new AssertionError(e); });
            heap.drainInbox();
            r.r2 = runs.get();
            r.r3 = heap.isZombieHeavy() ? 1 : 0;
        } finally {
            heap.unlock();
        }
    }
}
