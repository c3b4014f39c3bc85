package dev.shuttle.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * An exclusive synchronizer after Go's spin-bit runtime mutex: at most one waiter spins, the
 * others sleep on a LIFO stack, a release wakes a sleeper only when nobody is spinning, the
 * oldest sleeper is woken at most once a millisecond regardless, and a waiter that has starved for
 * 4 ms in {@link #acquire} reserves the next release. Its fields and the argument that no wake-up
 * is lost are in the package documentation.
 *
 * <p>Why a class of its own rather than AQS: AQS queues waiters FIFO and wakes one per contended
 * release; this one skips the wake-up while a spinner exists, which is what saves the CPU and the
 * scheduler trips that a wake-up per hand-off costs, most of all for virtual threads.
 *
 * <p>What a subclass defines: the lock bits, an {@code int} of their own, through {@link
 * #tryAcquireBits} (as a pure function of the bits: whether the caller can acquire and what
 * acquiring leaves; 0 means free, and acquiring from 0 must succeed); a release subtracts what the
 * holder acquired, all of it at once. Whether the calling thread holds the synchronizer ({@link
 * #isHeldExclusively}, which conditions check), and what a condition wait saves and restores of
 * the holder ({@link #saveForWait}, {@link #restoreAfterWait}). Owner thread and hold count belong
 * in plain subclass fields: only the holder writes them, and the acquiring CAS and the release's
 * volatile store publish them. This class does everything else.
 */
public abstract class SpinBitSynchronizer {
    /** Returned by {@link #tryAcquireBits} when the synchronizer is not available. */
    protected static final int FAILED = -1;

    /** Go's mutexActiveSpinCount: rounds of busy-waiting before the spinner sleeps. */
    static final int ACTIVE_SPIN_COUNT = Runtime.getRuntime().availableProcessors() > 1 ? 4 : 0;
    /** Go's mutexActiveSpinSize: pauses per round. */
    static final int ACTIVE_SPIN_SIZE = 30;
    /**
     * The oldest sleeper is woken at most this often. Go wakes it on one contended unlock in 16
     * regardless of time; with critical sections of a few nanoseconds that is a wake-up every
     * hundred or so nanoseconds, each a futex call on the releasing thread and a thread that spins
     * for nothing. Bounding by time keeps the starvation bound and drops the cost.
     */
    static final long TAIL_WAKE_NANOS = 1_000_000L;
    /**
     * Contended releases that see a spinner read the clock about this often, to decide whether a
     * tail wake is due. The clock is not free, and such releases are the common case
     * under contention: a woken thread holds the spin role for its whole wake-up latency.
     */
    static final long TAIL_CHECK_NANOS = 100_000L;
    /**
     * Fewest and most releases between two clock reads. The most bounds how late a tail wake can
     * be if releases slow down suddenly while spinners keep the clock unread.
     */
    static final int MIN_CHECK_PERIOD = 16;
    static final int MAX_CHECK_PERIOD = 1 << 12;
    /**
     * A woken waiter that has waited longer than this in {@link #acquire} reserves the next
     * release. Go's sync.Mutex uses 1 ms for its starvation mode; each reserved hand-off costs a
     * wake-up during which nobody runs the critical section, so a few milliseconds keeps that
     * under a percent.
     */
    static final long STARVE_NANOS = 4_000_000L;
    /** The value of {@link #handoff} once a release has passed the held lock to the reserver. */
    private static final Object GRANTED = new Object();

    private static final VarHandle STATE;
    private static final VarHandle SPINNING;
    private static final VarHandle HEAD;
    private static final VarHandle HANDOFF;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(SpinBitSynchronizer.class, "state", int.class);
            SPINNING = l.findVarHandle(SpinBitSynchronizer.class, "spinning", int.class);
            HEAD = l.findVarHandle(SpinBitSynchronizer.class, "head", WaiterNode.class);
            HANDOFF = l.findVarHandle(SpinBitSynchronizer.class, "handoff", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The lock bits, owned by the subclass: 0 is free. Changed by CAS, or by the holder's store. */
    private volatile int state;
    /** The spin role (Go's mutexSpinning): 1 while one waiter holds it. Set by CAS, cleared by its holder. */
    private volatile int spinning;
    /** Newest node of the LIFO sleeper stack. Pushed by CAS; popped only by the holder of the spin role. */
    private volatile WaiterNode head;
    /**
     * The hand-off reservation: null, the starving thread that holds it, or {@link #GRANTED} once
     * a release has passed the lock to that thread still held. Taken by CAS from null by the
     * reserver, moved to GRANTED by CAS by a releasing holder, set back to null by the reserver.
     */
    private volatile Object handoff;
    /**
     * Pacing of the tail-wake check: contended releases left before the next clock read, the
     * current number of releases between reads (a power of two, adapted so that reads come about
     * every {@link #TAIL_CHECK_NANOS}), and when the clock was last read for it. Plain and racy on
     * purpose, like {@link #lastTailWake}: only releasing holders write them, and a lost update
     * only shifts the period.
     */
    private int checkCountdown;
    private int checkPeriod = MIN_CHECK_PERIOD;
    private long lastCheck;
    /** When the oldest sleeper was last woken; racy, like the pacing fields. */
    private long lastTailWake;

    /** For subclasses. */
    protected SpinBitSynchronizer() {
    }

    /**
     * Given the current lock bits, returns what they become if the caller acquires, or {@link
     * #FAILED} if it cannot. Must be a pure function; {@code tryAcquireBits(0)} must succeed.
     *
     * @param bits the lock bits as read
     * @return the lock bits after the acquire, or {@link #FAILED}
     */
    protected abstract int tryAcquireBits(int bits);

    /**
     * Whether the calling thread holds the synchronizer; conditions require it.
     *
     * @return whether the calling thread holds the synchronizer
     */
    protected abstract boolean isHeldExclusively();

    /**
     * Called by a condition wait while held: forget the holder, returning what {@link #restoreAfterWait} needs.
     *
     * @return what {@link #restoreAfterWait} needs to reinstate the holder
     */
    protected abstract long saveForWait();

    /**
     * Called by a condition wait once reacquired: reinstate the holder saved by {@link #saveForWait}.
     *
     * @param saved what {@link #saveForWait} returned
     */
    protected abstract void restoreAfterWait(long saved);

    /**
     * Called right after this thread takes or is handed the spin role (true) and right before it
     * gives it up (false). Package-private and empty: this package's tests count spinners by
     * overriding it; only the slow path calls it.
     */
    void spinRole(boolean taken) {
    }

    /**
     * Acquires without waiting; barges past sleepers, the spinner and a reservation, like Go's fast path.
     *
     * @return whether the caller acquired
     */
    public final boolean tryAcquire() {
        // Blind first: under contention the bits are free or taken, and a load before the CAS
        // costs more than a CAS that fails.
        if (STATE.compareAndSet(this, 0, tryAcquireBits(0))) {
            return true;
        }
        int s = state;
        for (;;) {
            int nb = tryAcquireBits(s);
            if (nb < 0) {
                return false;
            }
            int w = (int) STATE.compareAndExchange(this, s, nb);
            if (w == s) {
                return true;
            }
            s = w;
        }
    }

    /** Acquires, waiting as long as it takes; an interrupt is remembered and reasserted on return. */
    public final void acquire() {
        if (!tryAcquire()) {
            try {
                acquireSlow(null, false, false, 0L);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /**
     * Acquires unless interrupted first.
     *
     * @throws InterruptedException if the thread is interrupted before it acquires
     */
    public final void acquireInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!tryAcquire()) {
            acquireSlow(null, true, false, 0L);
        }
    }

    /**
     * Acquires within {@code nanos}, unless interrupted first; false on timeout.
     *
     * @param nanos the longest wait, in nanoseconds
     * @return true if acquired, false on timeout
     * @throws InterruptedException if the thread is interrupted before it acquires
     */
    public final boolean tryAcquireNanos(long nanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (tryAcquire()) {
            return true;
        }
        if (nanos <= 0L) {
            return false;
        }
        return acquireSlow(null, true, true, System.nanoTime() + nanos);
    }

    /**
     * Releases on behalf of the holder by subtracting {@code n} from the lock bits, which the
     * holder guarantees are at least {@code n}. A reserved lock passes to the reserver still held.
     * Otherwise a volatile store frees it, and then loads decide: nothing if nobody sleeps or a
     * spinner exists (the usual case), else wake the newest sleeper; at most once per {@link
     * #TAIL_WAKE_NANOS} also the oldest.
     *
     * @param n what the holder's acquire added to the lock bits
     */
    public final void release(int n) {
        if (handoff != null && grantHandoff(n)) {
            return;
        }
        STATE.setVolatile(this, state - n);
        // The other half of each Dekker pair (package documentation): a pusher, a spinner that
        // leaves and a reserver each write their field and then read the lock bits.
        if (handoff != null) {
            passAfterRelease();                // whoever holds the lock now decides on wakes
            return;
        }
        if (head != null && (spinning == 0 || --checkCountdown < 0)) {
            // Out of line so that this method inlines into unlock.
            wakeAfterRelease();
        }
    }

    /** Passes the held lock to the reserving thread; false if nobody holds the reservation. */
    private boolean grantHandoff(int n) {
        Object h = handoff;
        if (h instanceof Thread t && state == n && HANDOFF.compareAndSet(this, t, GRANTED)) {
            LockSupport.unpark(t);
            return true;
        }
        return false;
    }

    /**
     * A reservation appeared while we released: the reserver may have read the lock bits before
     * our store and parked. Take the lock back if it is still free and release it again, which
     * passes it to the reserver; if someone took it first, that holder's release passes it.
     */
    private void passAfterRelease() {
        if (handoff instanceof Thread && casAcquire()) {
            release(tryAcquireBits(0));
        }
    }

    private void wakeAfterRelease() {
        long now = System.nanoTime();
        if (checkCountdown < 0) {
            pacePeriod(now);
        }
        wakeNewest();
        if (now - lastTailWake >= TAIL_WAKE_NANOS) {
            lastTailWake = now;
            wakeOldest();
        }
    }

    /**
     * Doubles the releases between clock reads while reads come faster than {@link
     * #TAIL_CHECK_NANOS}, halves them while they come slower than four times that.
     */
    private void pacePeriod(long now) {
        long since = now - lastCheck;
        lastCheck = now;
        int p = checkPeriod;
        if (since < TAIL_CHECK_NANOS) {
            p = Math.min(p << 1, MAX_CHECK_PERIOD);
        } else if (since > 4 * TAIL_CHECK_NANOS) {
            p = Math.max(p >> 1, MIN_CHECK_PERIOD);
        }
        checkPeriod = p;
        checkCountdown = p;
    }

    /**
     * The wake decision (Go's unlock2Wake): unless somebody spins, take the spin role on behalf of
     * the newest sleeper, pop it and wake it as the spinner. Holding the role is what entitles us
     * to pop, so pops never race. If no live sleeper is left we give the role back, and since
     * others may have skipped their own decision because we held it, we decide again while the
     * lock is free and the stack is not empty.
     */
    final void wakeNewest() {
        while (head != null && spinning == 0 && SPINNING.compareAndSet(this, 0, 1)) {
            for (WaiterNode h = head; h != null; h = head) {
                if (HEAD.compareAndSet(this, h, h.next) && h.wake(WaiterNode.GRANTED)) {
                    return;
                }
            }
            SPINNING.setVolatile(this, 0);
            if (tryAcquireBits(state) < 0) {
                return;                    // the holder's release decides
            }
        }
    }

    /**
     * The time bound's wake: the deepest node still sleeping is woken without the spin role
     * (Go's anti-starvation wake). It stays on the stack, dead, for a popper to discard; what lies
     * below the next live node up is all dead, so that suffix is cut off here, which keeps the
     * stack from growing while contention never lets it drain.
     */
    private void wakeOldest() {
        WaiterNode aboveOldest = null;
        WaiterNode oldest = null;
        for (WaiterNode p = head; p != null; p = p.next) {
            if (p.status() == WaiterNode.SLEEPING) {
                aboveOldest = oldest;
                oldest = p;
            }
        }
        if (oldest != null && oldest.wake(WaiterNode.WOKEN) && aboveOldest != null) {
            aboveOldest.next = null;
        }
    }

    /** Releases what an exclusive holder holds, for a condition wait: the bits an acquisition from free leaves. */
    final void releaseForWait() {
        release(tryAcquireBits(0));
    }

    /**
     * Whether any thread sleeps waiting to acquire (Go's mutexContended). A snapshot, for monitoring.
     *
     * @return whether any thread sleeps waiting to acquire
     */
    public final boolean hasSleepers() {
        for (WaiterNode p = head; p != null; p = p.next) {
            if (p.status() == WaiterNode.SLEEPING) {
                return true;
            }
        }
        return false;
    }

    /** Whether a waiter holds the spin role. A snapshot, for this package's tests. */
    final boolean hasSpinner() {
        return spinning != 0;
    }

    /**
     * The current lock bits. A snapshot, for monitoring.
     *
     * @return the current lock bits
     */
    protected final int lockBits() {
        return state;
    }

    /**
     * Number of sleeping waiters. Walks the stack; a snapshot, for monitoring only.
     *
     * @return the number of sleeping waiters
     */
    public final int sleeperCount() {
        int n = 0;
        for (WaiterNode p = head; p != null; p = p.next) {
            if (p.status() == WaiterNode.SLEEPING) {
                n++;
            }
        }
        return n;
    }

    /**
     * Returns a new condition bound to this synchronizer.
     *
     * @return a new condition bound to this synchronizer
     */
    public final SpinBitCondition newCondition() {
        return new SpinBitCondition(this);
    }

    /** Acquires the lock bits by CAS if they are acquirable now. */
    private boolean casAcquire() {
        int s = state;
        int nb = tryAcquireBits(s);
        return nb >= 0 && STATE.compareAndSet(this, s, nb);
    }

    /** Takes the spin role if nobody holds it. */
    final boolean takeSpin() {
        return spinning == 0 && SPINNING.compareAndSet(this, 0, 1);
    }

    /** Gives up the spin role, which the caller holds, on acquiring: its own release decides on wakes. */
    private void dropSpin() {
        SPINNING.setVolatile(this, 0);
    }

    /**
     * Gives up the spin role without acquiring. A release that saw us spinning skipped its wake,
     * so once the role is free we read the lock bits, and if they are free we decide in its place.
     */
    final void leaveSpin() {
        SPINNING.setVolatile(this, 0);
        if (tryAcquireBits(state) >= 0) {
            wakeNewest();
        }
    }

    /**
     * Puts a sleeping node on the stack. The caller then makes sure a release sees it: a
     * condition signal pushes while it holds the synchronizer; a waiter goes through {@link
     * #pushAndCheck}.
     */
    final void push(WaiterNode node) {
        WaiterNode h;
        do {
            h = head;
            node.next = h;
        } while (!HEAD.compareAndSet(this, h, node));
    }

    /**
     * A waiter's half of the push/release Dekker pair: push, then read the lock bits; if the
     * release that freed them ran before our push was visible, it cannot have seen us, so we make
     * its wake decision, which may pop our own node.
     */
    final void pushAndCheck(WaiterNode node) {
        push(node);
        if (tryAcquireBits(state) >= 0) {
            wakeNewest();
        }
    }

    private static final int INTERRUPTED = -1;

    /**
     * Go's lock2 after the fast path failed. {@code woken} is non-null only when a condition wait
     * hands over its node, already popped off the stack. Returns false on timeout; throws on
     * interrupt if {@code interruptible}.
     */
    final boolean acquireSlow(WaiterNode woken, boolean interruptible, boolean timed, long deadline)
            throws InterruptedException {
        final Thread me = Thread.currentThread();
        // A virtual thread must not hold its carrier: no Thread.yield round (for a virtual thread
        // a trip through the scheduler anyway), straight to park, which unmounts it.
        final int spinRounds = me.isVirtual() ? ACTIVE_SPIN_COUNT : ACTIVE_SPIN_COUNT + 1;
        final long waitStart = System.nanoTime();
        boolean weSpin = woken != null && woken.status() == WaiterNode.GRANTED;
        boolean atTail = woken != null && !weSpin;
        if (weSpin) {
            spinRole(true);
        }
        boolean interrupted = false;
        boolean acquired = false;
        try {
            for (int i = 0; ; i++) {
                if (casAcquire()) {
                    acquired = true;
                    return true;               // the finally gives up the spin role if we held it
                }
                if (!weSpin && takeSpin()) {
                    weSpin = true;
                    spinRole(true);
                }
                if ((weSpin || atTail) && i < spinRounds) {
                    if (i < ACTIVE_SPIN_COUNT) {
                        for (int k = 0; k < ACTIVE_SPIN_SIZE; k++) {
                            Thread.onSpinWait();
                        }
                    } else {
                        Thread.yield();
                    }
                    continue;
                }
                // Going to sleep. First see whether the caller still wants to wait.
                if (timed && deadline - System.nanoTime() <= 0L) {
                    return false;              // the finally leaves the spin role
                }
                if (Thread.interrupted()) {
                    if (interruptible) {
                        throw new InterruptedException();
                    }
                    interrupted = true;
                }
                WaiterNode node = new WaiterNode(me, WaiterNode.SLEEPING);
                if (weSpin) {
                    weSpin = false;
                    spinRole(false);
                    // Cleared before the push, so the read of the lock bits in pushAndCheck is
                    // also the one leaveSpin would make.
                    SPINNING.setVolatile(this, 0);
                }
                pushAndCheck(node);
                int outcome = sleep(node, interruptible, timed, deadline);
                if (outcome == INTERRUPTED) {
                    throw new InterruptedException();
                }
                if (outcome == WaiterNode.CANCELLED) {
                    return false;
                }
                weSpin = outcome == WaiterNode.GRANTED;
                atTail = !weSpin;
                if (weSpin) {
                    spinRole(true);
                }
                i = -1;
                if (!interruptible && !timed && System.nanoTime() - waitStart > STARVE_NANOS && reserve()) {
                    if (weSpin) {
                        weSpin = false;
                        spinRole(false);
                        leaveSpin();           // nobody parks holding the spin role
                    }
                    interrupted |= awaitHandoff();
                    acquired = true;
                    return true;
                }
            }
        } finally {
            if (weSpin) {
                spinRole(false);
                if (acquired) {
                    dropSpin();
                } else {
                    leaveSpin();
                }
            }
            if (interrupted && (acquired || !interruptible)) {
                me.interrupt();
            }
        }
    }

    /**
     * The bound on waiting (Go's sync.Mutex starvation mode, which the runtime mutex lacks): we
     * hold the reservation, so the next release passes the lock to us still held, and no arrival
     * or spinner can take it between that release and us. Only for uninterruptible waits: a
     * reservation must not be abandoned. Returns whether an interrupt arrived meanwhile.
     */
    private boolean awaitHandoff() {
        boolean interrupted = false;
        while (!takeReserved()) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted();
        }
        HANDOFF.setVolatile(this, null);
        return interrupted;
    }

    /** Takes the reservation if nobody holds it. */
    final boolean reserve() {
        return HANDOFF.compareAndSet(this, null, Thread.currentThread());
    }

    /**
     * The reserver's look: whether a release passed us the lock, or it is free and we take it.
     * Dekker with the release (store the bits, then read the reservation and pass the lock):
     * either it sees our reservation, or this CAS sees the bits it freed.
     */
    final boolean takeReserved() {
        return handoff == GRANTED || casAcquire();
    }

    /** Whether a release has passed the lock to the reserver. A snapshot, for this package's tests. */
    final boolean handoffGranted() {
        return handoff == GRANTED;
    }

    /**
     * Parks until a waker moves the node off SLEEPING, and returns the status it set. On timeout,
     * or on interrupt if interruptible, cancels the node instead (it stays on the stack, dead,
     * for a popper to discard) and returns CANCELLED or INTERRUPTED; if a waker won that race the
     * wait carries on as woken. An uninterruptible wait leaves the interrupt status set.
     */
    private int sleep(WaiterNode node, boolean interruptible, boolean timed, long deadline) {
        boolean interrupted = false;
        int outcome = WaiterNode.SLEEPING;
        try {
            for (;;) {
                outcome = node.status();
                if (outcome != WaiterNode.SLEEPING) {
                    return outcome;
                }
                if (timed) {
                    long rem = deadline - System.nanoTime();
                    if (rem <= 0L) {
                        if (node.casStatus(WaiterNode.SLEEPING, WaiterNode.CANCELLED)) {
                            return outcome = WaiterNode.CANCELLED;
                        }
                        continue;
                    }
                    LockSupport.parkNanos(this, rem);
                } else {
                    LockSupport.park(this);
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                    if (interruptible && node.casStatus(WaiterNode.SLEEPING, WaiterNode.CANCELLED)) {
                        return outcome = INTERRUPTED;
                    }
                }
            }
        } finally {
            // Reassert for the caller, except when we report the interrupt by outcome instead.
            if (interrupted && outcome != INTERRUPTED) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
