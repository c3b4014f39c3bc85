package dev.shuttle.scheduler;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.RejectedExecutionException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A thread starting while the scheduler closes. Results: r1 = the start was admitted, r2 = close saw it live.
 * A start that close does not see must be refused, or close would return while the thread runs.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "admitted, and close waits for it")
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "refused: close had begun")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "admitted but invisible to close: close returns early")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "refused but left in the live set: close waits forever")
@State
public class AdmitVersusCloseStress {
    private final ThreadLifecycle lifecycle = new ThreadLifecycle();
    private final Thread starting = Thread.ofPlatform().unstarted(() -> { });

    @Actor
    public void start(II_Result r) {
        try {
            lifecycle.admit(starting);
            r.r1 = 1;
        } catch (RejectedExecutionException e) {
            r.r1 = 0;
        }
    }

    @Actor
    public void close(II_Result r) {
        lifecycle.close();
        r.r2 = lifecycle.liveCount();
    }
}
