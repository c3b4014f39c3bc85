package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.TimerHeap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A shrink retires processor 1 ({@code CarrierPool.setParallelism(1)}: raise the flag, publish the smaller array,
 * take the processor, empty its heap into the remaining ones) while a platform thread arms a timer
 * ({@code TimerService.arm}: on a processor of the array it read, then a look at that processor's flag). If the arm
 * read the old array and picked processor 1, either the shrink's drain found the timer in the heap, or the arm saw
 * the flag and drained the heap itself; otherwise the timer sits in a heap no carrier looks at and never fires. On
 * the real pool, timer service and resize; nothing is started (processor 1's carrier is in a task, so the shrink
 * takes it by CAS). Half the samples arm on processor 0, where nothing can go wrong.
 *
 * <p>Results: r1 = copies of the timer in processor 0's heap, r2 = copies in retired processor 1's heap.
 *
 * <p>Mutants ({@code ./shuttle mutants ShrinkVersusTimerArmStress};
 * scheduler-stress/mutants/ShrinkVersusTimerArmStress): {@code arm-without-retired-look}, forbidden "0, 1" in 2 of 4
 * configurations of {@code -m quick -sc false} (6 samples: the arm must pick processor 1 and land between the shrink's
 * look at its heap and its flag).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the timer is on the remaining processor")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "stranded: the timer is in the retired processor's heap")
@Outcome(expect = FORBIDDEN, desc = "the timer was lost or armed twice")
@State
public class ShrinkVersusTimerArmStress {
    private final RetireVersusPushStress.Retiring retiring = new RetireVersusPushStress.Retiring();
    private final CarrierPool pool = retiring.pool;
    private final TimerHeap live = pool.state.processors[0].timers;
    private final TimerHeap retired = retiring.proc.timers;

    @Actor
    public void platformThreadArms() {
        pool.timers.schedule(() -> { }, 1, TimeUnit.HOURS);
    }

    @Actor
    public void resizeShrinks() {
        retiring.shrink();
    }

    @Arbiter
    public void after(II_Result r) {
        r.r1 = entries(live);
        r.r2 = entries(retired);
    }

    private static int entries(TimerHeap heap) {
        if (!heap.tryLock()) {
            throw new IllegalStateException("a heap is still locked after both actors");
        }
        try {
            heap.drainInbox();
            return heap.size();
        } finally {
            heap.unlock();
        }
    }
}
