package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A carrier's stamp reused while another carrier takes it ({@link HandOffStamps}, one stamp, every hand-off sampled):
 * the owner stamps a wake-up, puts it in runNext, and stamps a timer hand-off at once, which may reuse the stamp only
 * once its taker has read it; a thief steals runNext and takes the stamp (or, if it found runNext empty, the arbiter
 * does). Results: whether the owner's second hand-off got the stamp (1) or lost its sample (0); the task the taken
 * stamp carried (1 the wake-up's, 2 the timer's); the kind it carried ({@code WAKE} 1, {@code TIMER} 3).
 *
 * <p>Mutants ({@code ./shuttle mutants HandOffStampsStress}; scheduler-stress/mutants/HandOffStampsStress): {@code
 * reuse-without-check}, forbidden "1, 2, 3", "1, 1, 3" and "1, 2, 1" in 4 of 4 configurations of
 * {@code -m quick -sc false}.
 */
@JCStressTest
@Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "stamp still in use: the second sample lost, the first read whole")
@Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "stamp taken first, then reused for the second hand-off")
@Outcome(expect = FORBIDDEN, desc = "a start read the later hand-off's task or time: a wrong start or a stale stamp")
@State
public class HandOffStampsStress {
    private final HandOffStamps stamps = new HandOffStamps(1, 1);
    private final RunQueue queue = new RunQueue(new GlobalQueue());
    private final Runnable woken = () -> { };
    private final Runnable fired = () -> { };
    private int secondStamped;
    private Runnable taken;
    private int kind = -1;

    @Actor
    public void ownerHandsOffTwice() {
        queue.putRunNext(stamps.stamp(woken, HandOffStamps.WAKE));
        secondStamped = stamps.stamp(fired, HandOffStamps.TIMER) != fired ? 1 : 0;
    }

    @Actor
    public void thiefTakes() {
        Runnable queued = queue.stealRunNext();
        if (queued != null) {
            read((HandOffStamps.Stamp) queued);
        }
    }

    /** What a carrier does with a stamp it dequeued ({@code SchedulingDelays.starting}). */
    private void read(HandOffStamps.Stamp stamp) {
        Runnable task = stamp.task();
        long word = stamp.take();
        taken = task;
        kind = HandOffStamps.kind(word);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        if (taken == null) {
            read((HandOffStamps.Stamp) queue.pollRunNext());
        }
        r.r1 = secondStamped;
        r.r2 = taken == woken ? 1 : taken == fired ? 2 : 0;
        r.r3 = kind;
    }
}
