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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Two threads arm the same timer, each in its own heap (a misuse the scheduler never makes, but the one
 * {@code Timer.bind}'s {@code ARMING} state is there to refuse): exactly one arm wins, the other is refused with an
 * {@link IllegalStateException}, and the timer fires once, from the winner's heap.
 *
 * <p>r1 = the first arm succeeded, r2 = the second did, r3 = times the action ran once both heaps were fired.
 *
 * <p>Mutants ({@code ./shuttle mutants TimerArmVersusArm}; scheduler-stress/mutants/TimerArmVersusArm): {@code
 * bind-without-cas}, forbidden "1, 1, 1" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("arm() racing arm() of one timer on two heaps: one winner, one refusal, one firing.")
@Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE, desc = "one arm won, the other was refused")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both arms won: the timer is in two heaps")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "both arms were refused")
@Outcome(expect = FORBIDDEN, desc = "the winner's timer was lost or fired twice")
@State
public class TimerArmVersusArm {
    private final AtomicInteger runs = new AtomicInteger();
    private final Timer timer = new Timer(runs::incrementAndGet, 0);
    private final TimerHeap first = new TimerHeap();
    private final TimerHeap second = new TimerHeap();

    @Actor
    public void armFirst(III_Result r) {
        r.r1 = arm(first);
    }

    @Actor
    public void armSecond(III_Result r) {
        r.r2 = arm(second);
    }

    @Arbiter
    public void fireBoth(III_Result r) {
        fire(first);
        fire(second);
        r.r3 = runs.get();
    }

    private int arm(TimerHeap heap) {
        try {
            heap.arm(timer);
            return 1;
        } catch (IllegalStateException refused) {
            return 0;
        }
    }

    private static void fire(TimerHeap heap) {
        if (!heap.tryLock()) {
            throw new IllegalStateException("only the arbiter locks the heaps");
        }
        try {
            heap.fireExpired(1, Integer.MAX_VALUE, e -> { throw new AssertionError(e); });
        } finally {
            heap.unlock();
        }
    }
}
