package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A carrier going to sleep versus the holder of a heap lock releasing it, on the real {@link TimerService}
 * (carriers not started). Carrier 1's heap holds a timer that is already due, and its lock is held (as while a
 * carrier arms or fires). A sleeping carrier passes over the due timers of a locked heap, leaving them to the holder;
 * the holder, releasing, looks for due timers left behind and wakes a carrier for them. Carrier 0 publishes its idle
 * bit and computes how long to sleep while the holder releases the lock.
 *
 * <p>Either carrier 0 sees the lock released and gets up for the due timer, or the holder sees carrier 0 idle and
 * wakes it. With the release's hand-over removed this test reports the lost wake-up (13 of 14 configurations in
 * {@code -m sanity}). The fence in {@code TimerService.release} is needed in theory (the unlock is a release store,
 * which a later load may pass); removing it alone has not produced a forbidden outcome here in {@code -m quick}.
 *
 * <p>Results: r1 = carrier 0 would get up for the due timer (1) or sleep without a timeout (0); r2 = the release
 * woke a carrier.
 *
 * <p>Mutants ({@code ./shuttle mutants LockedHeapReleaseStress}; scheduler-stress/mutants/LockedHeapReleaseStress):
 * {@code release-without-hand-over}, forbidden "0, 0" in 4 of 4 configurations of {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "carrier 0 saw the heap unlocked and gets up for the timer")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both: a spare wake-up")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "carrier 0 passed over the locked heap; the release woke it")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost: asleep without timeout, a due timer pending, nobody woken")
@State
public class LockedHeapReleaseStress {
    private final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
    private final TimerHeap held = pool.state.processors[1].timers;
    private final long due = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(1);

    public LockedHeapReleaseStress() {
        if (!held.tryLock()) {
            throw new IllegalStateException("a fresh heap is locked");
        }
        held.add(new Timer(() -> { }, due));
    }

    @Actor
    public void carrierGoesToSleep(II_Result r) {
        pool.state.idle.add(0);
        long until = pool.idle.watchDeadline(pool.state.processors[0]);
        r.r1 = until == due ? 1 : 0;
    }

    @Actor
    public void holderReleases(II_Result r) {
        r.r2 = pool.timers.release(held, true) ? 1 : 0;
    }
}
