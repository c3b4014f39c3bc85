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
 * A busy carrier hands a woken thread to its processor's runNext while the monitor, which watched runNext slots,
 * finds them empty and decides to stop watching (pool not started: the actors play the carrier and the monitor).
 * The hand-off skips waking anyone while the monitor watches, so either the monitor keeps watching (it will have
 * the task stolen if the owner stays busy) or the pusher sees it stopped and wakes a carrier.
 *
 * <p>Results: r1 = the push went only into runNext, r2 = the monitor still watches, r3 = carrier 1 was woken (its
 * idle bit was taken by {@code wakep}).
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the monitor saw the runNext and keeps watching")
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the monitor stopped; the pusher saw it and woke carrier 1")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "both: a spare wake-up")
@Outcome(id = "1, 0, 0", expect = FORBIDDEN, desc = "lost: nobody watches and nobody was woken for the runNext")
@Outcome(expect = FORBIDDEN, desc = "the push displaced a task it should not have")
@State
public class RunNextWatchStress {
    private final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
    private final Runnable woken = () -> { };

    public RunNextWatchStress() {
        // The pusher is a task running on processor 0: pushLocal takes any other phase for a lost processor and wakes.
        pool.state.processors[0].beginTask(pool.state.processors[0].holder());
        pool.state.idle.add(1);
        pool.state.processors[0].runQueue.putRunNext(() -> { });
        pool.monitor.watchRunNext();
        if (!pool.monitorSignal.watchesRunNext() || pool.state.processors[0].runQueue.pollRunNext() == null) {
            throw new IllegalStateException("the monitor must watch an occupied runNext");
        }
    }

    @Actor
    public void busyCarrierHandsOff(III_Result r) {
        Processor proc = pool.state.processors[0];
        boolean onlyRunNext = ((Carrier) proc.holder()).pushLocal(proc, woken);
        pool.wakeups.afterLocalPush(onlyRunNext);
        r.r1 = onlyRunNext ? 1 : 0;
    }

    @Actor
    public void monitorLooks() {
        pool.monitor.watchRunNext();
    }

    @Arbiter
    public void after(III_Result r) {
        r.r2 = pool.monitorSignal.watchesRunNext() ? 1 : 0;
        r.r3 = pool.state.idle.contains(1) ? 0 : 1;
    }
}
