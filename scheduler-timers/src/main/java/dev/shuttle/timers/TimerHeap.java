package dev.shuttle.timers;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One carrier's timers: a 4-ary min-heap keyed by deadline, mutated only by the holder of
 * its lock, plus an inbox through which any thread arms timers without the lock.
 *
 * <p><b>Threading.</b> {@link #tryLock()} never blocks: the owning carrier takes it on every
 * scheduling round (uncontended), an idle carrier takes it to steal expired timers, and a
 * thread that fails simply does something else. The methods marked "lock holder" may only be
 * called between a successful {@link #tryLock()} and {@link #unlock()}. {@link #arm(Timer)},
 * {@link #earliestDeadline()}, {@link #isEmpty()}, {@link #isZombieHeavy()}, {@link #entries()} and
 * {@link Timer#cancel(boolean)} are for any thread at any time. Cancellation is lazy: a
 * cancelled timer stays in the heap as a "zombie" until it reaches the top or the zombies
 * exceed a quarter of the heap, when the next add, drain or firing rebuilds the heap in O(n)
 * (Go's {@code cleantimers}/{@code adjusttimers} idea); the owner looks at
 * {@link #isZombieHeavy()} every round and drains when it says so, as Go's
 * {@code timers.check} does, so the bound holds when nothing is armed or due.
 *
 * <p><b>Deadlines</b> are {@link System#nanoTime()} values compared as {@code a - b < 0}, so
 * ordering survives {@code nanoTime} wrapping as long as the live deadlines span less than
 * 2^63 ns. {@link #NONE} ({@link Long#MAX_VALUE}) means "no deadline" in
 * {@link #earliestDeadline()}; a timer whose deadline is exactly that value is kept and
 * fired normally but is not advertised.
 *
 * <p><b>Why not Agrona's {@code DeadlineTimerWheel}:</b> a wheel rounds deadlines to its tick
 * and finds expired timers by polling tick by tick, which needs a clock-driven loop. A
 * carrier instead parks until the exact earliest deadline, so it needs that deadline in O(1)
 * ({@link #peek()}), and cancellation-by-removal needs O(log n) removal by index. A 4-ary
 * heap, as in Go's runtime, gives both; its shallower tree makes sift-down touch fewer cache
 * lines than a binary heap.
 *
 * <p><b>Layout.</b> Each slot's deadline is kept beside the timer in {@code deadlines}, as Go's
 * heap keeps {@code when} beside each {@code *timer}: sift-down compares four children per
 * level, and reading those deadlines through the timer references cost a cache miss per child
 * once the heap outgrows the cache (Tickers with 10,000 sleepers; docs/design.md, "Timers", under load).
 *
 * <p><b>Timers in deadline order</b> skip the heap: a timer whose deadline is not earlier than the last one appended
 * goes to an {@link AscendingTimerQueue}, a FIFO ring, and the earliest timer is the earlier of the two tops. Sleep
 * loops and fixed timeouts arm nearly all their timers that way; the class comment there says what it saves.
 *
 * <p><b>Not API.</b> Public only because scheduler-core's carriers own and fire these heaps from another package;
 * applications must not use it.
 */
public final class TimerHeap extends TimerHeapPadAfterInbox {

    /** {@link #earliestDeadline()} when there is no timer. */
    public static final long NONE = Long.MAX_VALUE;

    private static final int ARITY = 4;
    private static final int DEFAULT_CAPACITY = 16;

    // Lock holder only: the lock's acquire/release orders these between holders.
    private Timer[] timers;
    /** {@code deadlines[i] == timers[i].deadline()} for every {@code i < size}. */
    private long[] deadlines;
    private int size;
    /** Timers armed in deadline order, outside the heap arrays; {@code size} does not count them. */
    private final AscendingTimerQueue ascending = new AscendingTimerQueue();
    /**
     * {@code size} plus the ascending queue's entries, zombies included, as of the last {@link #publish()}. Written by
     * the lock holder, read without the lock by {@link #isZombieHeavy()}: a stale value moves a clean-up by a round.
     */
    private int entries;

    public TimerHeap() {
        this(DEFAULT_CAPACITY);
    }

    public TimerHeap(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initialCapacity < 0: " + initialCapacity);
        }
        timers = new Timer[Math.max(initialCapacity, ARITY)];
        deadlines = new long[timers.length];
    }

    // ---------------------------------------------------------------- any thread

    /** Takes the lock if it is free; never blocks or spins. */
    public boolean tryLock() {
        return tryLockField();
    }

    /**
     * A snapshot: whether some thread holds the lock. The holder is awake and, if it is firing,
     * fires this heap's due timers itself; a carrier that finds a due timer here need not spin
     * for the lock.
     */
    public boolean isLocked() {
        return isLockedField();
    }

    /**
     * Releases the lock; only its holder may call this.
     *
     * @throws IllegalMonitorStateException if the lock is not held
     */
    public void unlock() {
        unlockField();
    }

    /**
     * Arms {@code t} in this heap from any thread, without the lock: the timer goes to the
     * inbox, which the lock holder merges into the heap on its next drain. The caller must
     * wake the owning carrier if {@code t} is due before what that carrier sleeps toward;
     * this class cannot know that. A timer that already fired or was cancelled is ignored.
     *
     * @throws IllegalStateException if {@code t} is already armed
     */
    public void arm(Timer t) {
        if (t.bind(this)) {
            pushInbox(t);
        }
    }

    /**
     * The earliest deadline among the heap's top (as last published by the lock holder) and
     * the inbox, or {@link #NONE}. Any thread. May be too early when the timer it came from
     * has since been cancelled or fired: the cost is a spurious wake-up, never a missed one.
     */
    public long earliestDeadline() {
        long heap = heapEarliest;
        long in = inboxEarliest;
        return isEarlier(in, heap) ? in : heap;
    }

    /** Approximate: true when nothing was published in the heap and the inbox is empty. */
    public boolean isEmpty() {
        return inbox == null && heapEarliest == NONE;
    }

    /**
     * Any thread, meant for the owner once per scheduling round (Go's {@code timers.check}): whether cancelled timers
     * outnumber a quarter of the entries, so that {@link #drainInbox()} would drop them. The firing paths clean up
     * only when a timer is due, and {@link #add} only what the lock holder itself arms; without this look, timeouts
     * cancelled long before their deadlines, or armed through the inbox, stay reachable, with the threads their actions
     * wake, until those deadlines come. Approximate: the count of entries is the lock holder's last published one.
     */
    public boolean isZombieHeavy() {
        return zombies > entries / 4;
    }

    /**
     * Any thread, approximate: the timers in the heap as its lock holder last published them, cancelled ones not yet
     * dropped included; timers still in the inbox are not counted until a drain takes them in.
     */
    public int entries() {
        return entries;
    }

    // ---------------------------------------------------------------- lock holder

    /** Lock holder: inserts {@code t}; a timer that already fired or was cancelled is ignored. */
    public void add(Timer t) {
        assert isLockedField();
        if (t.bind(this)) {
            insert(t);
            // A thread that arms and cancels timeouts without ever firing one (a timed wait that ends early, again
            // and again) would otherwise grow the heap by one zombie per arm. Merging first counts the inbox's
            // zombies out too, so the rebuild leaves the heap clean and is not repeated on the next add.
            if (zombieHeavy()) {
                mergeInbox();
                cleanIfZombieHeavy();
            }
            publish();
        }
    }

    /**
     * Lock holder: takes {@code t} out of this heap (looking in the inbox too) so it will not
     * fire from here; a pending timer returns to the unarmed state and may be armed again.
     * Returns true if {@code t} was in this heap.
     */
    public boolean remove(Timer t) {
        assert isLockedField();
        if (!contains(t)) {
            if (t.heap != this || !t.isArmed()) {
                return false;
            }
            mergeInbox();
            if (!contains(t)) {
                publish();
                return false;
            }
        }
        if (t.heapIndex >= 0) {
            removeAt(t.heapIndex);
        } else {
            ascending.remove(t);
        }
        if (t.unbind()) {
            zombiesDropped(1);
        }
        publish();
        return true;
    }

    /**
     * Lock holder: the earliest timer still armed, or null. Dead timers found at the top are
     * dropped on the way. The inbox is not consulted; call {@link #drainInbox()} first if it
     * matters.
     */
    public Timer peek() {
        assert isLockedField();
        boolean any = dropDeadTop();
        publish();
        return !any ? null : topIsAscending() ? ascending.first() : timers[0];
    }

    /** Lock holder: entries in the heap, zombies included, inbox excluded. */
    public int size() {
        assert isLockedField();
        return size + ascending.size();
    }

    /** Lock holder: merges the inbox into the heap. */
    public void drainInbox() {
        assert isLockedField();
        mergeInbox();
        cleanIfZombieHeavy();
        publish();
    }

    /**
     * Lock holder: merges the inbox, then fires, earliest first, up to {@code max} timers due
     * at {@code now}, dropping cancelled ones met on the way. An exception thrown by an
     * action goes to {@code onError} and firing continues. Returns the number fired.
     */
    public int fireExpired(long now, int max, Consumer<Throwable> onError) {
        assert isLockedField();
        Objects.requireNonNull(onError, "onError");
        mergeInbox();
        cleanIfZombieHeavy();
        int fired = 0;
        try {
            while (fired < max && dropDeadTop()) {
                boolean fromAscending = topIsAscending();
                if ((fromAscending ? ascending.firstDeadline() : deadlines[0]) - now > 0) {
                    break;
                }
                Timer t = takeTop(fromAscending);
                try {
                    if (t.fire()) {
                        fired++;
                    } else if (t.isCancelled()) {
                        // A cancel won after we looked; it saw ARMED and counted a zombie.
                        zombiesDropped(1);
                    }
                } catch (Throwable e) {
                    fired++;
                    onError.accept(e);
                }
            }
        } finally {
            publish();
        }
        return fired;
    }

    /**
     * Lock holder: cancels every armed timer, in the heap or the inbox, that {@code which}
     * accepts, and returns how many this call cancelled. {@code which} runs under the lock
     * and must not call back into this heap.
     */
    public int cancelIf(Predicate<Timer> which) {
        assert isLockedField();
        Objects.requireNonNull(which, "which");
        mergeInbox();
        int cancelled = 0;
        for (int i = 0; i < size; i++) {
            Timer t = timers[i];
            if (t.isArmed() && which.test(t) && t.cancel(false)) {
                cancelled++;
            }
        }
        cancelled += ascending.cancelIf(which);
        cleanIfZombieHeavy();
        publish();
        return cancelled;
    }

    // ---------------------------------------------------------------- internals

    /** Wrap-safe "{@code a} is strictly earlier than {@code b}", with {@link #NONE} latest of all. */
    public static boolean isEarlier(long a, long b) {
        return a != NONE && (b == NONE || a - b < 0);
    }

    private boolean contains(Timer t) {
        int i = t.heapIndex;
        // heapIndex may belong to another heap's array: only our own slot is proof.
        return i >= 0 ? i < size && timers[i] == t : ascending.contains(t);
    }

    /** Whether the earliest timer is the ascending queue's head rather than the heap's root; some timer must exist. */
    private boolean topIsAscending() {
        return size == 0 || !ascending.isEmpty() && ascending.firstDeadline() - deadlines[0] < 0;
    }

    private Timer takeTop(boolean fromAscending) {
        if (fromAscending) {
            return ascending.poll();
        }
        Timer t = timers[0];
        removeAt(0);
        return t;
    }

    private void mergeInbox() {
        // Advertise what the inbox advertised before resetting it, so readers see at worst
        // the arms that land during the drain itself missing until publish().
        long in = inboxEarliest;
        if (isEarlier(in, heapEarliest)) {
            heapEarliest = in;
        }
        int dropped = 0;
        for (Timer t = takeInbox(); t != null; ) {
            Timer next = t.nextInInbox;
            t.nextInInbox = null;
            if (t.isArmed()) {
                insert(t);
            } else if (t.isCancelled()) {
                dropped++;
            }
            t = next;
        }
        zombiesDropped(dropped);
    }

    /**
     * Drops fired or cancelled timers from the top; true if an armed timer is left there.
     * A timer can be in the heap and FIRED only if someone called {@link Timer#fire()}
     * directly; it counted no zombie.
     */
    private boolean dropDeadTop() {
        int dropped = 0;
        while (size > 0 || !ascending.isEmpty()) {
            boolean fromAscending = topIsAscending();
            if ((fromAscending ? ascending.first() : timers[0]).isArmed()) {
                break;
            }
            if (takeTop(fromAscending).isCancelled()) {
                dropped++;
            }
        }
        zombiesDropped(dropped);
        return size > 0 || !ascending.isEmpty();
    }

    /**
     * O(n) rebuild once more than a quarter of the entries are zombies, so lazily deleted
     * timers cannot grow the heap without bound between firings.
     */
    private void cleanIfZombieHeavy() {
        if (!zombieHeavy()) {
            return;
        }
        int live = 0;
        int dropped = 0;
        for (int i = 0; i < size; i++) {
            Timer t = timers[i];
            if (t.isArmed()) {
                timers[live] = t;
                deadlines[live] = deadlines[i];
                t.heapIndex = live++;
            } else {
                t.heapIndex = -1;
                if (t.isCancelled()) {
                    dropped++;
                }
            }
        }
        Arrays.fill(timers, live, size, null);
        size = live;
        dropped += ascending.dropDead();
        zombiesDropped(dropped);
        // Heapify from the last parent down; (size - 2) / ARITY would truncate to 0 for an empty heap.
        int lastParent = size >= 2 ? (size - 2) / ARITY : -1;
        for (int i = lastParent; i >= 0; i--) {
            siftDown(i);
        }
    }

    private boolean zombieHeavy() {
        return zombies > (size + ascending.size()) / 4;
    }

    /** Republishes the top's deadline; skips the store when unchanged to keep readers' line shared. */
    private void publish() {
        entries = size + ascending.size();
        long e = size == 0 ? NONE : deadlines[0];
        if (!ascending.isEmpty() && isEarlier(ascending.firstDeadline(), e)) {
            e = ascending.firstDeadline();
        }
        if (heapEarliest != e) {
            heapEarliest = e;
        }
    }

    private void insert(Timer t) {
        if (ascending.tryAppend(t, t.deadline())) {
            return;
        }
        if (size == timers.length) {
            timers = Arrays.copyOf(timers, size * 2);
            deadlines = Arrays.copyOf(deadlines, size * 2);
        }
        int i = size++;
        timers[i] = t;
        deadlines[i] = t.deadline();
        t.heapIndex = i;
        siftUp(i);
    }

    private void removeAt(int i) {
        Timer removed = timers[i];
        int last = --size;
        Timer moved = timers[last];
        long movedDeadline = deadlines[last];
        timers[last] = null;
        removed.heapIndex = -1;
        if (i != last) {
            timers[i] = moved;
            deadlines[i] = movedDeadline;
            moved.heapIndex = i;
            if (i > 0 && movedDeadline - deadlines[(i - 1) / ARITY] < 0) {
                siftUp(i);
            } else {
                siftDown(i);
            }
        }
    }

    private void siftUp(int i) {
        Timer t = timers[i];
        long when = deadlines[i];
        while (i > 0) {
            int parent = (i - 1) / ARITY;
            long d = deadlines[parent];
            if (when - d >= 0) {
                break;
            }
            Timer p = timers[parent];
            timers[i] = p;
            deadlines[i] = d;
            p.heapIndex = i;
            i = parent;
        }
        timers[i] = t;
        deadlines[i] = when;
        t.heapIndex = i;
    }

    private void siftDown(int i) {
        Timer t = timers[i];
        long when = deadlines[i];
        while (true) {
            int first = i * ARITY + 1;
            if (first >= size) {
                break;
            }
            int end = Math.min(first + ARITY, size);
            int c = -1;
            long w = when;
            for (int j = first; j < end; j++) {
                long d = deadlines[j];
                if (d - w < 0) {
                    w = d;
                    c = j;
                }
            }
            if (c < 0) {
                break;
            }
            Timer child = timers[c];
            timers[i] = child;
            deadlines[i] = w;
            child.heapIndex = i;
            i = c;
        }
        timers[i] = t;
        deadlines[i] = when;
        t.heapIndex = i;
    }
}
