package dev.shuttle.scheduler.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A carrier thread as the rest of the scheduler sees it (Go's M without its scheduling loop): which scheduler it
 * serves, its serial in a processor's state word, the processor it holds, whether it runs a task, how much CPU it got,
 * and the mailbox through which {@link HandOff} hands a waiting spare its processor. {@link Carrier} runs the
 * loop on it. Apart so that the classes a carrier calls (the hand-off, the monitor, a processor naming its holder)
 * see only this and never call the loop back.
 *
 * <p>Fields marked "owner" are read and written by this thread only (a virtual thread mounted here runs on this
 * thread too, so the scheduler's entry points reach them through {@code currentCarrier}).
 */
public abstract class CarrierThread extends Thread {
    static final int SPARE_RUNNING = 0;
    static final int SPARE_WAITING = 1;
    static final int SPARE_CLAIMED = 2;
    static final int SPARE_EXITING = 3;
    private static final VarHandle SPARE_STATE;

    static {
        try {
            SPARE_STATE = MethodHandles.lookup().findVarHandle(CarrierThread.class, "spareState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The scheduler this carrier serves: whoever submits or arms from it asks whether it is theirs. */
    public final PoolState state;
    /** Unique in the pool; part of a held processor's state word. */
    final int serial;
    /** Owner: the processor this carrier holds, or null. */
    Processor p;
    /** Owner: the task being run, so that a thread re-submitting itself goes to the tail, not to runNext. */
    Runnable current;
    /** A processor given to this carrier while it waited as a spare; see {@link HandOff}. */
    private volatile Processor handed;
    /** {@link #SPARE_RUNNING} and the spare-waiting states; see {@link HandOff}. */
    @SuppressWarnings("unused") // accessed through SPARE_STATE
    private volatile int spareState;
    /** Set when the thread starts; read by the monitor. */
    private volatile ThreadActivity activity;
    /**
     * Raised by a waker before it looks for this carrier in the network poll; lowered after each sleep there
     * ({@link Netpoll}).
     */
    volatile boolean pollWake;
    /** Owner: this thread's memory for waiting on the poll set, allocated on its first poll. */
    private EPoll.Buffer pollBuffer;

    CarrierThread(PoolState state, ThreadGroup group, int serial, Processor initial) {
        super(group, null, "shuttle-carrier-" + serial, 0, false);
        this.state = state;
        this.serial = serial;
        this.p = initial;
        setDaemon(true);
    }

    /** Owner: this thread's memory for {@link EPoll#wait}, of {@code capacity} events. */
    EPoll.Buffer pollBuffer(int capacity) {
        EPoll.Buffer b = pollBuffer;
        if (b == null) {
            b = pollBuffer = new EPoll.Buffer(capacity);
        }
        return b;
    }

    /** Owner, once, as the thread starts: from now on the monitor can tell whether it is on a CPU. */
    void recordActivity() {
        activity = ThreadActivity.ofCurrentThread();
    }

    /**
     * The task being run, read by the monitor for its JFR events: a racy read of an owner field, which may name the
     * task that just ended; a diagnostic can live with that.
     */
    Runnable currentTask() {
        return current;
    }

    /**
     * True in the scheduling loop itself, false while a task runs. Exact for the owner; another thread (the
     * management counts) reads a plain field and gets an estimate.
     */
    boolean isBetweenTasks() {
        return current == null;
    }

    /** Nanoseconds this thread was on a CPU or waiting for one, or -1 if unknown; see {@link ThreadActivity}. */
    long activeNanos() {
        ThreadActivity a = activity;
        return a == null ? -1 : a.activeNanos();
    }

    /** Whether this thread is on a CPU or runnable right now, as far as known; see {@link ThreadActivity}. */
    boolean isKnownRunnable() {
        ThreadActivity a = activity;
        return a != null && a.isKnownRunnable();
    }

    /** A {@link HandOff} waiter: claims this waiting spare for a hand-off. */
    boolean claimSpare() {
        return SPARE_STATE.compareAndSet(this, SPARE_WAITING, SPARE_CLAIMED);
    }

    /** Whether a hand-off or a resize claimed this spare and has yet to hand it its processor. */
    boolean isClaimedSpare() {
        return (int) SPARE_STATE.getVolatile(this) == SPARE_CLAIMED;
    }

    /** A claimed spare that was not needed after all (the processor it was for was taken back) waits again. */
    void unclaimSpare() {
        SPARE_STATE.setVolatile(this, SPARE_WAITING);
    }

    /** This spare, its keep-alive over, ends unless a hand-off claimed it first. */
    boolean retireSpare() {
        return SPARE_STATE.compareAndSet(this, SPARE_WAITING, SPARE_EXITING);
    }

    void beginWaitingAsSpare() {
        SPARE_STATE.setVolatile(this, SPARE_WAITING);
    }

    /** Gives a claimed spare its processor and wakes it. */
    void hand(Processor proc) {
        handed = proc;
        LockSupport.unpark(this);
    }

    /** The processor handed to this spare, taken once; null if none yet. */
    Processor takeHanded() {
        Processor proc = handed;
        if (proc != null) {
            handed = null;
            SPARE_STATE.setVolatile(this, SPARE_RUNNING);
        }
        return proc;
    }
}
