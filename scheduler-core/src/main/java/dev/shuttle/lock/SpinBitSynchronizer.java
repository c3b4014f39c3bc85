package dev.shuttle.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * An exclusive synchronizer after Go's spin-bit runtime mutex: at most one waiter spins, the
 * others sleep on a LIFO stack, a release wakes a sleeper only when nobody is spinning, the
 * oldest sleeper is woken at most once a millisecond regardless, and a waiter that has starved for
 * 4 ms reserves the next acquisition. The state word layout and each transition are described in
 * the package documentation.
 *
 * <p>Subclasses own the low 16 bits of the state word (the "lock bits"): they say, as a pure
 * function of those bits, whether the synchronizer can be acquired and what acquiring leaves,
 * and a release subtracts from them; this class does everything else. Ownership bookkeeping
 * that only the holder touches (owner thread, hold count) belongs in subclass fields, outside
 * the atomic word, so a reentrant acquire never writes the shared cache line.
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
     * case under contention: a woken thread holds SPINNING for the whole of its wake-up latency
     * (about 150 us measured on a 2-vCPU VM), so a fixed 1 in 16 cost 1.2 ns per lock/unlock.
     */
    static final long TAIL_CHECK_NANOS = 100_000L;
    /**
     * Fewest and most releases between two clock reads (Go's mutexTailWakePeriod is the fewest).
     * The most bounds how late a tail wake can be if releases slow down suddenly while spinners
     * keep the clock unread: 4096 releases. At 5 ns a release that is still only one read per
     * 20 us, so a larger cap would buy nothing.
     */
    static final int MIN_CHECK_PERIOD = 16;
    static final int MAX_CHECK_PERIOD = 1 << 12;
    /**
     * A woken waiter that has waited longer than this reserves the next acquisition (HANDOFF).
     * Go's sync.Mutex uses 1 ms for its starvation mode; each handoff costs a wake-up during
     * which nobody holds the lock, so a few milliseconds keeps that under a percent.
     */
    static final long STARVE_NANOS = 4_000_000L;

    private static final VarHandle HANDOFF_TO;

    static {
        try {
            HANDOFF_TO = MethodHandles.lookup().findVarHandle(SpinBitSynchronizer.class, "handoffTo", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The starving waiter that owns the HANDOFF reservation. Claimed by CAS before the bit is set,
     * cleared only after the bit is cleared; read by the release that sees the bit.
     */
    private volatile Thread handoffTo;
    /**
     * Pacing of the tail-wake check: contended releases left before the next clock read, the
     * current number of releases between reads (a power of two, adapted so that reads come about
     * every {@link #TAIL_CHECK_NANOS}), and when the clock was last read for it. Plain and racy on
     * purpose, like {@link #lastTailWake}: a lost update only shifts the period.
     */
    private int checkCountdown;
    private int checkPeriod = MIN_CHECK_PERIOD;
    private long lastCheck;
    /**
     * Whether the last release left anything but free lock bits in the word (sleepers, SPINNING,
     * HANDOFF): picks the fast path's first CAS. A racy hint, written only when it changes.
     */
    private boolean dirtySeen;
    /** When the oldest sleeper was last woken; plain and racy like {@link #checkCountdown}. */
    private long lastTailWake;

    protected SpinBitSynchronizer() {
    }

    /**
     * Returns the lock bits after acquiring from {@code bits}, or {@link #FAILED} if the
     * synchronizer is not available. Must be a pure function: it may be called many times and
     * its answer is committed only if the state word did not change meanwhile. The fast path may
     * claim by adding {@code tryAcquireBits(0)} to the bits and withdraw the claim right after,
     * so bits above that value, with the claims in flight added, must read as not available.
     */
    protected abstract int tryAcquireBits(int bits);

    /** Whether the calling thread holds the synchronizer; conditions require it. */
    protected abstract boolean isHeldExclusively();

    /** Called by a condition wait while held: forget the holder, returning what {@link #restoreAfterWait} needs. */
    protected abstract long saveForWait();

    /** Called by a condition wait once reacquired: reinstate the holder saved by {@link #saveForWait}. */
    protected abstract void restoreAfterWait(long saved);

    /**
     * Called by a waiting thread right after it takes the spin role (true) and right before it
     * tries to give it up (false; followed by true if that attempt failed), so that a test can
     * count spinners without ever counting one too many. Does nothing by default: overriding it
     * is for tests, and it runs only on the slow path. Must not block.
     */
    protected void spinRole(boolean taken) {
    }

    /** Acquires without waiting; barges past sleepers and the spinner, like Go's fast path. */
    public final boolean tryAcquire() {
        int b0 = tryAcquireBits(0);
        if (!dirtySeen) {
            if (b0 >= 0 && STATE.compareAndSet(this, 0L, (long) b0)) {
                return true;
            }
        } else if (b0 > 0) {
            // The word is dirty (sleepers, a spinner), so a CAS would need a load of the word
            // first, and that load cost 1.0 ns of a 6.1 ns lock/unlock here (5.0 ns with this
            // add, as fast as the blind CAS on a clean word). A claim that finds the lock taken
            // is withdrawn at once; until then the lock looks held, as if the claimer had held
            // it for that instant.
            if (claim(b0)) {
                return true;
            }
            withdrawClaim(b0);
            return false;
        }
        long v = state;
        for (;;) {
            int nb = tryAcquireBits((int) (v & LOCK_MASK));
            if (nb < 0 || (v & HANDOFF) != 0) {
                return false;
            }
            long w = (long) STATE.compareAndExchange(this, v, (v & ~LOCK_MASK) | nb);
            if (w == v) {
                return true;
            }
            v = w;
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
     * holder guarantees are at least {@code n}; an unconditional atomic add (one LOCK XADD, no
     * CAS loop to lose against pushing sleepers). If sleepers were present and nobody spins,
     * wakes the newest; at most once per {@link #TAIL_WAKE_NANOS} a contended release wakes the oldest.
     */
    public final void release(int n) {
        afterRelease((long) STATE.getAndAdd(this, (long) -n), n);
    }

    /** Adds a claim of {@code b0}; true if it acquired, else the caller must {@link #withdrawClaim} it. */
    final boolean claim(int b0) {
        long v = (long) STATE.getAndAdd(this, (long) b0);
        return (v & (LOCK_MASK | HANDOFF)) == 0L;
    }

    /**
     * Takes back a failed claim. While the lock bits it leaves are not free, a holder or another
     * claimer is still there and will decide on wakes when it leaves; if they are free, the
     * holder released while our claim made the lock look held, so we are the release that decides.
     */
    final void withdrawClaim(int b0) {
        long v = (long) STATE.getAndAdd(this, (long) -b0);
        if (((v - b0) & LOCK_MASK) == 0L) {
            afterRelease(v, b0);
        }
    }

    /** The rest of a release, given the word before its add: the hint, the handoff, the wake decision. */
    private void afterRelease(long v, int n) {
        boolean sleepers = (v >>> HEAD_SHIFT) != 0;
        // Not just sleepers: a spinner alone (a woken thread on its way, no one left asleep) also
        // makes the blind CAS from 0 fail, and a failed locked CAS before the real one cost 4 ns
        // per lock/unlock here (8.9 against 5.0 ns).
        boolean dirty = v - n != 0L;
        if (dirtySeen != dirty) {
            // Written only on change: a store that is still in the store buffer when the next
            // lock's CAS runs makes that CAS wait for it (0.8 ns of a 5.5 ns lock/unlock here).
            dirtySeen = dirty;
        }
        if ((v & HANDOFF) != 0) {
            LockSupport.unpark(handoffTo);       // the lock is reserved; sleepers could not take it
        } else if (sleepers && ((v & SPINNING) == 0 || --checkCountdown < 0)) {
            // Kept out of line so that this method inlines into unlock: under contention the
            // usual release sees sleepers and a spinner and must cost no more than the add.
            wakeAfterRelease();
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

    /**
     * Releases what an exclusive holder holds, for a condition wait: the bits an acquisition from
     * free leaves. Not the lock bits read from the word, which may include a claim in flight.
     */
    final void releaseForWait() {
        release(tryAcquireBits(0));
    }

    /** Whether any thread sleeps waiting to acquire (Go's mutexContended). A snapshot, for monitoring. */
    public final boolean hasSleepers() {
        return (state >>> HEAD_SHIFT) != 0;
    }

    /** Whether a waiter holds the spin role. A snapshot, for monitoring and tests. */
    public final boolean hasSpinner() {
        return (state & SPINNING) != 0;
    }

    /** The current lock bits. A snapshot, for monitoring. */
    protected final int lockBits() {
        return (int) (state & LOCK_MASK);
    }

    /** Number of sleeping waiters. Walks the stack under the stack lock; for monitoring only. */
    public final int sleeperCount() {
        return countSleepers();
    }

    /** Returns a new condition bound to this synchronizer. */
    public final SpinBitCondition newCondition() {
        return new SpinBitCondition(this);
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
        long v = state;
        try {
            for (int i = 0; ; i++) {
                int nb = tryAcquireBits((int) (v & LOCK_MASK));
                if (nb >= 0 && (v & HANDOFF) == 0) {
                    long next = (v & ~LOCK_MASK) | nb;
                    if (weSpin) {
                        next &= ~SPINNING;
                        spinRole(false);
                    }
                    if (STATE.compareAndSet(this, v, next)) {
                        weSpin = false;
                        acquired = true;
                        return true;
                    }
                    if (weSpin) {
                        spinRole(true);
                    }
                    v = state;
                    continue;
                }
                if (!weSpin && (v & SPINNING) == 0 && STATE.compareAndSet(this, v, v | SPINNING)) {
                    v |= SPINNING;
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
                    v = state;
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
                node.next = WaiterTable.get((int) (v >>> HEAD_SHIFT));
                node.setStatusPlain(WaiterNode.SLEEPING);
                long next = ((long) node.id << HEAD_SHIFT) | (v & FLAG_MASK);
                if (weSpin) {
                    next &= ~SPINNING;
                    spinRole(false);
                }
                if (STATE.compareAndSet(this, v, next)) {
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
                            && acquireByHandoff(weSpin)) {
                        weSpin = false;
                        acquired = true;
                        return true;
                    }
                } else if (weSpin) {
                    spinRole(true);
                }
                v = state;
            }
        } finally {
            if (weSpin) {
                abandonSpin();
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
     * The bound on waiting (Go's sync.Mutex starvation mode, which the runtime mutex lacks): a
     * waiter that has starved reserves the lock by setting HANDOFF while it is held. Arrivals and
     * spinners then treat the lock as taken, and the holder's release unparks this thread instead
     * of a sleeper. Returns false, changing nothing, if the lock is free (the caller's loop takes
     * it) or another waiter already holds the reservation. Only for uninterruptible waits: a
     * reservation must not be abandoned. Clears the spin role with the acquiring CAS if we held it.
     */
    private boolean acquireByHandoff(boolean weSpin) {
        Thread me = Thread.currentThread();
        // The handoffTo slot is the reservation token; only its owner sets or clears HANDOFF.
        if (!HANDOFF_TO.compareAndSet(this, null, me)) {
            return false;
        }
        long v = state;
        for (;;) {
            if (tryAcquireBits((int) (v & LOCK_MASK)) >= 0) {
                handoffTo = null;
                return false;
            }
            long w = (long) STATE.compareAndExchange(this, v, v | HANDOFF);
            if (w == v) {
                break;
            }
            v = w;
        }
        boolean interrupted = false;
        try {
            for (;;) {
                v = state;
                int nb = tryAcquireBits((int) (v & LOCK_MASK));
                if (nb < 0) {
                    LockSupport.park(this);
                    interrupted |= Thread.interrupted();
                    continue;
                }
                // Nobody else may acquire while HANDOFF is set, so only pushes can fail this CAS.
                long next = (v & ~(LOCK_MASK | HANDOFF)) | nb;
                if (weSpin) {
                    next &= ~SPINNING;
                    spinRole(false);
                }
                if (STATE.compareAndSet(this, v, next)) {
                    handoffTo = null;            // after the bit is gone: frees the slot for the next starver
                    return true;
                }
                if (weSpin) {
                    spinRole(true);
                }
            }
        } finally {
            if (interrupted) {
                me.interrupt();
            }
        }
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

    /** Gives up the spin role without acquiring; a release may have skipped its wake because of us. */
    private void abandonSpin() {
        spinRole(false);
        long v = state;
        for (;;) {
            long w = (long) STATE.compareAndExchange(this, v, v & ~SPINNING);
            if (w == v) {
                break;
            }
            v = w;
        }
        wakeSleeper(false);
    }

}
