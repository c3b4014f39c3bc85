package dev.shuttle.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The fast path's claim (an atomic add on a dirty word, withdrawn if it did not acquire), with its
 * races forced in order. jcstress cannot run them here: the interesting one needs a holder, a
 * claimer and a third thread going to sleep, and jcstress runs no more actors than this machine's
 * two CPUs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClaimTest {

    /** Waits until a thread sleeps on {@code m} and nobody holds the spin role. */
    private static void awaitSleeperWithoutSpinner(SpinBitSynchronizer m) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!m.hasSleepers() || m.hasSpinner()) {
            assertTrue(System.nanoTime() < deadline, "the arrival never went to sleep");
            Thread.sleep(1);
        }
    }

    @Test
    void aClaimAcquiresOnlyAFreeLock() {
        SpinRoleTest.CountingMutex m = new SpinRoleTest.CountingMutex();
        assertTrue(m.claim(1));
        assertFalse(m.claim(1));
        m.withdrawClaim(1);
        assertEquals(1, m.lockBits());
        m.release(1);
        assertEquals(0, m.lockBits());
    }

    /**
     * The holder releases while a failed claim is still in flight, so the lock looks held, and a
     * thread arriving then goes to sleep on it. Nobody but the withdrawal is left to wake it: the
     * withdrawal that frees the lock bits must make the release's wake decision.
     */
    @Test
    void theWithdrawalThatFreesTheLockWakesWhoSleptDuringTheClaim() throws InterruptedException {
        SpinRoleTest.CountingMutex m = new SpinRoleTest.CountingMutex();
        m.acquire();
        assertFalse(m.claim(1));
        m.release(1);
        assertEquals(1, m.lockBits(), "the claim in flight keeps the lock looking held");
        Thread arrival = Thread.ofPlatform().start(() -> {
            m.acquire();
            m.release(1);
        });
        awaitSleeperWithoutSpinner(m);
        m.withdrawClaim(1);
        arrival.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(arrival.isAlive(), "lost wake-up: the arrival sleeps on a free lock");
        assertEquals(0, m.lockBits());
        assertFalse(m.hasSleepers());
    }

    /** A failed claim that leaves the lock held decides nothing: the holder's release wakes the sleeper. */
    @Test
    void aWithdrawalUnderAHolderLeavesTheWakeToTheHolder() throws InterruptedException {
        SpinRoleTest.CountingMutex m = new SpinRoleTest.CountingMutex();
        m.acquire();
        Thread arrival = Thread.ofPlatform().start(() -> {
            m.acquire();
            m.release(1);
        });
        awaitSleeperWithoutSpinner(m);
        assertFalse(m.claim(1));
        m.withdrawClaim(1);
        assertTrue(m.hasSleepers(), "a withdrawal under a holder must not wake anyone");
        m.release(1);
        arrival.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(arrival.isAlive(), "the holder's release did not wake the sleeper");
        assertEquals(0, m.lockBits());
    }
}
