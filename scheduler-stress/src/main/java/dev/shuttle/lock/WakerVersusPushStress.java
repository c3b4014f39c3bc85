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
 * A waker that finds no live sleeper versus a waiter pushing on a free lock. The waker takes the
 * spin role to pop, finds only a cancelled node, and gives the role back; meanwhile the waiter
 * pushes, sees the lock free and makes the wake decision itself, which it skips if it sees the
 * waker's role. So the waker, after giving the role back, must look again ({@code wakeNewest}).
 * The waiter's node must end up woken and the role must not be left behind.
 *
 * <p>Mutants ({@code ./shuttle mutants WakerVersusPushStress}; scheduler-stress/mutants/WakerVersusPushStress):
 * {@code no-second-look}, forbidden "1, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("spin-bit: a waker giving back the spin role and a waiter that skipped its wake because of it")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "the waiter's node woken and handed the spin role")
@Outcome(id = "1, .*", expect = Expect.FORBIDDEN, desc = "lost wake-up: asleep on a free lock")
@Outcome(id = "2, 0", expect = Expect.FORBIDDEN, desc = "woken as spinner, but the role is not held")
@State
public class WakerVersusPushStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private final WaiterNode node = new WaiterNode(Thread.currentThread(), WaiterNode.SLEEPING);

    public WakerVersusPushStress() {
        WaiterNode gaveUp = new WaiterNode(Thread.currentThread(), WaiterNode.SLEEPING);
        sync.push(gaveUp);
        if (!gaveUp.casStatus(WaiterNode.SLEEPING, WaiterNode.CANCELLED)) {
            throw new IllegalStateException();
        }
    }

    @Actor
    public void waker() {
        sync.wakeNewest();
    }

    @Actor
    public void waiter() {
        sync.pushAndCheck(node);
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = node.status();
        r.r2 = sync.hasSpinner() ? 1 : 0;
    }
}
