package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A grow ({@code CarrierPool.setParallelism(2)}) adds processor 1 while work is submitted: the new processor's carrier
 * gets up, finds nothing and parks on its idle bit, and a platform thread then queues a task and calls
 * {@code Idle.wakep}. The waker must wake the new carrier: processor 0's carrier is in a long task, so nobody else
 * will look at the global queue.
 *
 * <p>No interleaving of the real code loses this wake-up, by design: {@code Resize.grow} publishes the larger array
 * before it hands the new processor to its carrier (or starts it), so the carrier's first idle bit is set after the
 * array that holds it is published; {@code wakep} reads the array after it saw that bit (through the idle count),
 * so it scans a bound that covers the bit and claims it. A waker that read the array before the publication saw no
 * idle bit of the new processor, and the new carrier's re-check of the queues, after its bit, sees that waker's task
 * (the park/publish handshake). This test checks the invariant that makes it so. If the carrier could park while
 * wakers still read the old array, a waker would see the idle count raised, find no bit below the old bound, lower
 * {@code searching}, see the task queued, find no idle bit below the (still old) bound again and give up: the task
 * waits in the global queue, the new carrier asleep, nobody searching (until the monitor's rescue).
 *
 * <p>On the real pool, resize, idle set, waker and carrier code; nothing is started. The new processor goes to a
 * spare that waits never started ({@link HandOffVersusReturnStress#waitingSpare}), so a sample starts no thread; a
 * grow that starts a fresh carrier thread orders the publication before {@code Thread.start} the same way. jcstress
 * runs no more actors than there are CPUs (2 here), so one actor grows and the other plays, in program order, the
 * new carrier (it takes the processor it was handed and goes to park, {@code Carrier.prepareToPark}, which finds
 * nothing) and then the submitter ({@code CarrierPool.execute} from a platform thread: global queue, then
 * {@code wakep}).
 *
 * <p>Results: processor 1's idle bit still set, the searching count, the searchers counted as woken but not yet up
 * ({@code PoolState.wakingSearchers}), the tasks in the global queue.
 *
 * <p>Mutants ({@code ./shuttle mutants GrowVersusWakeStress}; scheduler-stress/mutants/GrowVersusWakeStress):
 * {@code launch-before-publish} (grow hands the processor over, then publishes the array), forbidden "1, 0, 0, 1" in 3
 * of 4 configurations of {@code -m quick -sc false}, 43 samples in about 310,000: the new carrier must park and the
 * submitter queue and wake in the instant between the hand-over and the publication.
 */
@JCStressTest
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "the submitter woke the new carrier for its task")
@Outcome(id = "1, 0, 0, 1", expect = FORBIDDEN, desc = "lost wake-up: the task queued, the new carrier asleep, nobody searching")
@Outcome(expect = FORBIDDEN, desc = "the task was lost or the counts of searchers are off")
@State
public class GrowVersusWakeStress {
    private final CarrierPool pool = HandOffVersusReturnStress.poolAtCap(1);
    private final Carrier spare = HandOffVersusReturnStress.waitingSpare(pool, HandOffVersusReturnStress.SPARE_SERIAL);

    public GrowVersusWakeStress() {
        Processor busy = pool.state.processors[0];
        busy.beginTask((Carrier) busy.holder());
    }

    @Actor
    public void grow() {
        if (pool.setParallelism(2) != 1) {
            throw new IllegalStateException("nobody else resizes");
        }
    }

    @Actor
    public void newCarrierParksThenPlatformThreadSubmits() {
        Processor proc;
        while ((proc = spare.takeHanded()) == null) {
            Thread.onSpinWait();
        }
        spare.p = proc;
        if (!spare.prepareToPark()) {
            throw new IllegalStateException("the new carrier saw work where there is none");
        }
        pool.execute(() -> { });
    }

    @Arbiter
    public void after(IIII_Result r) {
        r.r1 = pool.state.idle.contains(1) ? 1 : 0;
        r.r2 = pool.state.searching.get();
        r.r3 = pool.state.wakingSearchers.get();
        r.r4 = pool.state.global.size();
    }
}
