package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The idle bitmap's hand-off: a parked carrier waking on its own clears its bit while a waker picks an idle carrier
 * to wake. Whoever clears the bit owns the wake-up. Results: carrier cleared its bit, waker got it, idle count after.
 *
 * <p>Mutants ({@code ./shuttle mutants IdleBitHandOffStress}; scheduler-stress/mutants/IdleBitHandOffStress): {@code
 * non-atomic-clear}, forbidden "1, 1, -1" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the carrier woke itself; the waker found nobody idle")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the waker took the carrier; it runs as a searcher")
@Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "both own the wake-up: the searching count is raised twice")
@Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "nobody owns it: a lost wake-up")
@Outcome(expect = FORBIDDEN, desc = "the idle count disagrees with the bitmap")
@State
public class IdleBitHandOffStress {
    private final IdleSet idle = new IdleSet(2);

    public IdleBitHandOffStress() {
        idle.add(1);
    }

    @Actor
    public void carrierWakesItself(III_Result r) {
        r.r1 = idle.tryRemove(1) ? 1 : 0;
    }

    @Actor
    public void wakerPicksAnIdleCarrier(III_Result r) {
        r.r2 = idle.pollAny(0, 2) == 1 ? 1 : 0;
    }

    @Arbiter
    public void after(III_Result r) {
        r.r3 = idle.count() + (idle.contains(1) ? 10 : 0);
    }
}
