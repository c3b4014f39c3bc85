package dev.shuttle.stress.timers;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.Timer;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZI_Result;

/**
 * r1 = fire() won, r2 = cancel() won, r3 = times the action ran.
 *
 * <p>Mutants ({@code ./shuttle mutants TimerCancelVersusFire}; scheduler-stress/mutants/TimerCancelVersusFire): {@code
 * complete-without-cas}, forbidden "true, true, 1" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("fire() and cancel() race on one pending timer: exactly one wins, and the action runs iff fire won.")
@Outcome(id = "true, false, 1", expect = ACCEPTABLE, desc = "fire won, the action ran once")
@Outcome(id = "false, true, 0", expect = ACCEPTABLE, desc = "cancel won, the action never ran")
@Outcome(id = {"true, true, 0", "true, true, 1"}, expect = FORBIDDEN, desc = "both won")
@Outcome(id = {"false, false, 0", "false, false, 1"}, expect = FORBIDDEN, desc = "neither won")
@Outcome(id = {"true, false, 0", "false, true, 1"}, expect = FORBIDDEN, desc = "the action ran against the winner's word")
@State
public class TimerCancelVersusFire {

    private final AtomicInteger runs = new AtomicInteger();
    private final Timer timer = new Timer(runs::incrementAndGet, 0);

    @Actor
    public void fire(ZZI_Result r) {
        r.r1 = timer.fire();
    }

    @Actor
    public void cancel(ZZI_Result r) {
        r.r2 = timer.cancel(false);
    }

    @Arbiter
    public void count(ZZI_Result r) {
        r.r3 = runs.get();
    }
}
