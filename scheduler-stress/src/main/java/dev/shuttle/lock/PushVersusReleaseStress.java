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
 * The Dekker pair that replaces the one-word push CAS: a waiter pushes its node and then reads the
 * lock bits; the holder stores the freed bits and then reads the waiters word. Whichever order the
 * two land in, one of them must see the other and pop the node as woken. The waiter runs the real
 * sleep step ({@code goToSleep}) without parking, so a lost wake-up shows as a node still asleep
 * instead of a hung actor; in this package for the package-private step. With the waiter's re-read
 * of the lock bits removed, or with the release's load of the waiters word removed, this test
 * reports the FORBIDDEN outcome in {@code -m quick}.
 */
@JCStressTest
@Description("spin-bit: a push and a release that cross each other, one of them wakes the node")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "woken, lock free")
@Outcome(id = "0, .*", expect = Expect.FORBIDDEN, desc = "lost wake-up: asleep on a free lock")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "the lock stayed taken after its release")
@State
public class PushVersusReleaseStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private WaiterNode node;

    public PushVersusReleaseStress() {
        sync.acquire();
    }

    @Actor
    public void holder() {
        sync.release(1);
    }

    @Actor
    public void waiter() {
        WaiterNode n = WaiterTable.take(Thread.currentThread());
        n.setStatusPlain(WaiterNode.SLEEPING);
        node = n;
        sync.goToSleep(n, false);
    }

    @Arbiter
    public void check(II_Result r) {
        boolean woken = node.status() == WaiterNode.WOKEN;
        r.r1 = woken ? 1 : 0;
        r.r2 = sync.lockBits();
        if (woken) {
            WaiterTable.give(node);
        }
    }
}
