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
 * The reserve/release Dekker pair. A starving waiter takes the reservation and then looks once
 * ({@code takeReserved}: passed the lock, or the bits free and taken by CAS) before it would park;
 * the holder's release checks for a reservation before its store (then it passes the lock over
 * still held) and after it (then it takes the lock back and passes it, {@code passAfterRelease}).
 * The reserver must end up holding the lock, by its own look or by a pass that unparks it.
 *
 * <p>Mutants ({@code ./shuttle mutants ReserveVersusReleaseStress};
 * scheduler-stress/mutants/ReserveVersusReleaseStress): {@code no-pass-after-release}, forbidden "0, 0, 0" in 4 of 4
 * configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("spin-bit: a reservation and a release that cross, the reserver gets the lock")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "the reserver's look took the freed lock by CAS")
@Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE, desc = "the reserver's look found the lock passed to it")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "the reserver looked too early; the release passed it the lock")
@Outcome(id = "0, 0, .*", expect = Expect.FORBIDDEN, desc = "the reserver would park and nobody passes it the lock")
@Outcome(id = ".*, .*, 0", expect = Expect.FORBIDDEN, desc = "the lock is free although the reserver holds or was passed it")
@State
public class ReserveVersusReleaseStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private int tookIt;

    public ReserveVersusReleaseStress() {
        sync.acquire();
    }

    @Actor
    public void holder() {
        sync.release(1);
    }

    @Actor
    public void reserver() {
        if (!sync.reserve()) {
            throw new IllegalStateException("the reservation was taken already");
        }
        tookIt = sync.takeReserved() ? 1 : 0;
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = tookIt;
        r.r2 = sync.handoffGranted() ? 1 : 0;
        r.r3 = sync.lockBits();
    }
}
