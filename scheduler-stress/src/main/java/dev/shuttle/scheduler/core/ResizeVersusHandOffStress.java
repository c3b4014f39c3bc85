package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.scheduler.jdk.CarrierHooksTransformer;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * A resize retiring processor 1 ({@code CarrierPool.setParallelism(1)}) versus the hand-off of that processor from its
 * carrier in a marked blocking call, and versus that carrier coming back (package-info, "Resizing", the race "Resize
 * vs hand-off of a blocked carrier"). The resize and the hand-off both take the processor by CAS from phase TASK or
 * BLOCKING, and the carrier takes it back by CAS from BLOCKING, so one of them wins. When the hand-off wins, the spare
 * holds the processor in phase LOOP, which only a holder writes, and the resize must wait until the spare gives it up.
 * Nobody looks at a retired processor's queue again, so its threads must reach the global queue whoever won.
 *
 * <p>On the real pool, processor, spare, blocking hooks and resize code; nothing is started. jcstress runs no more
 * actors than there are CPUs (2 here): one actor calls {@code setParallelism}, the other plays the monitor or the
 * blocked carrier and then the spare, in program order. The pool is at its carrier cap, so a hand-off can only use the
 * one prepared spare ({@link HandOffVersusReturnStress#poolAtCap}). A real spare handed a processor runs its loop and
 * gives a retired processor up when it goes to park, or when the resize's unpark wakes it from parking; either way
 * it does so after seeing the flag ({@code Carrier.prepareToPark}). The prepared spare has no thread for that unpark
 * to reach, so it goes to park once the flag is up, which stands for a spare slower than the resize's first look.
 * Processor 1 has two threads waiting: one in runNext, one queued.
 *
 * <p>Results: r1 = who took the processor (per test); r2 = {@code pool.state.blocking} afterwards (0: no processor is
 * in phase BLOCKING any more); r3 = waiting threads found in the global queue exactly once; r4 = copies of them left
 * on processor 1; r5 = 0 if nobody holds processor 1, else the sum of {@link Shrinking#NOT_RETIRED_ON_RETURN},
 * {@link Shrinking#NOT_RETIRED}, {@link Shrinking#SPARE_HOLDS}, {@link Shrinking#LOOP_WORD_TAKEN},
 * {@link Shrinking#SPARE_STUCK} and {@link Shrinking#CARRIER_HOLDS}.
 *
 * <p>Mutants ({@code ./shuttle mutants ResizeVersusHandOffStress}; scheduler-stress/mutants/ResizeVersusHandOffStress):
 * {@code blocking-count-kept} (run against {@link CarrierReturns}), forbidden "0, 1, 3, 0, 0" (blocking count wrong)
 * in 4 of 4 configurations of {@code -m quick -sc false}.
 */
public class ResizeVersusHandOffStress {
    static final String STRANDED = "-?\\d+, -?\\d+, \\d+, [1-9]\\d*, \\d+";
    /** The prefix of an outcome whose blocking count (r2) is not 0. */
    static final String BLOCKING_WRONG = "-?\\d+, (-\\d+|[1-9]\\d*), ";

    /**
     * The monitor hands processor 1 off from phase BLOCKING ({@code HandOff.retake}, as {@code Monitor.lookAt} does
     * for a processor with work waiting) while the resize retires it; then the blocked carrier comes back
     * ({@code Carrier.test(END_BLOCKING)}) and the spare, if it was handed the processor, goes to park. r1: the
     * hand-off succeeded.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 2, 0, 0", expect = ACCEPTABLE, desc = "handed off first; the spare gave the processor up")
    @Outcome(id = "0, 0, 2, 0, 0", expect = ACCEPTABLE, desc = "retired first; the spare waits again, claimable")
    @Outcome(id = STRANDED, expect = FORBIDDEN, desc = "a thread stranded on the retired processor")
    @Outcome(id = "-?\\d+, -?\\d+, [01], 0, \\d+", expect = FORBIDDEN, desc = "a thread lost, or queued twice")
    @Outcome(id = BLOCKING_WRONG + "2, 0, \\d+", expect = FORBIDDEN, desc = "blocking count wrong")
    @Outcome(expect = FORBIDDEN, desc = "a carrier or the spare still holds the retired processor (r5)")
    @State
    public static class MonitorRetake {
        final Shrinking s = new Shrinking();
        final long seenByMonitor;

        public MonitorRetake() {
            s.carrierEntersCallWithNothingWaiting();
            s.threadsWait();
            seenByMonitor = s.proc.state();
        }

        @Actor
        public void resizeShrinks() {
            s.shrink();
        }

        @Actor
        public void monitorHandsOffThenCarrierReturnsThenSpareParks(IIIII_Result r) {
            r.r1 = s.pool.handOff.retake(s.proc, seenByMonitor) ? 1 : 0;
            s.carrierReturns();
            s.spareParks();
        }

        @Arbiter
        public void after(IIIII_Result r) {
            s.result(r, r.r1 == 1, true);
        }
    }

    /**
     * The carrier, with threads waiting on its processor, enters a marked blocking call and hands the processor off
     * at once ({@code Carrier.test(BEGIN_BLOCKING)}, Go's {@code entersyscall} then {@code handoffp}) while the resize
     * retires it; then the call returns ({@code END_BLOCKING}, which the JDK asks only if the begin said yes) and the
     * spare, if handed the processor, goes to park. r1: 0 the resize took the processor before the call began (the
     * carrier learns it at its next CAS, after its task), 1 it took it inside the call before the hand-off, 2 the
     * hand-off came first.
     */
    @JCStressTest
    @Outcome(id = "2, 0, 2, 0, 0", expect = ACCEPTABLE, desc = "handed off first; the spare gave the processor up")
    @Outcome(id = "1, 0, 2, 0, 0", expect = ACCEPTABLE, desc = "retired inside the call; the hand-off found it gone")
    @Outcome(id = "0, 0, 2, 0, 0", expect = ACCEPTABLE, desc = "retired before the call; the carrier did not block")
    @Outcome(id = STRANDED, expect = FORBIDDEN, desc = "a thread stranded on the retired processor")
    @Outcome(id = "-?\\d+, -?\\d+, [01], 0, \\d+", expect = FORBIDDEN, desc = "a thread lost, or queued twice")
    @Outcome(id = BLOCKING_WRONG + "2, 0, \\d+", expect = FORBIDDEN, desc = "blocking count wrong")
    @Outcome(expect = FORBIDDEN, desc = "a carrier or the spare still holds the retired processor (r5)")
    @State
    public static class HandOffOnEntry {
        final Shrinking s = new Shrinking();
        boolean entered;

        public HandOffOnEntry() {
            s.threadsWait();
        }

        @Actor
        public void resizeShrinks() {
            s.shrink();
        }

        @Actor
        public void carrierBlocksThenReturnsThenSpareParks() {
            entered = s.carrierEntersCall();
            if (entered) {
                s.carrierReturns();
            }
            s.spareParks();
        }

        @Arbiter
        public void after(IIIII_Result r) {
            boolean handedOff = s.pool.handOff.handOffs.get() == 1;
            r.r1 = handedOff ? 2 : entered ? 1 : 0;
            s.result(r, handedOff, entered);
        }
    }

    /**
     * The carrier comes back from its marked blocking call ({@code Carrier.test(END_BLOCKING)}, Go's
     * {@code exitsyscall}) while the resize retires its processor, and its virtual thread, running on, wakes a third
     * thread as {@code CarrierPool.execute} does on a carrier. Its task does not end here: a virtual thread may run on
     * for long, so the resize's own drain must move what it queued. r1: the carrier took its processor back.
     */
    @JCStressTest
    @Outcome(id = "1, 0, 3, 0, 0", expect = ACCEPTABLE, desc = "back first; retired from its task, all moved")
    @Outcome(id = "0, 0, 3, 0, 0", expect = ACCEPTABLE, desc = "retired in the call; the carrier learns it lost it")
    @Outcome(id = STRANDED, expect = FORBIDDEN, desc = "a thread stranded on the retired processor")
    @Outcome(id = "-?\\d+, -?\\d+, [012], 0, \\d+", expect = FORBIDDEN, desc = "a thread lost, or queued twice")
    @Outcome(id = BLOCKING_WRONG + "3, 0, \\d+", expect = FORBIDDEN, desc = "blocking count wrong")
    @Outcome(expect = FORBIDDEN, desc = "a carrier still holds the retired processor (r5)")
    @State
    public static class CarrierReturns {
        final Shrinking s = new Shrinking();
        final Runnable wokenAfterCall = () -> { };
        boolean keptProcessor;

        public CarrierReturns() {
            s.carrierEntersCallWithNothingWaiting();
            s.threadsWait();
        }

        @Actor
        public void resizeShrinks() {
            s.shrink();
        }

        @Actor
        public void carrierReturnsThenWakesThread() {
            s.carrierReturns();
            Processor proc = s.carrier.p;
            keptProcessor = proc != null;
            if (proc != null) {
                s.carrier.pushLocal(proc, wokenAfterCall, wokenAfterCall);
            } else {
                s.pool.state.global.offer(wokenAfterCall);
            }
            s.pool.idle.wakep();
        }

        @Arbiter
        public void after(IIIII_Result r) {
            r.r1 = keptProcessor ? 1 : 0;
            s.result(r, false, false, wokenAfterCall);
        }
    }

    /** A pool of two at its carrier cap whose processor 1's carrier runs a task; one spare waits. */
    static final class Shrinking {
        /** The state word was not {@code RETIRED_WORD} when {@code setParallelism} returned. */
        static final int NOT_RETIRED_ON_RETURN = 1;
        /** The state word is not {@code RETIRED_WORD} at the end. */
        static final int NOT_RETIRED = 2;
        /** The spare still names processor 1, or was handed it and never took it: its loop would run it. */
        static final int SPARE_HOLDS = 4;
        /** Someone changed the spare's LOOP word while it held the processor: two holders. */
        static final int LOOP_WORD_TAKEN = 8;
        /** The hand-off did not use the spare, and it is not claimable again: it would never be handed or end. */
        static final int SPARE_STUCK = 16;
        /** The carrier learned in its call that it lost the processor, yet still names it. */
        static final int CARRIER_HOLDS = 32;

        final CarrierPool pool = HandOffVersusReturnStress.poolAtCap(2);
        final Processor proc = pool.state.processors[1];
        final Carrier carrier = (Carrier) proc.holder();
        final Carrier spare = HandOffVersusReturnStress.waitingSpare(pool, HandOffVersusReturnStress.SPARE_SERIAL);
        final Runnable inRunNext = () -> { };
        final Runnable queued = () -> { };
        boolean retiredOnReturn;
        boolean loopWordTaken;

        Shrinking() {
            proc.beginTask(carrier);
        }

        /**
         * Two threads wait on processor 1. Written directly, not pushed by the carrier: where the carrier is already
         * in its call they came after it began (woken there by a carrier that held processor 1 before and whose
         * virtual thread still runs, Processor's class comment), so the call's entry found nothing to hand off for.
         */
        void threadsWait() {
            proc.runQueue.offer(queued);
            proc.runQueue.putRunNext(inRunNext);
        }

        /** The JDK's {@code Blocker.begin} on the carrier; returns whether it moved the processor to phase BLOCKING. */
        boolean carrierEntersCall() {
            return carrier.test(CarrierHooksTransformer.BEGIN_BLOCKING);
        }

        void carrierEntersCallWithNothingWaiting() {
            if (!carrierEntersCall() || proc.state() != Processor.word(carrier, Processor.BLOCKING)) {
                throw new IllegalStateException("nobody else changes processor 1's state, and nothing waits there");
            }
        }

        void carrierReturns() {
            carrier.test(CarrierHooksTransformer.END_BLOCKING);
        }

        void shrink() {
            if (pool.setParallelism(1) != 2) {
                throw new IllegalStateException("nobody else resizes");
            }
            retiredOnReturn = proc.state() == Processor.RETIRED_WORD;
        }

        /** The spare, if handed processor 1, takes it as {@code Carrier.run} does and parks once it is retired. */
        void spareParks() {
            Processor handed = spare.takeHanded();
            if (handed == null) {
                return;
            }
            spare.p = handed;
            while (!handed.retired) {
                Thread.onSpinWait();
            }
            loopWordTaken = handed.state() != Processor.word(spare, Processor.LOOP);
            spare.prepareToPark();
        }

        /**
         * r2 to r5 (class comment). {@code handedOff}: the spare was given the processor, else it must be claimable
         * again; {@code carrierLearned}: the carrier's own CAS told it of the loss, so it must no longer name the
         * processor. Call once, from the arbiter.
         */
        void result(IIIII_Result r, boolean handedOff, boolean carrierLearned, Runnable... more) {
            Runnable[] waiting = new Runnable[2 + more.length];
            waiting[0] = inRunNext;
            waiting[1] = queued;
            System.arraycopy(more, 0, waiting, 2, more.length);
            int[] copies = new int[waiting.length];
            for (Runnable t; (t = pool.state.global.poll()) != null; ) {
                for (int i = 0; i < waiting.length; i++) {
                    if (waiting[i] == t) {
                        copies[i]++;
                    }
                }
            }
            int once = 0;
            for (int c : copies) {
                once += c == 1 ? 1 : 0;
            }
            int stranded = 0;
            while (proc.runQueue.pollRunNext() != null || proc.runQueue.poll() != null) {
                stranded++;
            }
            int held = 0;
            held += retiredOnReturn ? 0 : NOT_RETIRED_ON_RETURN;
            held += proc.state() == Processor.RETIRED_WORD ? 0 : NOT_RETIRED;
            Processor untaken = spare.takeHanded();
            held += spare.p == null && untaken == null ? 0 : SPARE_HOLDS;
            held += loopWordTaken ? LOOP_WORD_TAKEN : 0;
            held += handedOff || spare.claimSpare() ? 0 : SPARE_STUCK;
            held += carrierLearned && carrier.p != null ? CARRIER_HOLDS : 0;
            r.r2 = pool.state.blocking.get();
            r.r3 = once;
            r.r4 = stranded;
            r.r5 = held;
        }
    }
}
