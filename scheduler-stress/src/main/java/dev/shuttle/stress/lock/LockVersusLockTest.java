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
 * reports the value it read; both reading 0 means both were inside at once.
 */
@JCStressTest
@Description("SpinBitLock: lock versus lock")
@Outcome(id = {"0, 1", "1, 0"}, expect = Expect.ACCEPTABLE, desc = "one after the other")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "two holders: both saw the other's update missing")
@State
public class LockVersusLockTest {
    private final SpinBitLock lock = new SpinBitLock();
    private int x;

    @Actor
    public void actor1(II_Result r) {
        lock.lock();
        try {
            int v = x;
            x = v + 1;
            r.r1 = v;
        } finally {
            lock.unlock();
        }
    }

    @Actor
    public void actor2(II_Result r) {
        lock.lock();
        try {
            int v = x;
            x = v + 1;
            r.r2 = v;
        } finally {
            lock.unlock();
        }
    }
}
