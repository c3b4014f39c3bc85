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
 * The handoff reservation versus the holder's release. The reserver takes the slot and sets
 * RESERVED ({@code reserve}), then looks once, as its wait loop does: granted already, or the bits
 * free to take. If neither, it would park, and then the release must pass the lock over: it reads
 * RESERVED before its store (and grants without freeing) and again after it (and takes the lock
 * back and grants). In this package for the package-private steps. With the release's second look
 * ({@code passAfterRelease}) removed, this test reports the FORBIDDEN outcome in {@code -m quick}.
 */
@JCStressTest
@Description("spin-bit: a reservation made while the holder releases ends with the reserver holding the lock")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the reserver found the bits free and took them")
@Outcome(id = {"0, 1", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "the release passed the lock over")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: the reserver parks and nobody passes the lock")
@State
public class ReserveVersusReleaseStress {
    private final SpinBitLock.Sync sync = new SpinBitLock.Sync();
    private boolean took;

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
            throw new IllegalStateException("nobody else could hold the reservation");
        }
        took = sync.reservationGranted() || sync.casAcquire();
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = took ? 1 : 0;
        r.r2 = sync.reservationGranted() ? 1 : 0;
    }
}
