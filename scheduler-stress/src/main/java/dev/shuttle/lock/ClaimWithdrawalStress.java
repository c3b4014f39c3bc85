package dev.shuttle.lock;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * The fast path's claim versus a thread arriving at the lock. A failed claim is in flight when the holder releases,
 * so the lock still looks held and an arriving thread goes to sleep on it; only the withdrawal of the claim, which is
 * what frees the lock bits, is left to wake it. The signal plays holder and claimer in turn and keeps the claim in
 * flight until the arrival waits (a claimer preempted between its two adds), so the arrival meets the release at any
 * point. In package {@code dev.shuttle.lock} for the package-private {@code claim} and {@code withdrawClaim}: the
 * race needs a third thread, which jcstress does not run on two CPUs, and the signal stands in for it. With the
 * withdrawal's wake decision removed this test reports STALE in {@code -m quick} (4 of 4 configurations); like the
 * other Termination tests it runs too briefly in {@code -m sanity} to see it.
 */
@JCStressTest(Mode.Termination)
@Description("spin-bit: the withdrawal of a failed claim that frees the lock wakes whoever slept during the claim")
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "the arrival got the lock")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "lost wake-up: asleep on a free lock")
@State
public class ClaimWithdrawalStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();

    public ClaimWithdrawalStress() {
        sync.acquire();
        if (sync.claim(1)) {
            throw new IllegalStateException("a claim on a held lock acquired it");
        }
    }

    @Actor
    public void arrival() {
        sync.acquire();
        sync.release(1);
    }

    @Signal
    public void holderThenClaimer() {
        sync.release(1);
        // Waiting, in either form: on the sleeper stack, or (after 4 ms) parked for the reserved handoff.
        while (!sync.hasSleepers() && (sync.state & SleeperStack.HANDOFF) == 0) {
            Thread.onSpinWait();
        }
        sync.withdrawClaim(1);
    }
}
