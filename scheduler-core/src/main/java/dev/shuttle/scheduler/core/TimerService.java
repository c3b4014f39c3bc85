package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import java.lang.System.Logger.Level;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The carriers' timers: each processor owns a {@link TimerHeap}; this class arms timers into them and fires expired
 * ones from any heap. Which idle carriers sleep toward the earliest deadline, and whom an arm must wake, is the
 * {@link Idle}'s part.
 *
 * <p>Arming. A virtual thread's timed park arrives on the carrier that runs it (JDK 25 calls {@code
 * ForkJoinPool.schedule} from the carrier as the thread unmounts); the timer goes straight into that carrier's heap.
 * From any other thread, a timer goes to a random carrier's inbox. Then {@link Idle#awakeBy} makes sure a carrier
 * will be awake for the deadline: if it is earlier than what the watcher sleeps toward, the watcher is unparked to
 * sleep less; with no watcher, an idle carrier is woken (and will become the watcher when it parks). A busy carrier
 * needs no wake-up for its own timers: it checks its heap every scheduling tick.
 *
 * <p>Firing. A carrier fires its own expired timers before picking a task; a carrier out of work fires expired
 * timers of any carrier (stealing, exactly as it steals tasks), so a carrier busy in one long virtual thread does
 * not delay its timers. Heap locks are only tried, never waited for; a timer's state CAS makes it fire once.
 * Timer actions unpark virtual threads, which then queue on the firing carrier like any other wake-up. A cancelled
 * timer stays in its heap until it reaches the top or the cancelled pass a quarter of the heap; the owner drops them
 * then, whether or not anything is due.
 *
 * <p>Who owns what. The executor builds this service and hands it the timed parks the JDK schedules; the carriers
 * call it to fire; the public scheduler arms its scheduled starts through it and, at close, says which pending timers
 * to cancel. The service owns what is in the heaps and their locks, and knows nothing of the actions it fires: it
 * calls down only, into {@link Idle}, {@link Resize} and the heaps, and nothing it calls calls it back.
 */
public final class TimerService {
    private static final System.Logger LOG = System.getLogger("dev.shuttle.scheduler");
    /** Timers fired per heap visit: bounds how long one carrier holds a heap's lock. */
    private static final int FIRE_BATCH = 64;
    /**
     * A carrier's own heap is visited only when its run queue has at least this much room. Under overload (Tickers
     * with far more sleepers than carriers; docs/design.md, "Timers", under load) every timer is overdue and the queue
     * stays full, so a visit every tick fired one timer per task and paid the heap's lock, fence and clock reads for
     * each. Waiting for room fires them in batches; the threads they wake would queue behind the same full queue
     * either way.
     */
    private static final int OWN_FIRE_MIN_ROOM = 16;
    private final PoolState state;
    private final Resize resize;
    private final Consumer<Throwable> onError = e ->
            LOG.log(Level.ERROR, "a timer's action failed; timers keep firing", e);
    /** Who sleeps toward the earliest deadline, and whom an arm wakes. */
    private final Idle idle;
    /** Timers armed from threads that are not this pool's carriers (per-processor counts cover the rest). */
    public final LongAdder externalArms = new LongAdder();

    TimerService(PoolState state, Idle idle, Resize resize) {
        this.state = state;
        this.idle = idle;
        this.resize = resize;
    }

    /** A timer for {@code action} after {@code delay}, armed on the calling carrier's heap when it is one of ours. */
    Timer schedule(Runnable action, long delay, TimeUnit unit) {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(unit, "unit");
        Timer timer = new Timer(action, deadlineAfter(delay, unit));
        arm(timer);
        return timer;
    }

    /**
     * What {@code ShuttleScheduler.schedule} returns for a timer: the timer seen only through {@link ScheduledFuture}
     * (see {@link ScheduledHandle}).
     *
     * @param timer the scheduled start's timer
     * @return a future whose only operations are {@code ScheduledFuture}'s
     */
    public static ScheduledFuture<Void> futureOf(Timer timer) {
        return new ScheduledHandle(timer);
    }

