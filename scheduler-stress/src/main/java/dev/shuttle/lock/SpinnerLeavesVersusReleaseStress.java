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
 * A spinner that gives up without acquiring (its timed wait ran out, or it was interrupted) versus
 * the holder's release. A release that sees the spinner skips its wake-up, counting on the spinner;
 * so the spinner, once it has dropped SPINNING, must make the wake decision itself. One sleeper
 * waits under a held lock; the holder releases while the spinner leaves ({@code abandonSpin}, in
 * this package for that package-private step). The sleeper must end up woken. With the wake
 * decision removed from {@code abandonSpin}, this test reports the FORBIDDEN outcome in
 * {@code -m quick}.
 */
@JCStressTest
@Description("spin-bit: the spinner leaving and the release it counted on, one of them wakes the sleeper")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "sleeper woken, lock free")
@Outcome(id = "0, .*", expect = Expect.FORBIDDEN, desc = "lost wake-up: asleep on a free lock, nobody spinning")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "the lock stayed taken after its release")
@State
public class SpinnerLeavesVersusReleaseStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private final WaiterNode sleeper = WaiterTable.take(Thread.currentThread());

    public SpinnerLeavesVersusReleaseStress() {
        // The first release that sees a spinner over sleepers is due a tail wake (the oldest
        // sleeper, at most once a millisecond), which would wake ours regardless: spend it here.
        WaiterNode first = WaiterTable.take(Thread.currentThread());
        setUp(first);
        sync.release(1);
        if (first.status() != WaiterNode.WOKEN) {
            throw new IllegalStateException("the first contended release made no tail wake");
        }
        WaiterTable.give(first);
        sync.dropSpin();
        setUp(sleeper);
    }

    /** Held lock, {@code node} asleep, and the spin role taken (as if by the actor {@link #spinner}). */
    private void setUp(WaiterNode node) {
        sync.acquire();
        node.setStatusPlain(WaiterNode.SLEEPING);
        sync.push(node, false);
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
        sync.abandonSpin();
    }

    @Arbiter
    public void check(II_Result r) {
        boolean woken = sleeper.status() == WaiterNode.WOKEN;
        r.r1 = woken ? 1 : 0;
        r.r2 = sync.lockBits();
        if (woken) {
            WaiterTable.give(sleeper);
        }
    }
}
