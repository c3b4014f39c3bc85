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
 * The time-bound wake ({@code wakeOldest}, reached through a real contended release) versus a waiter pushing its node
 * and a sleeper above the oldest giving up. The release walks the stack from the head it read, moves the deepest
 * SLEEPING node to WOKEN, and cuts off what lies below the next SLEEPING node up, all dead; it never writes the head,
 * which only pushes (CAS) and poppers holding the spin role change. So a node pushed during the walk stays reachable
 * above everything the walk cuts, and a sleeper that gives up only turns a live node into a dead one. The lock is held
 * and a spinner exists when the release starts (the contended case the time bound is for), so the release's only
 * wake is the time-bound one, and the pusher, seeing the role held, skips its own decision and sleeps on: a node of
 * its lost from the stack would never be woken by a release again.
 *
 * <p>Stack before: the sleeper that gives up, then the oldest sleeper. jcstress runs no more actors than there are
 * CPUs (2 here), so one actor releases and the other plays two parties in program order: the sleeper above the oldest
 * giving up (before, during or after the walk), then the waiter pushing. Results: SLEEPING nodes (the pushed one, or
 * the sleeper above before it gave up) no longer reachable from the head (live nodes less the stack's
 * sleeper count), and whether the oldest was woken.
 *
 * <p>Mutants ({@code ./shuttle mutants TailWakeVersusPushStress}; scheduler-stress/mutants/TailWakeVersusPushStress):
 * {@code empty-dead-stack-at-head}, forbidden "1, 1" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("spin-bit: the time-bound wake's cut versus a waiter's push and a sleeper giving up")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "the oldest woken, every live node still on the stack")
@Outcome(id = "[1-9], .*", expect = Expect.FORBIDDEN, desc = "a live waiter lost from the stack")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "the oldest sleeper not woken by the time-bound wake")
@State
public class TailWakeVersusPushStress {
    /** Never started: unparking it does nothing, and these nodes' owners are the actors' stand-ins. */
    private static final Thread NOBODY = new Thread(() -> { });
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private final WaiterNode oldest = new WaiterNode(NOBODY, WaiterNode.SLEEPING);
    private final WaiterNode givesUp = new WaiterNode(NOBODY, WaiterNode.SLEEPING);
    private final WaiterNode pushed = new WaiterNode(NOBODY, WaiterNode.SLEEPING);

    public TailWakeVersusPushStress() {
        if (!sync.tryAcquire() || !sync.takeSpin()) {
            throw new IllegalStateException();
        }
        sync.push(oldest);
        sync.push(givesUp);
    }

    @Actor
    public void holderReleases() {
        sync.release(1);
    }

    @Actor
    public void sleeperGivesUpThenWaiterPushes() {
        givesUp.casStatus(WaiterNode.SLEEPING, WaiterNode.CANCELLED);
        sync.pushAndCheck(pushed);
    }

    @Arbiter
    public void check(II_Result r) {
        int live = (pushed.status() == WaiterNode.SLEEPING ? 1 : 0) + (givesUp.status() == WaiterNode.SLEEPING ? 1 : 0);
        r.r1 = live - sync.sleeperCount();
        r.r2 = oldest.status() == WaiterNode.WOKEN ? 1 : 0;
    }
}
