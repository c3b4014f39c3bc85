package dev.shuttle.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * An exclusive synchronizer after Go's spin-bit runtime mutex: at most one waiter spins, the
 * others sleep on a LIFO stack, a release wakes a sleeper only when nobody is spinning, the
 * oldest sleeper is woken at most once a millisecond regardless, and a waiter that has starved for
 * 4 ms reserves the next acquisition. The two fields and each transition are described in the
 * package documentation.
 *
 * <p>A subclass defines the lock bits, an {@code int} of its own: {@link #tryAcquireBits} says,
 * as a pure function of them, whether the synchronizer can be acquired and what acquiring leaves
 * (0 must mean free); a release subtracts what the holder acquired. Only the holder changes them
 * while they are taken, so the holder's release is a plain volatile store. A subclass also says
 * whether the calling thread holds it ({@link #isHeldExclusively}) and saves and restores its
 * holder around a condition wait ({@link #saveForWait}, {@link #restoreAfterWait}). Ownership
 * bookkeeping that only the holder touches (owner thread, hold count) belongs in subclass fields,
 * so a reentrant acquire writes no shared field. This class does everything else: spinning,
 * sleeping, waking, the time bound and conditions.
 */
public abstract class SpinBitSynchronizer extends SleeperStack {
    /** Returned by {@link #tryAcquireBits} when the synchronizer is not available. */
    protected static final int FAILED = -1;

    /** Go's mutexActiveSpinCount: rounds of busy-waiting before giving up the spin role. */
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
     * tail wake is due. The clock is not free (about 20 ns here), and such releases are the common
     * case under contention: a woken thread holds SPINNING for the whole of its wake-up latency,
     * so reading the clock on a fixed 1 in 16 of them costs more than the lock/unlock itself.
     */
    static final long TAIL_CHECK_NANOS = 100_000L;
    /**
     * Fewest and most releases between two clock reads (Go's mutexTailWakePeriod is the fewest).
     * The most bounds how late a tail wake can be if releases slow down suddenly while spinners
     * keep the clock unread: 4096 releases.
     */
    static final int MIN_CHECK_PERIOD = 16;
    static final int MAX_CHECK_PERIOD = 1 << 12;
    /**
     * A woken waiter that has waited longer than this reserves the next acquisition (RESERVED).
     * Go's sync.Mutex uses 1 ms for its starvation mode; each handoff costs a wake-up during
     * which nobody runs the critical section, so a few milliseconds keeps that under a percent.
     */
    static final long STARVE_NANOS = 4_000_000L;
    /** The value of {@link #handoff} once a release has passed the held lock to the reserver. */
    private static final Object GRANTED = new Object();

    private static final VarHandle STATE;
    private static final VarHandle HANDOFF;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(SpinBitSynchronizer.class, "state", int.class);
            HANDOFF = l.findVarHandle(SpinBitSynchronizer.class, "handoff", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The lock bits, owned by the subclass: 0 is free. */
    private volatile int state;
    /**
     * The handoff reservation: null, the starving thread that holds it, or {@link #GRANTED} once
     * a release has passed the lock to that thread. Taken by CAS from null by the reserver, moved
     * to GRANTED by CAS by a holder, set back to null by the reserver once RESERVED is clear.
     */
    private volatile Object handoff;
    /**
     * Pacing of the tail-wake check: contended releases left before the next clock read, the
     * current number of releases between reads (a power of two, adapted so that reads come about
     * every {@link #TAIL_CHECK_NANOS}), and when the clock was last read for it. Plain and racy on
     * purpose, like {@link #lastTailWake}: a lost update only shifts the period.
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
     */
    protected abstract int tryAcquireBits(int bits);

    /** Whether the calling thread holds the synchronizer; conditions require it. */
    protected abstract boolean isHeldExclusively();

    /** Called by a condition wait while held: forget the holder, returning what {@link #restoreAfterWait} needs. */
    protected abstract long saveForWait();

    /** Called by a condition wait once reacquired: reinstate the holder saved by {@link #saveForWait}. */
    protected abstract void restoreAfterWait(long saved);

    /**
     * Called right after this thread takes the spin role (true) and right before it gives it up
     * (false). Package-private and empty: the invariant tests of this package count spinners
     * through it; only the slow path calls it.
     */
    void spinRole(boolean taken) {
    }

    /** Acquires without waiting; barges past sleepers and the spinner, like Go's fast path. */
    public final boolean tryAcquire() {
        int b0 = tryAcquireBits(0);
        // Blind first: under contention the bits are free or taken, never in between, and a
        // load before the CAS costs more than the CAS that fails.
        if (STATE.compareAndSet(this, 0, b0)) {
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
                acquireSlow(null, false, false, false, 0L);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /** Acquires unless interrupted first. */
    public final void acquireInterruptibly() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        if (!tryAcquire()) {
            acquireSlow(null, false, true, false, 0L);
        }
    }

    /** Acquires within {@code nanos}, unless interrupted first; false on timeout. */
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
        return acquireSlow(null, false, true, true, System.nanoTime() + nanos);
    }

    /**
     * Releases on behalf of the holder by subtracting {@code n} from the lock bits, which the
     * holder guarantees are at least {@code n}. A reserved lock passes to the reserver still
     * held. Otherwise a volatile store frees it, and then one load of the waiters word decides:
     * nothing if nobody sleeps or a spinner exists (the usual case), else wake the newest sleeper,
     * the reserver, or at most once per {@link #TAIL_WAKE_NANOS} the oldest sleeper.
     */
    public final void release(int n) {
        if ((waiters & RESERVED) != 0 && grantHandoff()) {
            return;
        }
        STATE.setVolatile(this, state - n);
        // The other half of the Dekker pair with a waiter that pushes and then reads the lock
        // bits: the volatile store above is ordered before this load.
        long w = waiters;
        if ((w & RESERVED) != 0) {
            passAfterRelease();
        } else if ((w >>> HEAD_SHIFT) != 0 && ((w & SPINNING) == 0 || --checkCountdown < 0)) {
            // Kept out of line so that this method inlines into unlock: under contention the
            // usual release sees sleepers and a spinner and must cost no more than the store.
            wakeAfterRelease();
        }
    }

    /** Passes the held lock to the reserving thread; false if nobody holds the reservation. */
    private boolean grantHandoff() {
        Object h = handoff;
        if (h instanceof Thread t && HANDOFF.compareAndSet(this, t, GRANTED)) {
            LockSupport.unpark(t);
            return true;
        }
        return false;
    }

    /**
     * The reserver set RESERVED after our first look, and may have seen the bits still taken and
     * parked. Take the lock back, unless someone (the reserver, or a barger whose release will
     * grant) got there first, and pass it over; if the reservation ended meanwhile, release again.
     */
    private void passAfterRelease() {
        int s = state;
        int nb = tryAcquireBits(s);
        if (nb >= 0 && STATE.compareAndSet(this, s, nb)) {
            release(nb - s);
        }
    }

    private void wakeAfterRelease() {
        boolean tail = false;
        long now = System.nanoTime();
        if (checkCountdown < 0) {
            pacePeriod(now);
        }
        if (now - lastTailWake >= TAIL_WAKE_NANOS) {
            lastTailWake = now;
            tail = true;
        }
        wakeSleeper(tail);
    }

    /**
     * Doubles the releases between clock reads while reads come faster than {@link
     * #TAIL_CHECK_NANOS}, halves them while they come slower than four times that. With
     * nanosecond critical sections the period grows to its maximum and the clock is read once per
     * {@value #MAX_CHECK_PERIOD} releases; with slow ones it stays at {@link #MIN_CHECK_PERIOD}, so
     * the tail wake stays on time.
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

    /** Releases what an exclusive holder holds, for a condition wait: the bits an acquisition from free leaves. */
    final void releaseForWait() {
        release(tryAcquireBits(0));
    }

    /** Whether any thread sleeps waiting to acquire (Go's mutexContended). A snapshot, for monitoring. */
    public final boolean hasSleepers() {
        return (waiters >>> HEAD_SHIFT) != 0;
    }

    /** Whether a waiter holds the spin role. A snapshot, for this package's tests. */
    final boolean hasSpinner() {
        return (waiters & SPINNING) != 0;
    }

    /** The current lock bits. A snapshot, for monitoring. */
    protected final int lockBits() {
        return state;
    }

    /** Number of sleeping waiters. Walks the stack under the stack lock; for monitoring only. */
    public final int sleeperCount() {
        return countSleepers();
    }

    /** Returns a new condition bound to this synchronizer. */
    public final SpinBitCondition newCondition() {
        return new SpinBitCondition(this);
    }

    /** Acquires the lock bits by CAS if they are acquirable now. */
    final boolean casAcquire() {
        int s = state;
        int nb = tryAcquireBits(s);
        return nb >= 0 && STATE.compareAndSet(this, s, nb);
    }

    /**
     * Go's lock2 after the fast path failed. {@code node} and {@code atTail} are non-default
     * only when a condition wait hands over a node that a waker just popped off the stack.
     * Returns false on timeout; throws on interrupt if {@code interruptible}.
     */
    final boolean acquireSlow(WaiterNode node, boolean atTail, boolean interruptible, boolean timed,
                              long deadline) throws InterruptedException {
        final Thread me = Thread.currentThread();
        // A virtual thread must not hold its carrier: no Thread.yield round (which for a virtual
        // thread is a trip through the scheduler anyway), straight to park, which unmounts it.
        final int spinRounds = me.isVirtual() ? ACTIVE_SPIN_COUNT : ACTIVE_SPIN_COUNT + 1;
        boolean weSpin = node != null && node.spinGranted;
        if (weSpin) {
            spinRole(true);
        }
        boolean interrupted = false;
        boolean acquired = false;
        long waitStart = System.nanoTime();
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
                    return false;
                }
                if (Thread.interrupted()) {
                    if (interruptible) {
                        throw new InterruptedException();
                    }
                    interrupted = true;
                }
                if (node == null) {
                    node = WaiterTable.take(me);
                    waitStart = System.nanoTime();
                }
                node.setStatusPlain(WaiterNode.SLEEPING);
                if (weSpin) {
                    spinRole(false);
                }
                goToSleep(node, weSpin);
                weSpin = false;
                int outcome = sleep(node, interruptible, timed, deadline);
                if (outcome != WaiterNode.WOKEN) {
                    if (outcome == INTERRUPTED) {
                        throw new InterruptedException();
                    }
                    return false;
                }
                atTail = node.next == null;
                weSpin = node.spinGranted;
                if (weSpin) {
                    spinRole(true);
                }
                node.next = null;
                i = -1;
                if (!interruptible && !timed && System.nanoTime() - waitStart > STARVE_NANOS
                        && acquireByHandoff()) {
                    acquired = true;
                    return true;
                }
            }
        } finally {
            if (weSpin) {
                spinRole(false);
                if (acquired) {
                    dropSpin();               // we hold the lock: our own release decides on wakes
                } else {
                    abandonSpin();
                }
            }
            if (node != null) {
                WaiterTable.give(node);
            }
            if (interrupted && (acquired || !interruptible)) {
                me.interrupt();
            }
        }
    }

    /**
     * Pushes a waiter's node (status SLEEPING), giving up the spin role in the same CAS if
     * {@code weSpin}, so that a release will wake it. Dekker with the release, which stores the
     * lock bits and then loads the waiters word: the push is a locked CAS, so either the release
     * sees our node, or we see the bits it freed and make its wake decision ourselves, which
     * pops us (or a newer sleeper) as woken.
     */
    final void goToSleep(WaiterNode node, boolean weSpin) {
        push(node, weSpin);
        if (tryAcquireBits(state) >= 0) {
            wakeSleeper(false);
        }
    }

    /**
     * The bound on waiting (Go's sync.Mutex starvation mode, which the runtime mutex lacks): a
     * waiter that has starved reserves the lock, and the next release passes it over still held,
     * so no arrival or spinner can barge in between. Returns false, changing nothing, if another
     * waiter holds the reservation. Only for uninterruptible waits: a reservation must not be
     * abandoned.
     */
    final boolean acquireByHandoff() {
        if (!reserve()) {
            return false;
        }
        // Dekker with the release (store the bits, then load the waiters word and, seeing
        // RESERVED, take the lock back and pass it over): either it sees RESERVED, or we see the
        // bits it freed. A release that saw RESERVED before its store passes the lock over
        // without freeing it (GRANTED).
        boolean interrupted = false;
        while (handoff != GRANTED && !casAcquire()) {
            LockSupport.park(this);
            interrupted |= Thread.interrupted();
        }
        // We hold the lock, so no release can grant now. RESERVED goes first, so that the next
        // reserver's flag, set after it wins the slot, is never cleared by us.
        WAITERS.getAndBitwiseAnd(this, ~RESERVED);
        handoff = null;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return true;
    }

    /** Takes the handoff slot (the reservation token) and sets RESERVED; false if another waiter holds it. */
    final boolean reserve() {
        if (!HANDOFF.compareAndSet(this, null, Thread.currentThread())) {
            return false;
        }
        WAITERS.getAndBitwiseOr(this, RESERVED);
        return true;
    }

    /** Whether a release has passed the lock to the reserver. */
    final boolean reservationGranted() {
        return handoff == GRANTED;
    }

    private static final int TIMED_OUT = -2;
    private static final int INTERRUPTED = -3;

    /**
     * Parks until a waker pops the node. On timeout or interrupt (if interruptible) withdraws the
     * node instead; an uninterruptible wait leaves the interrupt status set for the caller.
     */
    private int sleep(WaiterNode node, boolean interruptible, boolean timed, long deadline) {
        boolean interrupted = false;
        int outcome = WaiterNode.WOKEN;
        try {
            while (node.status() != WaiterNode.WOKEN) {
                if (timed) {
                    long rem = deadline - System.nanoTime();
                    if (rem <= 0L) {
                        outcome = withdraw(node) ? TIMED_OUT : WaiterNode.WOKEN;
                        return outcome;
                    }
                    LockSupport.parkNanos(this, rem);
                } else {
                    LockSupport.park(this);
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                    if (interruptible) {
                        outcome = withdraw(node) ? INTERRUPTED : WaiterNode.WOKEN;
                        return outcome;
                    }
                }
            }
            return outcome;
        } finally {
            // Reassert for the caller, except when we report the interrupt by outcome instead.
            if (interrupted && outcome != INTERRUPTED) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Gives up the spin role without acquiring: a release may have skipped its wake because of us. */
    final void abandonSpin() {
        dropSpin();
        wakeSleeper(false);
    }
}
