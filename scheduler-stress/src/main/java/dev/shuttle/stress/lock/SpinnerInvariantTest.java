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
 * The spinning bit's invariant: at most one thread holds the spin role at a time, whether it took
 * the bit itself or was handed it by the release that woke it. jcstress runs at most as many
 * actors as there are CPUs (2 here), so each actor plays several parts: the first holds the mutex
 * from the start, releases it after a delay and contends again; the second contends twice. That
 * drives every role change (take, grant on wake, give up by acquiring or by sleeping) between two
 * threads; SpinRoleTest in scheduler-core checks the same invariant with eight.
 *
 * <p>Mutants: {@code take-spin-without-cas} (scheduler-stress/mutants/SpinnerInvariantTest) is not caught here, in 0
 * of 4 configurations of {@code -m quick -sc false}: with two actors, one of them holds the mutex whenever the other
 * waits, so two threads never look for the role at once. {@link SpinRoleTakeStress} catches it, and the mutant runs
 * both.
 */
@JCStressTest
@Description("spin-bit: never two spinners admitted")
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "nobody needed to spin; clean word")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "one spinner at a time; clean word")
@Outcome(id = "[2-9], .*", expect = Expect.FORBIDDEN, desc = "two spinners admitted at once")
@Outcome(id = "[01], [1-9]", expect = Expect.FORBIDDEN, desc = "spin role, sleeper or lock left behind")
@State
public class SpinnerInvariantTest {
    private final CountingMutex mutex = new CountingMutex();

    public SpinnerInvariantTest() {
        mutex.acquire();
    }

    @Actor
    public void holderThenWaiter() {
        for (int i = 0; i < 100; i++) {
            Thread.onSpinWait();
        }
        mutex.unlock();
        mutex.acquire();
        mutex.unlock();
    }

    @Actor
    public void waiterTwice() {
        mutex.acquire();
        mutex.unlock();
        mutex.acquire();
        mutex.unlock();
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = mutex.maxSpinners();
        r.r2 = (mutex.isFree() ? 0 : 1) + (mutex.hasSleepers() ? 2 : 0) + (mutex.spinnerPresent() ? 4 : 0);
    }
}
