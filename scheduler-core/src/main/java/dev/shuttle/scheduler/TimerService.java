package dev.shuttle.scheduler;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The carriers' timers: each carrier owns a {@link TimerHeap}; this class arms timers into them, fires expired ones
 * from any heap, and keeps exactly one idle carrier, the watcher, asleep with a timeout for the earliest deadline
 * (Go's netpoller blocked with {@code pollUntil}, seeds 002 and 004), and a second one, the {@link BackupWatch},
 * asleep until that deadline plus a grace, for when the watcher gets up and finds a long task.
 *
 * <p>Arming. A virtual thread's timed park arrives on the carrier that runs it (JDK 25 calls
 * {@code ForkJoinPool.schedule} from the carrier as the thread unmounts); the timer goes straight into that
 * carrier's heap. From any other thread, a timer goes to a random carrier's inbox. Then {@link #armed} makes sure a
 * carrier will be awake for the deadline: if it is earlier than what the watcher sleeps toward, the watcher is
 * unparked to sleep less; with no watcher, an idle carrier is woken (and will become the watcher when it parks). A
 * busy carrier needs no wake-up for its own timers: it checks its heap every scheduling tick.
 *
 * <p>The watcher race. The watcher publishes {@code watchUntil}, then re-reads every heap's earliest deadline,
 * then parks; an arming thread publishes the deadline in a heap, then reads {@code watchUntil}. All volatile, so
 * either the watcher's re-read sees the new timer or the arming thread sees the published {@code watchUntil} and
 * unparks it. With no watcher the arming thread wakes an idle carrier; a carrier on its way to park reads the heaps
 * only after publishing its idle bit, so one of the two sees the other (the park-versus-submit argument of the
 * package documentation, with the heap in place of the queue).
 *
 * <p>Firing. A carrier fires its own expired timers before picking a task; a carrier out of work fires expired
 * timers of any carrier (stealing, exactly as it steals tasks), so a carrier busy in one long virtual thread does
 * not delay its timers. Heap locks are only tried, never waited for; a timer's state CAS makes it fire once.
 * Timer actions unpark virtual threads, which then queue on the firing carrier like any other wake-up.
 */
final class TimerService {
    private static final System.Logger LOG = System.getLogger("dev.shuttle.scheduler");
    /** Timers fired per heap visit: bounds how long one carrier holds a heap's lock. */
    private static final int FIRE_BATCH = 64;
    /**
     * A carrier's own heap is visited only when its run queue has at least this much room. Under overload (10,000
     * sleepers on 2 carriers) every timer is overdue and the queue stays full, so a visit every tick fired one timer
     * per task and paid the heap's lock, fence and clock reads for each. Waiting for room fires them in batches; the
     * threads they wake would queue behind the same full queue either way.
     */
    private static final int OWN_FIRE_MIN_ROOM = 16;
    private static final int NO_WATCHER = -1;
    /**
     * Wake-ups are left to the watch or the backup only while carriers that get up for timers come back this soon:
     * half the backup's minimum grace, so that a carrier back in time is back before the backup would have looked.
     */
    static final long QUICK_RETURN_NANOS = BackupWatch.MIN_GRACE_NANOS / 2;
    private static final VarHandle WATCHER;

    static {
        try {
            WATCHER = MethodHandles.lookup().findVarHandle(TimerService.class, "watcher", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final CarrierPool pool;
    private final Consumer<Throwable> onError = e ->
            LOG.log(Level.ERROR, "a timer's action failed; timers keep firing", e);
    /** The idle carrier parked with a timeout for the earliest deadline, or {@link #NO_WATCHER}. */
    private volatile int watcher = NO_WATCHER;
    /** What the watcher sleeps toward; {@link TimerHeap#NONE} when there is no watcher. */
    private volatile long watchUntil = TimerHeap.NONE;
    /** The idle carrier that covers, within a grace, for a watcher away at work; see {@link BackupWatch}. */
    final BackupWatch backup = new BackupWatch();
    /**
     * How long a carrier that got up for due timers stays out of the idle set, lately: a decaying maximum of what
     * carriers measure when they park again ({@link #recordAway}), set back to the backup's maximum grace when the
     * backup finds a timer nobody fired. The wake-ups the backup makes skippable are skipped only while this is short:
     * a carrier that runs a 300 us task after firing leaves the next timers to the backup, late by the grace, where a
     * precise hand-off cost a wake-up and no lateness (StaggeredTickerLatency 300us/4: median lateness 20 us with the
     * hand-off, 215 us without). Starts at zero, skipping allowed: the first carrier that stays away longer closes
     * the gate for the next 20-odd samples (seven eighths per sample from 2 ms down to 100 us). Racy on purpose: a
     * lost update only shifts the estimate by one sample.
     */
    private volatile long awayNanos;

    TimerService(CarrierPool pool) {
        this.pool = pool;
    }

    /** A timer for {@code action} after {@code delay}, armed on the calling carrier's heap when it is one of ours. */
    Timer schedule(Runnable action, long delay, TimeUnit unit) {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(unit, "unit");
        Timer timer = new Timer(action, deadlineAfter(delay, unit));
        arm(timer);
        return timer;
    }

    /** {@code nanoTime() + delay}, saturated so that a huge delay is "never" rather than a wrapped past deadline. */
    static long deadlineAfter(long delay, TimeUnit unit) {
        long now = System.nanoTime();
        long nanos = unit.toNanos(Math.max(delay, 0));
        long deadline = now + nanos;
        return deadline - now < 0 || deadline == TimerHeap.NONE ? TimerHeap.NONE - 1 : deadline;
    }

    /** Arms {@code timer} and makes sure a carrier will be awake for it; returns whether that woke a carrier. */
    boolean arm(Timer timer) {
        Thread carrier = JdkVirtualThreads.currentCarrier();
        boolean onCarrier = carrier instanceof Carrier c && c.pool == pool;
        boolean woke = false;
        int selfFiring = BackupWatch.NO_HOLDER;
        if (onCarrier) {
            TimerHeap heap = ((Carrier) carrier).timers;
            if (heap.tryLock()) {
                try {
                    heap.add(timer);
                } finally {
                    if (carrier == Thread.currentThread()) {
                        // The JDK arms a timed park here, on the carrier after the thread unmounted (afterYield):
                        // the carrier is between tasks and fires its own due timers before it picks the next one
                        // (or, its queue nearly full, keeps other carriers awake with that queued work), so the due
                        // timers idle carriers passed over while we held the lock need no wake-up, and the fence and
                        // clock read of release() are saved on every timed park.
                        heap.unlock();
                        selfFiring = ((Carrier) carrier).index;
                    } else {
                        woke = release(heap, true);
                    }
                }
            } else {
                heap.arm(timer);
            }
        } else {
            Carrier[] all = pool.carriers;
            all[ThreadLocalRandom.current().nextInt(all.length)].timers.arm(timer);
        }
        return armed(timer.deadline(), onCarrier, selfFiring) || woke;
    }

    /**
     * Unlocks {@code heap} and, if it still holds a due timer, makes sure a carrier gets up for it: while the lock
     * was held, idle carriers passed over that timer ({@link #earliest}). The fence orders the unlock before the
     * reads in {@link #armed}: a carrier going to sleep publishes its idle bit (and, as the watcher,
     * {@code watchUntil}) before it looks at the lock, so either it sees the heap unlocked, or we see it idle or
     * watching and wake it. Returns whether a carrier was woken.
     */
    boolean release(TimerHeap heap, boolean onCarrier) {
        return release(heap, onCarrier, BackupWatch.NO_HOLDER);
    }

    /**
     * {@link #release(TimerHeap, boolean)} by carrier {@code selfFiring}, between tasks after firing: timers that
     * fell due while it fired it fires itself at its next tick, so it wakes nobody for them while another idle
     * carrier will be up within the grace ({@link #armed(long, boolean, int)}).
     */
    private boolean release(TimerHeap heap, boolean onCarrier, int selfFiring) {
        heap.unlock();
        VarHandle.fullFence();
        long d = heap.earliestDeadline();
        return d != TimerHeap.NONE && d - System.nanoTime() <= 0 && armed(d, onCarrier, selfFiring);
    }

    /**
     * Makes sure some carrier is awake by {@code deadline}; see the class comment. Returns whether it woke one (the
     * watcher, or an idle carrier through {@code wakep}).
     */
    boolean armed(long deadline, boolean onCarrier) {
        return armed(deadline, onCarrier, BackupWatch.NO_HOLDER);
    }

    /**
     * {@link #armed(long, boolean)} for a timer that carrier {@code selfFiring} (if not {@link BackupWatch#NO_HOLDER})
     * armed on its own heap between tasks: it fires that timer itself before its next task, so it wakes nobody while
     * another idle carrier will be up within the grace of the deadline ({@link #coveredWithoutWake}). Should its next
     * task run long, that carrier finds the timer due and fires it. The timer is published in the heap before the
     * watch and the backup are read.
     */
    boolean armed(long deadline, boolean onCarrier, int selfFiring) {
        if (!TimerHeap.isEarlier(deadline, watchUntil)) {
            return false;
        }
        if (selfFiring != BackupWatch.NO_HOLDER && coveredWithoutWake(deadline, selfFiring)) {
            return false;
        }
        int w = watcher;
        if (w != NO_WATCHER) {
            LockSupport.unpark(pool.carriers[w]);
            return true;
        }
        if (!onCarrier || pool.idle.count() > 0) {
            return pool.wakep();
        }
        return false;
    }

    /**
     * The deadline an idle carrier must be up by: the earliest in any carrier's heap, O(parallelism), paid only on
     * the way to park, passing over the due timers of a locked heap. Those are the lock holder's: a carrier that
     * fires fires every due timer it has room for, and every holder looks for due timers left behind as it releases
     * the lock ({@link #release}), waking a carrier for them. Getting up for them instead would only fail on the lock
     * again and again; with carriers that park without spinning we measured over a hundred failed attempts per fired
     * timer, a carrier's worth of CPU.
     */
    long earliest(long now) {
        long min = TimerHeap.NONE;
        for (Carrier c : pool.carriers) {
            TimerHeap heap = c.timers;
            long d = heap.earliestDeadline();
            if (d != TimerHeap.NONE && d - now <= 0 && heap.isLocked()) {
                continue;
            }
            if (TimerHeap.isEarlier(d, min)) {
                min = d;
            }
        }
        return min;
    }

    /** Owner: fires this carrier's expired timers, if any; cheap when none is due or the run queue is nearly full. */
    int fireOwn(Carrier self) {
        long due = self.timers.earliestDeadline();
        int room;
        if (due == TimerHeap.NONE || (room = room(self)) < OWN_FIRE_MIN_ROOM) {
            return 0;
        }
        long now = System.nanoTime();
        return due - now <= 0 ? fire(self, self.timers, now, room) : 0;
    }

    /** Fires expired timers of every carrier whose heap is free; the stealing half of timer service. */
    int fireAnyExpired(Carrier self) {
        long now = System.nanoTime();
        int fired = 0;
        for (Carrier c : pool.carriers) {
            long due = c.timers.earliestDeadline();
            if (due != TimerHeap.NONE && due - now <= 0) {
                fired += fire(self, c.timers, now, room(self));
            }
        }
        return fired;
    }

    /**
     * How many timers {@code self} may fire now: as many as its run queue has room for. A timer's action wakes one
     * thread onto that queue; firing more would spill the woken threads into the global queue, which a saturated
     * carrier serves only every 61st tick, so they would wait behind threads whose timers fired later. Unfired
     * expired timers stay in the heap, which keeps them in deadline order, and fire as the queue drains.
     */
    private static int room(Carrier self) {
        return Math.min(FIRE_BATCH, RunQueue.CAPACITY - 1 - self.runQueue.size());
    }

    /** {@code self} fires up to {@code room} of {@code heap}'s timers due at {@code now}, if its lock is free. */
    private int fire(Carrier self, TimerHeap heap, long now, int room) {
        if (room <= 0 || !heap.tryLock()) {
            return 0;
        }
        try {
            return heap.fireExpired(now, room, onError);
        } finally {
            release(heap, true, self.index);
        }
    }

    /**
     * An idle carrier's sleep. With no timer pending it parks until unparked. Otherwise it tries to become the
     * watcher and parks until the earliest deadline, less its {@link ParkOvershoot} lead, then spins to the deadline;
     * if another carrier watches an earlier or equal deadline it sleeps as the {@link BackupWatch} if nobody holds
     * that, else without timeout. {@code maxNanos}, when positive, caps the sleep either way. Returns when unparked or
     * when its time passed, telling whether it held the watch or the backup; the caller re-checks its idle bit.
     */
    boolean sleep(Carrier self, long maxNanos) {
        long until = watchDeadline(self);
        if (until == TimerHeap.NONE) {
            return sleepAsBackup(self, maxNanos);
        }
        try {
            long now = System.nanoTime();
            long delay = until - self.parkOvershoot.lead() - now;
            boolean capped = maxNanos > 0 && delay > maxNanos;
            if (capped) {
                delay = maxNanos;
            }
            if (delay > 0) {
                LockSupport.parkNanos(pool, delay);
                long overshoot = System.nanoTime() - (now + delay);
                if (!capped && overshoot >= 0) {
                    self.parkOvershoot.record(overshoot);
                }
            }
            if (!capped) {
                spinToDeadline(self, until);
            }
        } finally {
            stopWatching(self.index);
        }
        return true;
    }

    /**
     * Sleep for an idle carrier that does not watch: as the {@link BackupWatch} when timers are pending and nobody
     * else holds it, until the earliest deadline plus the grace; otherwise until unparked ({@code maxNanos}, when
     * positive, caps either). Returns whether it held the backup. Giving the backup up comes before the caller's look
     * at the heaps and queues (the next {@link #sleep} or {@code Carrier.awaitWake}'s check): work published by a
     * thread that counted on the backup, and so woke nobody, is seen there.
     */
    private boolean sleepAsBackup(Carrier self, long maxNanos) {
        long at = backupDeadline(self);
        if (at == TimerHeap.NONE) {
            if (maxNanos > 0) {
                LockSupport.parkNanos(pool, maxNanos);
            } else {
                LockSupport.park(pool);
            }
            return false;
        }
        int how = BackupWatch.WOKEN_EARLY;
        try {
            long delay = at - System.nanoTime();
            if (maxNanos > 0 && delay > maxNanos) {
                delay = maxNanos;
            }
            if (delay > 0) {
                LockSupport.parkNanos(pool, delay);
            }
            long now = System.nanoTime();
            if (now - at >= 0) {
                // Slept its full time. Nothing overdue: the carrier it covered for fired in time. A vacant watch alone
                // is not a stuck carrier (the watcher may be up firing the batch that falls due with this wake), and if
                // it is one, this carrier's next sleep takes the watch. Nor is a timer due for less than a quick
                // return: with periodic timers this wake can land on the next batch's deadline a few microseconds
                // before the watcher, spinning toward it, fires it. A timer overdue by more was missed: the grace
                // drops, and wake-ups are skipped no more until carriers show again that they come back quickly.
                how = dueWithin(now, -QUICK_RETURN_NANOS) ? BackupWatch.FOUND_WORK : BackupWatch.QUIET;
                if (how == BackupWatch.FOUND_WORK) {
                    awayNanos = BackupWatch.MAX_GRACE_NANOS;
                }
            }
        } finally {
            backup.release(self.index, how);
        }
        return true;
    }

    /**
     * The non-blocking half of {@link #sleepAsBackup}: claims the backup if a timer is pending and nobody holds it,
     * returning the time to sleep until, else {@link TimerHeap#NONE}.
     */
    long backupDeadline(Carrier self) {
        long now = System.nanoTime();
        long earliest = earliest(now);
        return earliest == TimerHeap.NONE ? TimerHeap.NONE : backup.claim(self.index, earliest, now);
    }

    /**
     * Whether work that carrier {@code self} published before calling (a timer it fires itself, threads its timers
     * woke) may be left without waking anyone: carriers that get up for timers have lately come back within {@link
     * #QUICK_RETURN_NANOS} ({@link #awayNanos}), and an idle carrier other than {@code self}, the watcher or the
     * backup, will be up within {@link BackupWatch#MAX_GRACE_NANOS} of {@code deadline}. If {@code self} then gets
     * stuck, that carrier finds the work when it wakes. A watcher or backup that gives up its role before it wakes
     * re-reads the heaps and the watch before sleeping again, and looks for work if it gets up.
     */
    boolean coveredWithoutWake(long deadline, int self) {
        if (awayNanos >= QUICK_RETURN_NANOS) {
            return false;
        }
        int w = watcher;
        if (w != NO_WATCHER && w != self) {
            long u = watchUntil;
            if (u != TimerHeap.NONE && u - deadline <= BackupWatch.MAX_GRACE_NANOS) {
                return true;
            }
        }
        return backup.covers(deadline, self);
    }

    /**
     * Carrier that got up for due timers {@code nanos} ago parks again: one sample of {@link #awayNanos}, which keeps
     * the larger of the sample and seven eighths of what it held.
     */
    void recordAway(long nanos) {
        long a = awayNanos;
        awayNanos = Math.max(nanos, a - (a >>> 3));
    }

    /**
     * The watcher's last stretch ({@link ParkOvershoot}): spins until {@code until}, but only from at most
     * {@link ParkOvershoot#MAX_LEAD_NANOS} before it, and returns at once when a timer is due, a waker cleared our
     * idle bit, or the pool stops. A park that an unpark ended early, far from the deadline, spins not at all.
     */
    private void spinToDeadline(Carrier self, long until) {
        IdleSet idle = pool.idle;
        long now;
        while ((now = System.nanoTime()) - until < 0 && until - now <= ParkOvershoot.MAX_LEAD_NANOS
                && idle.contains(self.index) && !pool.isStopping()) {
            if (dueWithin(now, 1)) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * The non-blocking half of {@link #sleep}: becomes the watcher if there is a timer and no watcher sleeps toward
     * an earlier or equal deadline, publishes {@code watchUntil}, then reads every heap again (an arm that missed
     * the published value was published before this read). Returns the deadline to sleep toward, or
     * {@link TimerHeap#NONE} when this carrier does not watch.
     */
    long watchDeadline(Carrier self) {
        long until = earliest(System.nanoTime());
        if (until == TimerHeap.NONE || !becomeWatcher(self.index, until)) {
            return TimerHeap.NONE;
        }
        long again = earliest(System.nanoTime());
        if (TimerHeap.isEarlier(again, until)) {
            until = again;
            watchUntil = until;
        }
        return until;
    }

    /** Whether any heap holds a timer (an inbox arm included); no clock read. O(parallelism). */
    boolean anyPending() {
        for (Carrier c : pool.carriers) {
            if (c.timers.earliestDeadline() != TimerHeap.NONE) {
                return true;
            }
        }
        return false;
    }

    /** True if a timer falls due within {@code nanos} (due ones in a locked heap aside, as in {@link #earliest}). */
    boolean dueWithin(long nanos) {
        return dueWithin(System.nanoTime(), nanos);
    }

    private boolean dueWithin(long now, long nanos) {
        long until = earliest(now);
        return until != TimerHeap.NONE && until - now < nanos;
    }

    /** True if a timer is due that the sleeping carrier must get up and fire (none of them in a locked heap). */
    boolean due() {
        return dueWithin(1);
    }

    private boolean becomeWatcher(int index, long until) {
        int w = watcher;
        if (w == NO_WATCHER) {
            if (WATCHER.compareAndSet(this, NO_WATCHER, index)) {
                watchUntil = until;
                return true;
            }
            return false;
        }
        if (TimerHeap.isEarlier(until, watchUntil)) {
            // The watcher sleeps too long for this deadline (it parked before the timer was armed and the arming
            // thread's unpark is still on its way, or was absorbed): nudge it to re-compute.
            LockSupport.unpark(pool.carriers[w]);
        }
        return false;
    }

    void stopWatching(int index) {
        if (watcher == index) {
            watchUntil = TimerHeap.NONE;
            watcher = NO_WATCHER;
        }
    }

    /**
     * A carrier that was the watcher or the backup left the idle set (to fire timers or to run work): timers may
     * still be pending with nobody sleeping toward them. Unless another idle carrier, the watcher or the backup, will
     * be up within the grace of the earliest deadline (and takes the watch then if nobody has), unpark another idle
     * carrier (without taking its bit) so that it re-computes its sleep and takes over the watch. The leaving carrier
     * gave its role up before this look; a carrier that gives up its role after it re-reads the watch and the heaps
     * before sleeping again, and hands off itself if it gets up. Returns the carrier unparked, or -1.
     */
    int handOffWatch(Carrier leaving) {
        long earliest = earliest(System.nanoTime());
        if (earliest == TimerHeap.NONE || pool.idle.count() == 0 || coveredWithoutWake(earliest, leaving.index)) {
            return -1;
        }
        IdleSet idle = pool.idle;
        for (int i = idle.nextIdle(0); i >= 0; i = idle.nextIdle(i + 1)) {
            if (i != leaving.index) {
                LockSupport.unpark(pool.carriers[i]);
                return i;
            }
        }
        return -1;
    }

    /**
     * At close: cancels every pending timer that would start a new virtual thread ({@code ShuttleScheduler.schedule}).
     * Timers of live threads' timed parks stay: those threads must still wake. Waits out a busy heap lock briefly.
     */
    int cancelPendingStarts() {
        int cancelled = 0;
        for (Carrier c : pool.carriers) {
            TimerHeap heap = c.timers;
            while (!heap.tryLock()) {
                Thread.onSpinWait();
            }
            try {
                cancelled += heap.cancelIf(t -> t.action() instanceof ScheduledStart);
            } finally {
                release(heap, false);
            }
        }
        return cancelled;
    }

}
