package dev.shuttle.stress.lock;

import dev.shuttle.lock.CountingMutex;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two waiters taking the spin role at once: the role is taken by a CAS from 0, so one of two threads that both find it
 * free gets it. {@link SpinnerInvariantTest} cannot show two takers: with its two actors, one of them holds the mutex
 * whenever the other waits, so at most one thread ever looks for the role. Here the mutex stays held by a third party
 * (the constructor) and both actors contend with the shortest timed acquire: each fails the fast path, looks for the
 * role, spins its rounds if it took it, and gives up at the deadline without sleeping.
 *
 * <p>Results: r1 = the most threads that held the spin role at once; r2 = what is left behind: 1 if the mutex is not
 * held (only the constructor's hold is expected), 2 if a sleeper is left, 4 if the role is still held.
 *
 * <p>Mutants ({@code ./shuttle mutants SpinnerInvariantTest}; scheduler-stress/mutants/SpinnerInvariantTest):
 * {@code take-spin-without-cas}, forbidden "2, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Description("spin-bit: two waiters looking for the spin role at once")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one spinner at a time; both gave up, the holder's hold intact")
@Outcome(id = "[2-9], .*", expect = Expect.FORBIDDEN, desc = "two spinners admitted at once")
@Outcome(expect = Expect.FORBIDDEN, desc = "nobody spun, or the hold, a sleeper or the role disturbed")
@State
public class SpinRoleTakeStress {
    private final CountingMutex mutex = new CountingMutex();

    public SpinRoleTakeStress() {
        mutex.acquire();
    }

    @Actor
    public void firstWaiter() {
        waitAndGiveUp();
    }

    @Actor
    public void secondWaiter() {
        waitAndGiveUp();
    }

    private void waitAndGiveUp() {
        try {
            if (mutex.tryAcquireNanos(1)) {
                throw new IllegalStateException("acquired a held mutex");
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException("nobody interrupts the actors", e);
        }
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = mutex.maxSpinners();
        r.r2 = (mutex.isFree() ? 1 : 0) + (mutex.hasSleepers() ? 2 : 0) + (mutex.spinnerPresent() ? 4 : 0);
    }
}
