package dev.shuttle.scheduler.core;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Blocking (Go's {@code entersyscall}, {@code exitsyscall}, {@code handoffp} and {@code startm}, with the idle M list):
 * a carrier entering and leaving a call the JDK marks as blocking, the hand-off of a processor whose carrier is stuck
 * (in such a call, blocked in the kernel, or past its time slice) to another carrier thread, and the carrier threads
 * beyond the processors' own: where a handed-off processor finds a thread, and where a carrier that lost its processor
 * waits. One class because the three are one protocol on the processor's state word: a hand-off may happen only
 * while the carrier is in phase BLOCKING or TASK, takes the thread before the processor, and counts
 * {@code state.blocking} down exactly once whether the carrier came back or the processor was taken.
 *
 * <p>Entering and leaving. {@link #enterBlocking} moves the processor to phase BLOCKING by CAS and counts it in
 * {@code state.blocking}; if work waits it is handed off at once ({@link #handOffIfWorkWaits}), otherwise the monitor
 * or a waker that finds no idle processor may hand it off later. {@link #exitBlocking} takes it back by CAS if nobody
 * took it ({@code HandOffVersusReturnStress}).
 *
 * <p>Spares. A spare waits parked, at most the keep-alive, then ends, so the thread count returns to {@code
 * parallelism} once nothing blocks. At most {@code maxCarriers} carrier threads live at once; at the cap a hand-off
 * does not happen (the processor's work waits for its carrier, as it would without Shuttle's help) and one WARNING is
 * logged.
 *
 * <p>The hand-off race. A spare is claimed with a CAS on its spare state ({@code WAITING -> CLAIMED}), and ends only
 * by the CAS {@code WAITING -> EXITING}: a claimed spare never ends, an ending spare is never handed a processor.
 * The claimer takes the processor from its stuck carrier ({@link Processor#tryRetake}) only after it has a thread
 * for it, so a processor is never taken and left without a carrier; if the take fails (the stuck carrier came back
 * first), the spare goes back to waiting ({@code SpareClaimVersusRetireStress}).
 *
 * <p>It reads the {@link PoolState} and the processors' state words and calls nothing above it: the wake-ups call
 * {@link #retakeBlocked} when they find no idle processor, the monitor {@link #retake}, the carriers the rest. A
 * spare carrier waiting for a processor is unparked here, not through the wake-ups: it holds no processor yet.
 */
public final class HandOff {
    private static final System.Logger LOG = System.getLogger("dev.shuttle.scheduler");

    private final PoolState state;
    private final NewCarrier newCarrier;
    /** Raised by a resize to at least the new parallelism, never lowered. */
    private volatile int maxCarriers;
    private final long keepAliveNanos;
    /**
     * The group of every carrier thread: the creating thread's, taken once, since hand-offs create carriers from
     * whatever thread hands off (the monitor, a virtual thread entering a blocking call, a submitter), and a virtual
     * thread's group is not one for platform threads.
     */
    private final ThreadGroup group;
    /** Waiting spares, most recently parked first (its stack is warmest); may hold claimed or ended ones. */
    private final ConcurrentLinkedDeque<CarrierThread> waiting = new ConcurrentLinkedDeque<>();
    /** Every carrier thread created and not yet ended, for {@code close} to join. */
    private final Set<CarrierThread> live = ConcurrentHashMap.newKeySet();
    private final AtomicInteger count = new AtomicInteger();
    private final AtomicInteger nextSerial = new AtomicInteger();
    /** Processors handed from a stuck carrier to another one. */
    public final AtomicLong handOffs = new AtomicLong();
    private volatile boolean warnedAtCap;

    HandOff(PoolState state, int maxCarriers, long keepAliveNanos, NewCarrier newCarrier) {
        this.state = state;
        this.newCarrier = newCarrier;
        this.maxCarriers = maxCarriers;
        this.keepAliveNanos = keepAliveNanos;
        ThreadGroup g = Thread.currentThread().getThreadGroup();
        if (Thread.currentThread().isVirtual()) {
            while (g.getParent() != null) {
                g = g.getParent();
            }
        }
        this.group = g;
    }

    /** The processors' first carriers, one each, not yet started. */
    CarrierThread createInitial(Processor proc) {
        count.incrementAndGet();
        CarrierThread c = newCarrier.create(group, nextSerial.getAndIncrement(), proc);
        proc.bindInitial(c);
        live.add(c);
        return c;
    }

    /**
     * A resize adds {@code proc}: binds it, in phase LOOP, to a waiting spare or to a new carrier thread (whatever the
     * cap: the cap is at least the parallelism), which {@link #launch} then wakes or starts.
     */
    CarrierThread bindCarrier(Processor proc) {
        CarrierThread c = claimWaiting();
        if (c == null) {
            return createInitial(proc);
        }
        proc.bindInitial(c);
        return c;
    }

    /**
     * Hands {@code proc} to the carrier {@link #bindCarrier} bound to it if that was a spare it claimed, or starts it.
     * Told apart by the spare's mailbox, not by the thread's state, so that a jcstress test can play a spare that
     * was never started ({@code GrowVersusWakeStress}), as the hand-off tests do.
     */
    void launch(CarrierThread c, Processor proc) {
        if (c.isClaimedSpare()) {
            c.hand(proc);
        } else {
            c.start();
        }
    }

    /** Keeps the cap at least {@code parallelism}, as the builder requires. */
    void raiseCap(int parallelism) {
        if (maxCarriers < parallelism) {
            maxCarriers = parallelism;
        }
    }

    /**
     * Go's {@code entersyscall} for a call the JDK marks as blocking: moves {@code proc} to phase BLOCKING, where the
     * monitor or a waker that finds no idle processor may hand it to another carrier. Returns false if {@code proc}
     * is no longer {@code self}'s. A CAS and a count only: nothing here can unmount the calling virtual thread.
     */
    boolean enterBlocking(Processor proc, CarrierThread self) {
        if (!proc.enterBlocking(self)) {
            return false;
        }
        state.blocking.incrementAndGet();
        return true;
    }

    /** Hands {@code proc}, just put in phase BLOCKING by {@code self}, to another carrier at once if work waits. */
    void handOffIfWorkWaits(Processor proc, CarrierThread self) {
        if (proc.hasWaitingWork(System.nanoTime()) || (state.idle.count() == 0 && state.hasGlobalWork())) {
            retake(proc, Processor.word(self, Processor.BLOCKING));
        }
    }

    /** Go's {@code exitsyscall}: takes {@code proc} back if nobody took it; returns false if it was taken. */
    boolean exitBlocking(Processor proc, CarrierThread self) {
        if (!proc.exitBlocking(self)) {
            return false;
        }
        state.blocking.decrementAndGet();
        return true;
    }

    /**
     * Moves {@code proc}, seen in {@code expected} (its carrier in a task or a marked blocking call), to another
     * carrier thread. Returns whether it did.
     */
    boolean retake(Processor proc, long expected) {
        if (!handOff(proc, expected)) {
            return false;
        }
        if (Processor.phaseOf(expected) == Processor.BLOCKING) {
            state.blocking.decrementAndGet();
        }
        return true;
    }

    /**
     * Go's {@code handoffp} from a waker that found no idle processor: hands the first processor whose carrier sits
     * in a marked blocking call to another carrier thread. Returns whether it did.
     */
    boolean retakeBlocked() {
        if (state.blocking.get() == 0) {
            return false;
        }
        for (Processor proc : state.processors) {
            long s = proc.state();
            if (Processor.phaseOf(s) == Processor.BLOCKING && retake(proc, s)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The thread half of {@link #retake}: moves {@code proc}, seen in state {@code expected}, to a
     * spare or new carrier thread. Returns false if the state changed meanwhile or no thread may be added.
     */
    private boolean handOff(Processor proc, long expected) {
        CarrierThread spare = claimWaiting();
        boolean fresh = false;
        if (spare == null) {
            spare = createIfBelowCap();
            if (spare == null) {
                return false;
            }
            fresh = true;
        }
        if (!proc.tryRetake(expected, spare)) {
            if (fresh) {
                count.decrementAndGet();
            } else {
                spare.unclaimSpare();
                waiting.addFirst(spare);
                LockSupport.unpark(spare);
            }
            return false;
        }
        handOffs.incrementAndGet();
        if (fresh) {
            spare.p = proc;
            live.add(spare);
            spare.start();
        } else {
            spare.hand(proc);
        }
        return true;
    }

    private CarrierThread claimWaiting() {
        CarrierThread c;
        while ((c = waiting.pollFirst()) != null) {
            if (c.claimSpare()) {
                return c;
            }
        }
        return null;
    }

    private CarrierThread createIfBelowCap() {
        for (int n = count.get(); ; n = count.get()) {
            if (n >= maxCarriers) {
                if (!warnedAtCap) {
                    warnedAtCap = true;
                    LOG.log(Level.WARNING, "Shuttle: all " + maxCarriers + " carrier threads are in use (maxCarriers);"
                            + " work waits for a blocked carrier to return. Raise shuttle.maxCarriers if this is"
                            + " expected load.");
                }
                return null;
            }
            if (count.compareAndSet(n, n + 1)) {
                return newCarrier.create(group, nextSerial.getAndIncrement(), null);
            }
        }
    }

    /**
     * A carrier without a processor waits here: returns the processor it is handed, or null when its keep-alive ran
     * out or the pool stops (the carrier then ends).
     */
    Processor awaitProcessor(CarrierThread self) {
        beginWaiting(self);
        long deadline = System.nanoTime() + keepAliveNanos;
        for (;;) {
            Processor proc = self.takeHanded();
            if (proc != null) {
                return proc;
            }
            long left = deadline - System.nanoTime();
            if ((left <= 0 || state.isStopping()) && retire(self)) {
                return null;
            }
            // Claimed but not yet handed: the claimer is about to give a processor or put us back.
            LockSupport.parkNanos(this, left > 0 ? left : 1_000);
        }
    }

    /**
     * The first, non-blocking step of {@link #awaitProcessor}: {@code self} becomes a waiting spare that a hand-off may
     * claim. Apart, with {@link #retire}, so that {@code SpareClaimVersusRetireStress} can play the spare.
     */
    void beginWaiting(CarrierThread self) {
        self.beginWaitingAsSpare();
        waiting.addFirst(self);
    }

    /** The spare's keep-alive ran out: it ends, unless a hand-off claimed it first (then it waits to be handed). */
    boolean retire(CarrierThread self) {
        if (!self.retireSpare()) {
            return false;
        }
        waiting.remove(self);
        return true;
    }

    /** A carrier thread ends. */
    void ended(CarrierThread c) {
        if (live.remove(c)) {
            count.decrementAndGet();
        }
    }

    /** CarrierThread threads alive now: the processors' carriers, spares, and carriers that lost a processor. */
    public int carrierThreads() {
        return count.get();
    }

    /** The cap on carrier threads alive at once. */
    int maxCarriers() {
        return maxCarriers;
    }

    /** CarrierThread threads running a virtual thread now; a racy estimate. */
    int mountedCount() {
        int mounted = 0;
        for (CarrierThread c : live) {
            if (!c.isBetweenTasks()) {
                mounted++;
            }
        }
        return mounted;
    }

    /** Wakes every waiting spare so that it sees the pool stopping. */
    void stop() {
        for (CarrierThread c : waiting) {
            LockSupport.unpark(c);
        }
    }

    void joinAll() throws InterruptedException {
        for (;;) {
            CarrierThread any = null;
            for (CarrierThread c : live) {
                any = c;
                break;
            }
            if (any == null) {
                return;
            }
            LockSupport.unpark(any);
            any.join(10);
        }
    }

    /**
     * Makes a carrier thread, not started: the composition root knows every part a carrier calls, this class only
     * when it needs one.
     */
    @FunctionalInterface
    interface NewCarrier {
        CarrierThread create(ThreadGroup group, int serial, Processor initial);
    }
}
