package dev.shuttle.stress.lock;

import dev.shuttle.lock.CountingMutex;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Unlock versus an arriving waiter: the release must never be missed by a thread going to sleep.
 *
 * <p>Mutants ({@code ./shuttle mutants UnlockVersusWaiterTest}; scheduler-stress/mutants/UnlockVersusWaiterTest):
 * {@code release-without-wake} (run against {@link Blocking}), forbidden "STALE" in 4 of 4 configurations of
 * {@code -m quick -sc false}; a termination test stops a configuration at its first stale waiter, so one sample each.
 */
public class UnlockVersusWaiterTest {

    /** The waiter may block; the release must let it finish (a lost wake-up leaves it stale). */
    @JCStressTest(Mode.Termination)
    @Description("spin-bit: a waiter blocked on a held mutex terminates once it is released")
    @Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "woken by the release")
    @Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "lost wake-up: asleep on a free mutex")
    @State
    public static class Blocking {
        private final CountingMutex mutex = new CountingMutex();

        public Blocking() {
            mutex.acquire();
        }

        @Actor
        public void waiter() {
            mutex.acquire();
        }

        @Signal
        public void release() {
            mutex.unlock();
        }
    }

    /**
     * A release racing an arrival that must wait, then both contending again (two actors: jcstress
     * runs no more actors than CPUs). Both must get through (the harness would hang otherwise),
     * and afterwards the mutex must be free with nobody asleep and nobody holding the spin role.
     */
    @JCStressTest
    @Description("spin-bit: release versus an arriving waiter leaves a clean word")
    @Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "free, no sleepers, no spinner")
    @Outcome(id = "0, .*", expect = Expect.FORBIDDEN, desc = "still locked after every holder left")
    @Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "a sleeper left behind: lost wake-up")
    @Outcome(id = "1, 2", expect = Expect.FORBIDDEN, desc = "the spin role leaked")
    @State
    public static class Racing {
        private final CountingMutex mutex = new CountingMutex();

        public Racing() {
            mutex.acquire();
        }

        @Actor
        public void releaser() {
            mutex.unlock();
            mutex.acquire();
            mutex.unlock();
        }

        @Actor
        public void arrival() {
            mutex.acquire();
            mutex.unlock();
        }

        @Arbiter
        public void check(II_Result r) {
            r.r1 = mutex.isFree() ? 1 : 0;
            r.r2 = mutex.hasSleepers() ? 1 : mutex.spinnerPresent() ? 2 : 0;
        }
    }
}
