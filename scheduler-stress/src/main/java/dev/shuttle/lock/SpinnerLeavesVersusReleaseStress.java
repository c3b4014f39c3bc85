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
 * The spinner-leaves/release Dekker pair. A release that sees the spin role held skips its wake-up,
 * counting on the spinner; so a spinner that gives up without acquiring (timed out, interrupted,
 * or about to reserve) clears the role and then reads the lock bits, and decides in the release's
 * place if they are free ({@code leaveSpin}). One sleeper waits under a held lock while the role
 * is held; the holder releases while the spinner leaves. The sleeper must end up woken.
 *
 * <p>Mutants ({@code ./shuttle mutants SpinnerLeavesVersusReleaseStress};
 * scheduler-stress/mutants/SpinnerLeavesVersusReleaseStress): {@code leave-without-decision}, forbidden "1, 0" in 4
 * of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("spin-bit: the spinner leaving and the release it counted on, one of them wakes the sleeper")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "sleeper woken with the spin role, lock free")
@Outcome(id = "3, 0", expect = Expect.ACCEPTABLE, desc = "woken by the time-bound wake of the oldest sleeper, lock free")
@Outcome(id = "1, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: asleep on a free lock, nobody spinning")
@Outcome(id = ".*, 1", expect = Expect.FORBIDDEN, desc = "the lock stayed taken after its release")
@State
public class SpinnerLeavesVersusReleaseStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private final WaiterNode sleeper = new WaiterNode(Thread.currentThread(), WaiterNode.SLEEPING);

    public SpinnerLeavesVersusReleaseStress() {
        // The first release that sees a spinner over sleepers is due a tail wake (the oldest
        // sleeper, at most once a millisecond), which would wake ours regardless: spend it here.
        WaiterNode first = new WaiterNode(Thread.currentThread(), WaiterNode.SLEEPING);
        setUp(first);
        sync.release(1);
        if (first.status() != WaiterNode.WOKEN) {
            throw new IllegalStateException("the first contended release made no tail wake");
        }
        sync.leaveSpin();                       // pops and discards the dead node
        if (sync.hasSpinner() || sync.sleeperCount() != 0) {
            throw new IllegalStateException("set-up left a spinner or a sleeper");
        }
        setUp(sleeper);
    }

    /** Held lock, {@code node} asleep, and the spin role taken (as if by the actor {@link #spinner}). */
    private void setUp(WaiterNode node) {
        sync.acquire();
        sync.push(node);
        if (!sync.takeSpin()) {
            throw new IllegalStateException("the spin role was taken already");
        }
    }

    @Actor
    public void holder() {
        sync.release(1);
    }

    @Actor
    public void spinner() {
        sync.leaveSpin();
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = sleeper.status();
        r.r2 = sync.lockBits();
    }
}
