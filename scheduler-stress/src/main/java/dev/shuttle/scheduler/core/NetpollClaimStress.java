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
 * Two threads poll the same ready JDK poller ({@link Netpoll}'s claim per poller), on the real class: a carrier whose
 * sleep in the poll found the poller ready ({@link Netpoll#pollReady} with the poller in its {@code readyPollers})
 * and the monitor ({@link Netpoll#monitorPoll}, which looks at the set without blocking first). The JDK's {@code
 * EPollPoller} polls into one buffer, so two polls at once hand the same events on twice (a handler run twice) or
 * corrupt them; the claim (a CAS 0 to 1 around the poll, then 0 again) lets one poll and the other skip. Skipping
 * loses nothing: the holder takes what was ready, and the set, level-triggered, reports what came after
 * (NetpollReadinessVersusParkStress checks that half).
 *
 * <p>The poller ({@link PollerStandIn#sharedSet()}: the set always reports it ready, so the monitor always tries the
 * claim) holds one event when the actors start. Results: r1 = events the carrier's
 * poll handed on, r2 = the monitor's, r3 = the most threads inside the poller's poll at once, r4 (arbiter) = what a
 * later poll hands on after one more event arrives: 1, unless the claim was never given back.
 *
 * <p>Mutants ({@code ./shuttle mutants NetpollClaimStress}), each caught in 4 of 4 configurations of {@code -m quick
 * -sc false}: {@code claim-plain-set} (the CAS made a plain set) and {@code claim-released-before-poll} show both
 * inside at once ("., ., 2, ."; a few hundred samples), now and then handing the event on twice; {@code
 * claim-never-released} shows the later poll skipped ("., ., ., 0") in every sample.
 */
@JCStressTest
@Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "the carrier polled; the monitor skipped it or found it taken")
@Outcome(id = "0, 1, 1, 1", expect = ACCEPTABLE, desc = "the monitor polled; the carrier found it claimed")
@Outcome(id = "., ., 2, .", expect = FORBIDDEN, desc = "two threads inside the poller's poll at once")
@Outcome(id = "1, 1, ., .", expect = FORBIDDEN, desc = "the event handed on twice")
@Outcome(id = "0, 0, ., .", expect = FORBIDDEN, desc = "the event handed on by nobody, though both polled")
@Outcome(id = "., ., ., 0", expect = FORBIDDEN, desc = "a later poll skipped the ready poller: the claim was kept")
@Outcome(expect = FORBIDDEN, desc = "other")
@State
public class NetpollClaimStress {
    /** Far enough past the last poll that the monitor polls. */
    private static final long MONITOR_LATE = 2 * Netpoll.MONITOR_POLL_AFTER_NANOS;

    private final PollerStandIn poller = PollerStandIn.sharedSet();
    private final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);
    private final Processor proc = pool.state.processors[0];
    private final CarrierThread carrier = proc.holder();

    public NetpollClaimStress() {
        pool.netpoll.attach(poller, poller.set(), PollerStandIn.WAKE_FD);
        poller.makeReady();
        proc.readyPollers = 1L;
    }

    @Actor
    public void carrierPollsWhatItsSleepFound(IIII_Result r) {
        r.r1 = pool.netpoll.pollReady(carrier, proc);
    }

    @Actor
    public void monitorPolls(IIII_Result r) {
        r.r2 = pool.netpoll.monitorPoll(System.nanoTime() + MONITOR_LATE);
    }

    @Arbiter
    public void laterPoll(IIII_Result r) {
        r.r3 = poller.mostInside();
        poller.makeReady();
        r.r4 = pool.netpoll.pollReady(carrier, proc);
    }
}