    /** {@code nanoTime() + delay}, saturated so that a huge delay is "never" rather than a wrapped past deadline. */
    public static long deadlineAfter(long delay, TimeUnit unit) {
        long now = System.nanoTime();
        long nanos = unit.toNanos(Math.max(delay, 0));
        long deadline = now + nanos;
        return deadline - now < 0 || deadline == TimerHeap.NONE ? TimerHeap.NONE - 1 : deadline;
    }

    /** Arms {@code timer} and makes sure a carrier will be awake for it; returns whether that woke a carrier. */
    public boolean arm(Timer timer) {
        Thread carrier = JdkVirtualThreads.currentCarrier();
        Processor proc = carrier instanceof CarrierThread c && c.state == state ? c.p : null;
        boolean onCarrier = proc != null;
        boolean woke = false;
        int selfFiring = TimerSleepers.NO_ONE;
        if (onCarrier) {
            proc.timersArmed++;
            TimerHeap heap = proc.timers;
            if (heap.tryLock()) {
                try {
                    heap.add(timer);
                } finally {
                    if (carrier == Thread.currentThread()) {
                        // The JDK arms a timed park here, on the carrier after the thread unmounted (afterYield):
                        // the carrier is between tasks and fires its own due timers before it picks the next one
                        // (or, its queue nearly full, keeps other carriers awake with that queued work), so the due
                        // timers idle carriers passed over while we held the lock need no wake-up, and the fence and
                        // clock read of release() are saved on every timed park. Should the processor have gone to
                        // another carrier meanwhile, this carrier learns it after the task and looks then
                        // (Carrier.lostProcessor).
                        heap.unlock();
                        selfFiring = proc.index;
                    } else {
                        woke = release(heap, true);
                    }
                }
            } else {
                heap.arm(timer);
            }
        } else {
            externalArms.increment();
            Processor[] all = state.processors;
            proc = all[ThreadLocalRandom.current().nextInt(all.length)];
            proc.timers.arm(timer);
        }
        if (proc.retired) {
            // A resize retired the heap's processor (package-info, "Resizing"): the timer was published before this
            // read, the resize raised the flag before it emptied the heap, so one of the two moves it.
            resize.drain(proc);
        }
        return idle.awakeBy(timer.deadline(), onCarrier, selfFiring) || woke;
    }

    /**
     * Unlocks {@code heap} and, if it still holds a due timer, makes sure a carrier gets up for it: while the lock
     * was held, idle carriers passed over that timer ({@link TimerDeadlines#earliest}). The fence orders the unlock before the
     * reads in {@link Idle#awakeBy}: a carrier going to sleep publishes its idle bit (and, as the watcher,
     * {@code watchUntil}) before it looks at the lock, so either it sees the heap unlocked, or we see it idle or
     * watching and wake it. Returns whether a carrier was woken.
     */
    boolean release(TimerHeap heap, boolean onCarrier) {
        return release(heap, onCarrier, TimerSleepers.NO_ONE);
    }

    /**
     * {@link #release(TimerHeap, boolean)} by carrier {@code selfFiring}, between tasks after firing: timers that
     * fell due while it fired it fires itself at its next tick, so it wakes nobody for them while another idle
     * carrier will be up within the grace ({@link Idle#awakeBy}).
     */
    private boolean release(TimerHeap heap, boolean onCarrier, int selfFiring) {
        heap.unlock();
        VarHandle.fullFence();
        return wakeForDue(heap, onCarrier, selfFiring);
    }

    /**
     * The look of {@link #release} without the unlock, for a heap whose lock this carrier released earlier without
     * looking, from a processor it has since lost; the caller's failed CAS fenced the unlock off from this look.
     */
    boolean recheckDue(TimerHeap heap) {
        return wakeForDue(heap, false, TimerSleepers.NO_ONE);
    }

    private boolean wakeForDue(TimerHeap heap, boolean onCarrier, int selfFiring) {
        long d = heap.earliestDeadline();
        return d != TimerHeap.NONE && d - System.nanoTime() <= 0 && idle.awakeBy(d, onCarrier, selfFiring);
    }

