package dev.shuttle.lock;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A sleeper that gives up (timeout or interrupt: a CAS of its status to CANCELLED, leaving the node
 * on the stack) versus a waker that pops it and hands it the spin role. Exactly one of them wins.
 * If the waker wins, the sleeper carries on as the spinner; if the sleeper wins, the waker
 * discards the node and must give the role back: a role handed to a thread that has left is held
 * by nobody, and every later release would skip its wake-up (the defect that sank the previous
 * two-field lock). A second sleeper below shows that the waker then wakes the next live one.
 *
 * <p>Mutants ({@code ./shuttle mutants CancelVersusWakeStress}; scheduler-stress/mutants/CancelVersusWakeStress):
 * {@code popped-node-counts-as-woken}, forbidden "4, 1, 1" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("spin-bit: a sleeper giving up versus the waker that pops it")
@Outcome(id = "2, 1, 1", expect = Expect.ACCEPTABLE, desc = "woken first: the sleeper is the spinner, the other sleeps on")
@Outcome(id = "4, 2, 1", expect = Expect.ACCEPTABLE, desc = "gave up first: the next sleeper woken as the spinner")
@Outcome(id = "4, 1, 0", expect = Expect.FORBIDDEN, desc = "gave up first and nobody woken")
@Outcome(id = "4, 1, 1", expect = Expect.FORBIDDEN, desc = "the spin role leaked to a thread that left")
@Outcome(id = "2, 2, .*", expect = Expect.FORBIDDEN, desc = "two woken as spinner")
@State
public class CancelVersusWakeStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private final WaiterNode below = new WaiterNode(Thread.currentThread(), WaiterNode.SLEEPING);
    private final WaiterNode top = new WaiterNode(Thread.currentThread(), WaiterNode.SLEEPING);

    public CancelVersusWakeStress() {
        sync.push(below);
        sync.push(top);
    }

    @Actor
    public void waker() {
        sync.wakeNewest();
    }

    @Actor
    public void sleeperGivesUp() {
        top.casStatus(WaiterNode.SLEEPING, WaiterNode.CANCELLED);
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = top.status();
        r.r2 = below.status();
        r.r3 = sync.hasSpinner() ? 1 : 0;
    }
}
