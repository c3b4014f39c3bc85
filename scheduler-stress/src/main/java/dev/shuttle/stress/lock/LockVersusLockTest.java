package dev.shuttle.stress.lock;

import dev.shuttle.lock.SpinBitLock;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Mutual exclusion: two threads each read-increment-write a plain field under the lock. Each
 * reports the value it read; both reading 0 means both were inside at once. Two holders also show
 * as an unlock refused: the second holder records itself as the owner, and the first one's unlock
 * then throws {@link IllegalMonitorStateException}, reported as 2 (an exception would end the run
 * as an error instead of a forbidden outcome).
 *
 * <p>Mutants ({@code ./shuttle mutants LockVersusLockTest}; scheduler-stress/mutants/LockVersusLockTest):
 * {@code acquire-without-cas}, forbidden "0, 0" and refused unlocks ("2, 0", "0, 2", ...) in 4 of 4 configurations of
 * {@code -m quick -sc false}.
 */
@JCStressTest
@Description("SpinBitLock: lock versus lock")
@Outcome(id = {"0, 1", "1, 0"}, expect = Expect.ACCEPTABLE, desc = "one after the other")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "two holders: both saw the other's update missing")
@Outcome(id = {"2, 0", "2, 1", "0, 2", "1, 2", "2, 2"}, expect = Expect.FORBIDDEN,
        desc = "two holders: an unlock found the lock owned by the other thread")
@State
public class LockVersusLockTest {
    private static final int OWNER_LOST = 2;

    private final SpinBitLock lock = new SpinBitLock();
    private int x;

    @Actor
    public void actor1(II_Result r) {
        r.r1 = increment();
    }

    @Actor
    public void actor2(II_Result r) {
        r.r2 = increment();
    }

    /** The value read under the lock, or {@link #OWNER_LOST} if the unlock found another owner. */
    private int increment() {
        lock.lock();
        int v = x;
        x = v + 1;
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException e) {
            return OWNER_LOST;
        }
        return v;
    }
}
