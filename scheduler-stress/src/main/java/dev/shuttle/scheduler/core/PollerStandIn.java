package dev.shuttle.scheduler.core;

import java.lang.ref.Cleaner;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One JDK poller as {@link Netpoll} drives it, for the jcstress tests of the network poll, as NetpollTest plays it.
 * Like the JDK's {@code EPollPoller}, its poll takes what is ready from the kernel into one buffer and then hands each
 * event on, so two polls at once hand the same events on twice; it also counts the threads inside its poll and keeps
 * the most seen at once. Two kinds:
 * <ul>
 *   <li>{@link #own()} (NetpollReadinessVersusParkStress): an eventfd, readable while events wait, in an epoll set of
 *       its own built as {@link Netpoll#adopt} builds the pool's ({@link Netpoll#pollSet}, so a mutant of the set shows
 *       here); its poll drains the eventfd.</li>
 *   <li>{@link #sharedSet()} (NetpollClaimStress, whose subject is the claim, not the set): every stand-in of this kind
 *       sits in one JVM-wide set whose descriptor is readable for good, so a look at the set always finds it ready and
 *       its events are counted in Java only; its poll waits on that set without blocking, the JDK poller's own
 *       system call.</li>
 * </ul>
 *
 * <p>Descriptors are a budget: jcstress makes states by the ten thousand (and sizes its batches by heap, not by
 * descriptors), a fork may hold 20,000 descriptors, and {@link EPoll} has no close (a pool's set lives as long as its
 * JVM). An own stand-in's set and eventfd go back to a free list, drained, once it is collected (a {@link Cleaner});
 * when the budget is spent and the list empty, it asks for a collection and waits, and if none comes back it throws
 * {@link OutOfMemoryError}, which jcstress's batch sizing takes as "too many states at once".
 */
final class PollerStandIn implements Netpoll.Pollers {
    /** Every set's wake descriptor: these tests never write it. */
    static final int WAKE_FD = EPoll.eventFd();
    /** Descriptor pairs (set, eventfd) an own stand-in may hold at once, in a fork. */
    private static final int BUDGET = 4_000;
    private static final Cleaner CLEANER = Cleaner.create();
    private static final ConcurrentLinkedQueue<Descriptors> FREE = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger MADE = new AtomicInteger();
    private static final Descriptors SHARED = new Descriptors();

    static {
        EPoll.signal(SHARED.fd, SHARED.signalBuffer);
    }

    private final Descriptors d;
    private final boolean own;
    /** The poll's own memory. */
    private final EPoll.Buffer pollBuffer;
    /** Events waiting in the kernel for this poller: one per {@link #makeReady}, taken by a poll. */
    private volatile int events;
    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger mostInside = new AtomicInteger();

    private PollerStandIn(Descriptors d, boolean own) {
        this.d = d;
        this.own = own;
        this.pollBuffer = own ? d.pollBuffer : new EPoll.Buffer(2);
    }

    /** A stand-in with a set and an eventfd of its own. */
    static PollerStandIn own() {
        PollerStandIn p = new PollerStandIn(takeDescriptors(), true);
        CLEANER.register(p, p.d);
        return p;
    }

    /** A stand-in in the JVM-wide set, always reported ready. */
    static PollerStandIn sharedSet() {
        return new PollerStandIn(SHARED, false);
    }

    private static Descriptors takeDescriptors() {
        Descriptors free = FREE.poll();
        if (free != null) {
            return free;
        }
        if (MADE.getAndIncrement() < BUDGET) {
            return new Descriptors();
        }
        MADE.decrementAndGet();
        System.gc();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < end) {
            if ((free = FREE.poll()) != null) {
                return free;
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new OutOfMemoryError("more than " + BUDGET + " poller stand-ins alive at once");
    }

    /** The epoll set to attach the pool to ({@link Netpoll#attach}). */
    int set() {
        return d.set;
    }

    /** An event arrives: counted, then the descriptor made readable (an own stand-in). */
    void makeReady() {
        events = events + 1;
        if (own) {
            EPoll.signal(d.fd, d.signalBuffer);
        }
    }

    /** The most threads seen inside {@link #pollNow} at once. */
    int mostInside() {
        return mostInside.get();
    }

    /** Whether the set reports this poller ready now (a wait that does not block); for an arbiter, alone. */
    boolean readyInSet() {
        int n = EPoll.wait(d.set, d.setBuffer, 0);
        for (int i = 0; i < n; i++) {
            if (d.setBuffer.data(i) == 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int[] descriptors() {
        return new int[] {d.fd};
    }

    /** The JDK poller's {@code poll(0)}: the system call, then the events read into the one buffer and handed on. */
    @Override
    public int pollNow(int index) {
        mostInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
        if (own) {
            EPoll.drain(d.fd, pollBuffer);
        } else {
            EPoll.wait(d.set, pollBuffer, 0);
        }
        int taken = events;
        events = 0;
        inside.decrementAndGet();
        return taken;
    }

    /** A set holding one eventfd, their native buffers, and the cleaning action that puts them back on the list. */
    private static final class Descriptors implements Runnable {
        final int fd = EPoll.eventFd();
        final int set = Netpoll.pollSet(new int[] {fd}, WAKE_FD);
        final EPoll.Buffer signalBuffer = new EPoll.Buffer(1);
        final EPoll.Buffer pollBuffer = new EPoll.Buffer(1);
        final EPoll.Buffer setBuffer = new EPoll.Buffer(2);

        @Override
        public void run() {
            EPoll.drain(fd, pollBuffer);
            FREE.add(this);
        }
    }
}
