package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A resize retires processor 1 ({@code CarrierPool.setParallelism(1)}: raise the flag, take the processor from its
 * holder by CAS, drain it) while the virtual thread running on that processor's carrier wakes another thread into it
 * ({@code Carrier.pushLocal}, then {@code wakep}, as {@code CarrierPool.execute} does on a carrier). After
 * the retirement nobody looks at processor 1's queue until its carrier's current virtual thread ends, which may be
 * never; so either the push came before the resize's CAS and its drain moves the task, or the pusher sees the
 * processor taken and retired and drains it itself. On the real pool, processor and resize code; nothing is started
 * (the actors play the carrier and the caller of {@code setParallelism}). runNext is occupied, so the push fills
 * runNext and the run queue both.
 *
 * <p>Results: r1 = copies of the pushed tasks in the global queue, r2 = copies left on retired processor 1 (its
 * runNext and queue).
 *
 * <p>Mutants ({@code ./shuttle mutants RetireVersusPushStress}; scheduler-stress/mutants/RetireVersusPushStress):
 * {@code no-retired-check-after-push}, forbidden "0, 2" and "1, 1" (stranded on the retired processor) in 4 of 4
 * configurations of {@code -m quick -sc false}.
 */
public class RetireVersusPushStress {

    /**
     * runNext is occupied: the push displaces its task into the run queue, so both the runNext slot and the queue
     * must be drained.
     */
    @JCStressTest
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "both tasks moved to the global queue, once each")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "lost: one task stranded on the retired processor")
    @Outcome(id = "0, 2", expect = FORBIDDEN, desc = "lost: both tasks stranded on the retired processor")
    @Outcome(expect = FORBIDDEN, desc = "a task was duplicated or vanished")
    @State
    public static class DisplacingRunNext {
        final Retiring retiring = new Retiring();

        @Actor
        public void carrierWakesThread() {
            retiring.push();
        }

        @Actor
        public void resizeShrinks() {
            retiring.shrink();
        }

        @Arbiter
        public void after(II_Result r) {
            retiring.result(r);
        }
    }

    /** A pool of two whose processor 1's carrier runs a task. */
    static final class Retiring {
        final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        final Processor proc = pool.state.processors[1];
        final Carrier carrier = (Carrier) proc.holder();
        final Runnable woken = () -> { };

        Retiring() {
            proc.beginTask(carrier);
            proc.runQueue.putRunNext(() -> { });
        }

        void push() {
            carrier.pushLocal(proc, woken, woken);
            pool.idle.wakep();
        }

        void shrink() {
            if (pool.setParallelism(1) != 2) {
                throw new IllegalStateException("nobody else resizes");
            }
        }

        void result(II_Result r) {
            int global = 0;
            while (pool.state.global.poll() != null) {
                global++;
            }
            int stranded = 0;
            while (proc.runQueue.pollRunNext() != null || proc.runQueue.poll() != null) {
                stranded++;
            }
            r.r1 = global;
            r.r2 = stranded;
        }
    }
}
