package dev.shuttle.scheduler.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The network poller as part of idleness (Go's {@code netpoll}): with the agent, the carriers drive the JDK's own
 * pollers instead of the JDK's {@code MasterPoller} thread and sub-poller virtual threads. One idle carrier at a time
 * sleeps in {@code epoll_wait} on a set of Shuttle's own ({@link EPoll}) holding every JDK poller's epoll descriptor
 * and an eventfd; the others park as before. Readiness on a poller's descriptor ends that sleep; the carrier gets up
 * and, between tasks, has the ready pollers poll without blocking, so the virtual threads they unpark queue on its own
 * processor, as threads woken by its own timers do ({@link CarrierPool#execute}). Carriers that run out of work poll
 * without blocking while nobody sleeps in the poll, and the monitor polls when nobody has for
 * {@link #MONITOR_POLL_AFTER_NANOS}.
 *
 * <p>Invariants and how each race is closed:
 * <ul>
 *   <li><b>At most one carrier sleeps in the poll</b> ({@code waiter}, claimed by CAS, Go's {@code sched.lastpoll ==
 *       0}). A carrier that finds the slot taken parks as before.</li>
 *   <li><b>Waking the poll sleeper is not lost.</b> {@link Idle#unpark} is the one unpark of an idle carrier; with the
 *       pollers adopted it calls {@link #wake}, which raises the carrier's {@code pollWake} flag and then reads
 *       {@code waiter}: the sleeper, if it is {@code waiter}, gets an eventfd write, any other carrier an unpark. The
 *       sleeper claims {@code waiter} and then reads its flag, and does not wait if it is raised. Both sides write,
 *       then read, with volatile accesses: a waker that read {@code waiter} before the claim has raised the flag
 *       before the sleeper reads it. The eventfd is level-triggered: a write before the wait makes the wait return at
 *       once (NetpollWakeStress).</li>
 *   <li><b>Readiness is not lost.</b> The JDK's pollers are in the set level-triggered ({@link #pollSet}): a poller
 *       with events no one has polled keeps its descriptor readable, so the next wait, blocking or not, reports it,
 *       and readiness that comes after a carrier's last look ends its sleep in the poll at once. A sleeper that wakes
 *       for readiness records the ready pollers in its processor ({@link Processor#readyPollers}), gets up as for a
 *       due timer ({@link Idle#awaitWake}), and polls them in {@link #pollReady} before it looks for other work
 *       (NetpollReadinessVersusParkStress).</li>
 *   <li><b>One poller polls on one thread at a time</b> (the JDK's {@code EPollPoller} polls into one buffer): a
 *       claim per poller ({@code claims}, CAS 0 to 1 around its poll, then 0); a thread that finds it claimed skips
 *       it: the holder takes what was ready when it polled, and what came later stays readable in the set
 *       (NetpollClaimStress).</li>
 * </ul>
 * Only a pool the JDK's pollers were handed to ({@link #adopt}, from {@link NetpollInstall}) polls; in every other pool
 * {@link #sleep} parks and {@link #wake} unparks, as before.
 *
 * <p>It calls nothing above it: {@link Idle}, {@link TimerSleepers}, the carriers and the monitor call it; it calls
 * {@link EPoll} and the pollers' own poll.
 */
public final class Netpoll {
    private static final System.Logger LOG = System.getLogger("dev.shuttle.scheduler");
    /**
     * How long the pollers may go unpolled while every carrier is busy before the monitor polls: Go's {@code sysmon}
     * bound. Readiness that arrives then waits for a carrier to come free anyway; a carrier that runs out of work polls
     * first (docs/design.md, "The network poller").
     */
    static final long MONITOR_POLL_AFTER_NANOS = 10_000_000;
    /** The eventfd's tag in the set; pollers are tagged by their index, below this. */
    static final long WAKE_TAG = 64;
    static final int MAX_POLLERS = 64;
    /** {@link #enterPoll}: the caller holds the poll and must wait in it, then {@link #waitInPoll}. */
    static final int ENTERED = 0;
    /** {@link #enterPoll}: another carrier sleeps in the poll (or none is adopted); the caller parks. */
    static final int SLOT_TAKEN = 1;
    /** {@link #enterPoll}: a waker came first; the caller must not sleep. */
    static final int WOKEN = 2;
    private static final int EVENTS_PER_WAIT = MAX_POLLERS + 1;
    private static final VarHandle WAITER;

    static {
        try {
            WAITER = MethodHandles.lookup().findVarHandle(Netpoll.class, "waiter", CarrierThread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The JDK's pollers, once adopted; null before (and forever in a pool they were not handed to). */
    private volatile Pollers pollers;
    private int epfd = -1;
    private int wakeFd = -1;
    /** The carrier sleeping in the poll, or null. */
    @SuppressWarnings("unused") // accessed through WAITER
    private volatile CarrierThread waiter;
    /** When a poll last ended (nanoTime), for the monitor; written on each poll, read by the monitor. */
    private volatile long lastPoll;
    /** Per poller: 1 while a thread polls it. */
    private AtomicIntegerArray claims;
    /** The monitor's events; the monitor thread only. */
    private EPoll.Buffer monitorBuffer;
    /** The word wakers write to the eventfd: shared, since every waker writes the same value. */
    private EPoll.Buffer signalBuffer;
    /** Monitor-owned counts of its polls and what they found, read by {@code SchedulerCounters}. */
    public long monitorPolls;
    public long monitorDescriptors;

    /**
     * The JDK's pollers as Shuttle drives them: their epoll descriptors and a poll of each without blocking. The
     * bridge ({@code dev.shuttle.scheduler.jdk.JdkPollers}) provides them; tests play them with descriptors of
     * their own.
     */
    interface Pollers {
        /** The epoll descriptor of each poller, in the order {@link #pollNow} takes. */
        int[] descriptors();

        /** Polls poller {@code index} without blocking; returns how many descriptors it found ready and unparked. */
        int pollNow(int index);
    }

    /**
     * Takes over {@code jdkPollers}: builds the epoll set and publishes them, after which idle carriers sleep in the
     * poll. Called once, by the thread that initialises the JDK's {@code Poller} (a virtual thread about to park on
     * one, so its carrier comes to the poll soon); a carrier parked before still parks until woken, and the monitor
     * polls meanwhile.
     */
    void adopt(Pollers jdkPollers) {
        int[] fds = jdkPollers.descriptors();
        if (fds.length == 0 || fds.length > MAX_POLLERS) {
            throw new IllegalArgumentException("cannot drive " + fds.length + " pollers (1 to " + MAX_POLLERS + ")");
        }
        int efd = EPoll.eventFd();
        attach(jdkPollers, pollSet(fds, efd), efd);
    }

    /**
     * A new epoll set holding {@code fds}, each tagged by its index, and the eventfd {@code efd}, tagged {@link
     * #WAKE_TAG}, all level-triggered: a poller's descriptor stays ready in it until the poller is polled, which the
     * class comment's "Readiness is not lost" rests on (NetpollClaimStress, NetpollReadinessVersusParkStress).
     */
    static int pollSet(int[] fds, int efd) {
        int set = EPoll.create();
        for (int i = 0; i < fds.length; i++) {
            EPoll.add(set, fds[i], EPoll.EPOLLIN, i);
        }
        EPoll.add(set, efd, EPoll.EPOLLIN, WAKE_TAG);
        return set;
    }

    /**
     * Publishes {@code jdkPollers} with {@code set}, an epoll set that holds their descriptors (tagged by index) and
     * {@code efd}, the eventfd wakers write (tagged {@code WAKE_TAG}). The second half of {@link #adopt}; on its own,
     * for tests that share one set among many pools.
     */
    synchronized void attach(Pollers jdkPollers, int set, int efd) {
        if (pollers != null) {
            throw new IllegalStateException("the JDK's pollers were adopted already");
        }
        this.epfd = set;
        this.wakeFd = efd;
        this.claims = new AtomicIntegerArray(jdkPollers.descriptors().length);
        this.monitorBuffer = new EPoll.Buffer(EVENTS_PER_WAIT);
        this.signalBuffer = new EPoll.Buffer(1);
        this.lastPoll = System.nanoTime();
        this.pollers = jdkPollers;
    }

    // ---- Sleeping and waking ----

    /**
     * An idle carrier's sleep, {@code nanos} long (negative: until woken): in the poll if nobody sleeps there, else
     * parked. Returns early when woken ({@link #wake}) or when a poller is ready (recorded in {@code
     * proc.readyPollers}); a spurious return is possible, as with any park, and the caller re-checks its state.
     */
    void sleep(Processor proc, Object blocker, long nanos) {
        if (Thread.currentThread() instanceof CarrierThread self) {
            sleep(self, proc, blocker, nanos);
        } else {
            park(blocker, nanos);
        }
    }

    /**
     * The sleep of carrier {@code self}, which the caller runs as: {@link #sleep(Processor, Object, long)} once it
     * knows the carrier; on its own for NetpollReadinessVersusParkStress, whose actors play a carrier.
     */
    void sleep(CarrierThread self, Processor proc, Object blocker, long nanos) {
        switch (enterPoll(self)) {
            case ENTERED -> waitInPoll(self, proc, nanos);
            case SLOT_TAKEN -> {
                // Any waker that raised the flag before this also unparked us (we were not the poll's waiter), so
                // lowering it loses nothing and spares our next sleep in the poll a spurious return.
                self.pollWake = false;
                park(blocker, nanos);
            }
            default -> {
                // WOKEN: a waker raised our flag, and may have written the eventfd rather than unparked us.
            }
        }
    }

    /**
     * The publishing half of a sleep in the poll: claim {@code waiter}, then read our wake flag (the class comment's
     * handshake; NetpollWakeStress). On {@link #WOKEN} the slot is given back and the flag cleared.
     */
    int enterPoll(CarrierThread self) {
        if (pollers == null || !WAITER.compareAndSet(this, null, self)) {
            return SLOT_TAKEN;
        }
        if (self.pollWake) {
            leavePoll(self);
            return WOKEN;
        }
        return ENTERED;
    }

    private void leavePoll(CarrierThread self) {
        WAITER.setVolatile(this, (CarrierThread) null);
        self.pollWake = false;
    }

    /** Waits in the poll, which the caller entered, and leaves it. */
    private void waitInPoll(CarrierThread self, Processor proc, long nanos) {
        try {
            EPoll.Buffer buffer = self.pollBuffer(EVENTS_PER_WAIT);
            int n = EPoll.wait(epfd, buffer, nanos);
            proc.pollsBlocking++;
            for (int i = 0; i < n; i++) {
                long tag = buffer.data(i);
                if (tag == WAKE_TAG) {
                    EPoll.drain(wakeFd, buffer);
                } else {
                    proc.readyPollers |= 1L << tag;
                }
            }
        } finally {
            leavePoll(self);
            lastPoll = System.nanoTime();
        }
    }

    private static void park(Object blocker, long nanos) {
        if (nanos < 0) {
            LockSupport.park(blocker);
        } else if (nanos > 0) {
            LockSupport.parkNanos(blocker, nanos);
        }
    }

    /**
     * Wakes carrier {@code c} from its sleep, or makes its next sleep return at once: the one way {@link Idle} ends an
     * idle carrier's sleep. The flag comes first, then the look at {@code waiter} (see the class comment). Returns
     * whether it wrote the eventfd (rather than unparked).
     */
    boolean wake(CarrierThread c) {
        if (pollers == null) {
            LockSupport.unpark(c);
            return false;
        }
        c.pollWake = true;
        if (WAITER.getVolatile(this) == c) {
            EPoll.signal(wakeFd, signalBuffer);
            return true;
        }
        LockSupport.unpark(c);
        return false;
    }

    // ---- Polling without blocking ----

    /**
     * A carrier between tasks polls: the pollers its sleep found ready, else, while nobody sleeps in the poll, every
     * ready one (one {@code epoll_wait} that does not block). The threads they unpark queue on {@code proc}. Returns
     * the number of descriptors found ready.
     */
    int pollReady(CarrierThread self, Processor proc) {
        Pollers ps = pollers;
        if (ps == null) {
            return 0;
        }
        long ready = proc.readyPollers;
        if (ready != 0) {
            proc.readyPollers = 0;
        } else if (WAITER.getVolatile(this) == null) {
            ready = readyNow(self.pollBuffer(EVENTS_PER_WAIT));
            proc.pollsNonBlocking++;
        } else {
            return 0;
        }
        int found = pollEach(ps, ready);
        proc.polledDescriptors += found;
        return found;
    }

    /**
     * The monitor's poll: when nobody sleeps in the poll and nobody polled for {@link #MONITOR_POLL_AFTER_NANOS},
     * poll every ready poller; the threads unparked go to the global queue. Returns the descriptors found ready. Never
     * throws: a poll that fails is logged and the monitor goes on (a carrier's failed poll is its loop's to log).
     */
    int monitorPoll(long now) {
        Pollers ps = pollers;
        if (ps == null || WAITER.getVolatile(this) != null
                || now - lastPoll < MONITOR_POLL_AFTER_NANOS) {
            return 0;
        }
        try {
            long ready = readyNow(monitorBuffer);
            int found = pollEach(ps, ready);
            monitorPolls++;
            monitorDescriptors += found;
            return found;
        } catch (RuntimeException e) {
            lastPoll = now;
            LOG.log(System.Logger.Level.ERROR, "Shuttle: the monitor's network poll failed; it tries again after "
                    + MONITOR_POLL_AFTER_NANOS / 1_000_000 + " ms", e);
            return 0;
        }
    }

    /** The pollers whose descriptors are ready now, as a bit set; does not block. */
    private long readyNow(EPoll.Buffer buffer) {
        int n = EPoll.wait(epfd, buffer, 0);
        long ready = 0;
        for (int i = 0; i < n; i++) {
            long tag = buffer.data(i);
            if (tag != WAKE_TAG) {
                ready |= 1L << tag;
            }
        }
        lastPoll = System.nanoTime();
        return ready;
    }

    private int pollEach(Pollers ps, long ready) {
        int found = 0;
        AtomicIntegerArray claimed = claims;
        for (long bits = ready; bits != 0; bits &= bits - 1) {
            int i = Long.numberOfTrailingZeros(bits);
            if (claimed.compareAndSet(i, 0, 1)) {
                try {
                    found += ps.pollNow(i);
                } finally {
                    claimed.set(i, 0);
                }
            }
        }
        return found;
    }

    /** The carrier sleeping in the poll, or null. A snapshot, for tests and monitoring. */
    CarrierThread waiter() {
        return (CarrierThread) WAITER.getVolatile(this);
    }
}
