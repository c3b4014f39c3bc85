package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A wake-up versus a carrier entering the network poll ({@link Netpoll}), on the real class: the sleeper publishes
 * itself as the poll's waiter and then reads its wake flag ({@link Netpoll#enterPoll}); the waker ({@link Idle#unpark}'s
 * {@link Netpoll#wake}) raises the flag and then looks for the carrier in the poll, writing the eventfd if it is there
 * and unparking it otherwise. An unpark does not end {@code epoll_wait}, so the forbidden outcome is the lost wake-up:
 * a sleeper that waits in the poll although the waker only unparked it. The eventfd is level-triggered, so a write
 * before the wait begins still ends it; that half is the kernel's.
 *
 * <p>The pools share one epoll set and one eventfd (real descriptors, made once per JVM): a set per pool would leave
 * jcstress's many states holding thousands of descriptors. Needs native access in the forked JVMs.
 *
 * <p>Mutants ({@code ./shuttle mutants NetpollWakeStress}): {@code sleeper-no-look} (enters without reading its flag),
 * {@code waker-looks-first} (reads {@code waiter} before raising the flag), {@code waker-no-flag}; each shows "1, 0".
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the sleeper saw the flag and does not sleep; the waker unparked")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the sleeper saw the flag; the eventfd write wakes a later sleep")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the sleeper waits in the poll; the waker wrote the eventfd")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "lost wake-up: waiting in epoll_wait, only unparked")
@State
public class NetpollWakeStress {
    private static final int SET = EPoll.create();
    private static final int WAKE_FD = EPoll.eventFd();

    static {
        EPoll.add(SET, WAKE_FD, EPoll.EPOLLIN, Netpoll.WAKE_TAG);
    }

    private final CarrierPool pool = new CarrierPool(1, SpinPolicy.DEFAULT);
    private final CarrierThread carrier = pool.state.processors[0].holder();

    public NetpollWakeStress() {
        pool.netpoll.attach(new Netpoll.Pollers() {
            @Override
            public int[] descriptors() {
                return new int[] {SET};
            }

            @Override
            public int pollNow(int index) {
                return 0;
            }
        }, SET, WAKE_FD);
    }

    @Actor
    public void carrierEntersPoll(II_Result r) {
        r.r1 = pool.netpoll.enterPoll(carrier) == Netpoll.ENTERED ? 1 : 0;
    }

    @Actor
    public void wakerWakes(II_Result r) {
        r.r2 = pool.netpoll.wake(carrier) ? 1 : 0;
    }
}
