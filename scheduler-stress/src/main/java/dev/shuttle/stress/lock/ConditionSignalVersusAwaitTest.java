package dev.shuttle.stress.lock;

import dev.shuttle.lock.SpinBitCondition;
import dev.shuttle.lock.SpinBitLock;
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

import java.util.concurrent.TimeUnit;

/**
 * Condition signal versus await: a signal sent after the waiter checked its predicate is not lost.
 *
 * <p>Mutants ({@code ./shuttle mutants ConditionSignalVersusAwaitTest};
 * scheduler-stress/mutants/ConditionSignalVersusAwaitTest): {@code signal-without-push}, forbidden "STALE" in 4 of 4
 * configurations of {@code -m quick -sc false}.
 */
public class ConditionSignalVersusAwaitTest {

    @JCStressTest(Mode.Termination)
    @Description("SpinBitCondition: await terminates once signalled")
    @Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "the signal reached the waiter")
    @Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "lost signal")
    @State
    public static class Blocking {
        private final SpinBitLock lock = new SpinBitLock();
        private final SpinBitCondition ready = lock.newCondition();
        private boolean flag;                    // guarded by lock

        @Actor
        public void waiter() {
            lock.lock();
            try {
                while (!flag) {
                    ready.awaitUninterruptibly();
                }
            } finally {
                lock.unlock();
            }
        }

        @Signal
        public void signal() {
            lock.lock();
            try {
                flag = true;
                ready.signal();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * A bounded wait racing a signal: the waiter reports whether it saw the flag and whether its
     * timed wait claimed a signal. Seeing the flag is required (the wait is long); a signal claimed
     * while the flag stayed false would be a signal delivered without the state it announces.
     */
    @JCStressTest
    @Description("SpinBitCondition: timed await versus signal")
    @Outcome(id = {"1, 0", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "flag seen, by signal or before waiting")
    @Outcome(id = "0, .*", expect = Expect.FORBIDDEN, desc = "waiter gave up although signalled in time")
    @State
    public static class Timed {
        private final SpinBitLock lock = new SpinBitLock();
        private final SpinBitCondition ready = lock.newCondition();
        private boolean flag;
        private int seen;
        private int signalled;

        @Actor
        public void waiter() {
            lock.lock();
            try {
                if (!flag) {
                    try {
                        signalled = ready.await(10, TimeUnit.SECONDS) ? 1 : 0;
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                seen = flag ? 1 : 0;
            } finally {
                lock.unlock();
            }
        }

        @Actor
        public void signaller() {
            lock.lock();
            try {
                flag = true;
                ready.signal();
            } finally {
                lock.unlock();
            }
        }

        @Arbiter
        public void check(II_Result r) {
            lock.lock();
            r.r1 = seen;
            r.r2 = signalled;
            lock.unlock();
        }
    }
}