    /**
     * Owner, every scheduling round: fires this carrier's expired timers, if any, or else drops its cancelled ones
     * when they outnumber a quarter of its heap; cheap when neither is needed or the run queue is nearly full.
     */
    int fireOwn(Processor self) {
        TimerHeap heap = self.timers;
        long due = heap.earliestDeadline();
        if (due == TimerHeap.NONE) {
            // Nothing published and an empty inbox: no cancelled timer to drop either.
            return 0;
        }
        int room = room(self);
        if (room >= OWN_FIRE_MIN_ROOM) {
            long now = System.nanoTime();
            if (due - now <= 0) {
                return fire(self, heap, now, room, due);
            }
        }
        if (heap.isZombieHeavy()) {
            dropCancelled(heap);
        }
        return 0;
    }

    /**
     * Go's {@code timers.check} cleans a P's heap of deleted timers when they pass a quarter of it even when nothing is
     * due. Firing cleans only when something is due, so without this a carrier whose threads' timeouts end early (a
     * timed wait answered, a socket read that got its bytes) keeps each cancelled timer, and the thread its action
     * would wake, until the deadline: rate times timeout of them, or for ever for timers armed and cancelled from
     * other threads, which sit in the inbox. The release looks for due timers passed over meanwhile and wakes a
     * carrier for them: with its run queue nearly full this carrier does not fire its own at its next round.
     */
    private void dropCancelled(TimerHeap heap) {
        if (heap.tryLock()) {
            try {
                heap.drainInbox();
            } finally {
                release(heap, true);
            }
        }
    }

    /** Fires expired timers of every carrier whose heap is free; the stealing half of timer service. */
    int fireAnyExpired(Processor self) {
        long now = System.nanoTime();
        int fired = 0;
        for (Processor c : state.processors) {
            long due = c.timers.earliestDeadline();
            if (due != TimerHeap.NONE && due - now <= 0) {
                fired += fire(self, c.timers, now, room(self), due);
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
    private static int room(Processor self) {
        return Math.min(FIRE_BATCH, RunQueue.CAPACITY - 1 - self.runQueue.size());
    }

    /**
     * {@code self} fires up to {@code room} of {@code heap}'s timers due at {@code now}, if its lock is free. {@code
     * due} is the heap's earliest deadline as the caller saw it: the batch's worst lateness, for {@link TimerLateEvent}.
     */
    private int fire(Processor self, TimerHeap heap, long now, int room, long due) {
        if (room <= 0 || !heap.tryLock()) {
            return 0;
        }
        try {
            int fired = heap.fireExpired(now, room, onError);
            boolean stolen = heap != self.timers;
            if (stolen) {
                self.timersStolen += fired;
            } else {
                self.timersFiredOwn += fired;
            }
            if (fired > 0 && now - due > TimerLateEvent.minLatenessNanos) {
                TimerLateEvent.emit(state.name, due, now - due, fired, indexOf(heap), stolen);
            }
            return fired;
        } finally {
            release(heap, true, self.index);
        }
    }

    private int indexOf(TimerHeap heap) {
        for (Processor p : state.processors) {
            if (p.timers == heap) {
                return p.index;
            }
        }
        return -1;
    }

    /**
     * Cancels every pending timer whose action {@code which} accepts, in every heap; at close, the timers that would
     * start a new virtual thread ({@code ShuttleScheduler.close}). The caller says which: this service runs actions
     * and knows none of their kinds. Waits out a busy heap lock briefly.
     */
    public int cancelPending(Predicate<Runnable> which) {
        int cancelled = 0;
        for (Processor c : state.processors) {
            TimerHeap heap = c.timers;
            while (!heap.tryLock()) {
                Thread.onSpinWait();
            }
            try {
                cancelled += heap.cancelIf(t -> which.test(t.action()));
            } finally {
                release(heap, false);
            }
        }
        return cancelled;
    }

}
