package dev.shuttle.lock;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The push/release Dekker pair: a waiter pushes its node and then reads the lock bits
 * ({@code pushAndCheck}); the holder stores the freed bits and then reads the stack head. Whichever
 * order they land in, one of them must see the other and wake the node. The waiter runs the real
 * step without parking, so a lost wake-up shows as a node still sleeping instead of a hung actor.
 * In this package for the package-private step.
 *
 * <p>Mutants ({@code ./shuttle mutants PushVersusReleaseStress}; scheduler-stress/mutants/PushVersusReleaseStress):
 * {@code push-without-check}, forbidden "1, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("spin-bit: a push and a release that cross, one of them wakes the node")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "woken with the spin role, lock free")
@Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "woken by the time-bound wake of the oldest sleeper, lock free")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: asleep on a free lock")
@Outcome(id = ".*, 1", expect = Expect.FORBIDDEN, desc = "the lock stayed taken after its release")
@State
public class PushVersusReleaseStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private final WaiterNode node = new WaiterNode(Thread.currentThread(), WaiterNode.SLEEPING);

    public PushVersusReleaseStress() {
        sync.acquire();
    }

    @Actor
    public void holder() {
        sync.release(1);
    }

    @Actor
    public void waiter() {
        sync.pushAndCheck(node);
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = node.status();
        r.r2 = sync.lockBits();
    }
}
