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
 * Readiness versus a carrier going to sleep in the network poll ({@link Netpoll}), on the real class: the carrier
 * polls without blocking between tasks ({@link Netpoll#pollReady}), finds nothing, and sleeps in the poll ({@link
 * Netpoll#sleep(CarrierThread, Processor, Object, long)}) while an event reaches a JDK poller. The poller's descriptor
 * is in the set level-triggered, so readiness that came after the look is still reported by the wait, which returns at
 * once and records the poller in the carrier's {@code readyPollers}; and a poller reported but not yet polled stays
 * ready in the set for the next wait. The forbidden outcomes: the carrier sleeps through readiness that came before
 * its sleep could time out, and readiness reported once and then gone from the set though nobody polled it (a poll
 * that skips a claimed poller, NetpollClaimStress, would lose it).
 *
 * <p>The event arrives once the carrier has looked ({@code looked}): readiness before the look is the look's to
 * find. The sleep is bounded ({@link #SLEEP_NANOS}) so that a sleep through readiness ends and shows; in this test
 * nothing else wakes the carrier. Whether the event came in time is told by the clock: the carrier reads it before it
 * sleeps, so its wait cannot time out before that reading plus its bound; the event's thread reads it after the
 * eventfd is written. (A signal interrupting the wait would look like a sleep through readiness; nothing sends one to
 * a jcstress fork.) Results: r1 = events the carrier's look handed on (0: the event comes after it), r2 (arbiter) =
 * the event was signalled before the sleep could time out, r3 = the sleep recorded the poller ready (0: it timed out),
 * r4 (arbiter) = the set still reports the poller ready.
 *
 * <p>Mutants ({@code ./shuttle mutants NetpollReadinessVersusParkStress}), each caught in 4 of 4 configurations of
 * {@code -m quick -sc false}: {@code set-edge-triggered} (the pollers in the set with {@code EPOLLET}) shows "0, ., 1,
 * 0"; {@code sleep-records-nothing} (the wait returns but the poller is not recorded) and {@code sleep-parks} (the
 * carrier parks instead of waiting in the poll) show "0, 1, 0, 1".
 */
@JCStressTest
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "ready in time: the sleep ended for it; still in the set")
@Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "ready as the sleep timed out: it saw it; still in the set")
@Outcome(id = "0, 0, 0, 1", expect = ACCEPTABLE, desc = "ready after the sleep timed out: in the set for the next")
@Outcome(id = "0, 1, 0, .", expect = FORBIDDEN, desc = "timed out although ready before the timeout")
@Outcome(id = "., ., 1, 0", expect = FORBIDDEN, desc = "reported once, then gone from the set though not polled")
@Outcome(id = "0, ., 0, 0", expect = FORBIDDEN, desc = "lost: neither polled, recorded nor in the set")
@Outcome(expect = FORBIDDEN, desc = "other")
@State
public class NetpollReadinessVersusParkStress {
    /**
     * The carrier's bound on its sleep: long beside the microseconds the event takes to arrive, so most events come in
     * time; short, since a sleep through readiness (a mutant) lasts all of it in each sample.
     */
    static final long SLEEP_NANOS = 1_000_000;

    private final PollerStandIn poller = PollerStandIn.own();
    private final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);
    private final Processor proc = pool.state.processors[0];
    private final CarrierThread carrier = proc.holder();
    private volatile boolean looked;
    /** The carrier's clock before it sleeps. */
    private long sleepFrom;
    /** The event's clock once the eventfd is written. */
    private long signalledAt;

    public NetpollReadinessVersusParkStress() {
        pool.netpoll.attach(poller, poller.set(), PollerStandIn.WAKE_FD);
    }

    @Actor
    public void carrierLooksThenSleeps(IIII_Result r) {
        r.r1 = pool.netpoll.pollReady(carrier, proc);
        looked = true;
        sleepFrom = System.nanoTime();
        pool.netpoll.sleep(carrier, proc, this, SLEEP_NANOS);
        r.r3 = proc.readyPollers != 0 ? 1 : 0;
    }

    @Actor
    public void eventArrivesAfterTheLook() {
        while (!looked) {
            Thread.onSpinWait();
        }
        poller.makeReady();
        signalledAt = System.nanoTime();
    }

    @Arbiter
    public void setStillReports(IIII_Result r) {
        r.r2 = signalledAt - sleepFrom < SLEEP_NANOS ? 1 : 0;
        r.r4 = poller.readyInSet() ? 1 : 0;
    }
}
