package dev.shuttle.scheduler;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A busy carrier hands a woken thread to its runNext while a parked carrier that watched runNext slots decides
 * to stop watching. The hand-off skips waking anyone while a watcher exists, so either the watcher keeps watching
 * (it will take the task if the owner stays busy) or the pusher sees no watcher and wakes a carrier.
 *
 * <p>Results: r1 = the push went only into runNext, r2 = carrier 1 still watches, r3 = carrier 1 was woken (its
 * idle bit was taken by {@code wakep}).
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the watcher saw the runNext and keeps watching")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the watcher left; the pusher saw no watcher and woke it")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "both: a spare wake-up")
@Outcome(id = "1, 0, 0", expect = FORBIDDEN, desc = "lost: nobody watches and nobody was woken for the runNext")
@Outcome(expect = FORBIDDEN, desc = "the push displaced a task it should not have")
@State
public class RunNextWatchStress {
    private final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT, "stress-carrier-");
    private final Runnable woken = () -> { };

    public RunNextWatchStress() {
        pool.idle.add(1);
        pool.carriers[1].watchRunNext();
    }

    @Actor
    public void busyCarrierHandsOff(III_Result r) {
        boolean onlyRunNext = pool.carriers[0].pushLocal(woken);
        pool.afterLocalPush(onlyRunNext);
        r.r1 = onlyRunNext ? 1 : 0;
    }

    @Actor
    public void watcherReconsiders(III_Result r) {
        r.r2 = pool.carriers[1].keepWatchingRunNextIfNeeded() ? 1 : 0;
    }

    @Arbiter
    public void after(III_Result r) {
        r.r3 = pool.idle.contains(1) ? 0 : 1;
    }
}
