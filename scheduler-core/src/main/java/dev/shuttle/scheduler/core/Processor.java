package dev.shuttle.scheduler.core;

import dev.shuttle.timers.TimerHeap;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A processor (Go's P): the right to run virtual threads, with the run queue, {@code runNext} slot and timer heap
 * that go with it. A scheduler has exactly {@code parallelism} of them; a {@link Carrier} thread (Go's M) must hold
 * one to run its scheduling loop. Usually a processor keeps one carrier for life; the {@link Monitor} and the
 * blocking hooks move it to another carrier when its carrier is stuck in the kernel.
 *
 * <h2>Who holds it: the state word</h2>
 * {@link #state} packs the holder's serial number with a phase: {@link #LOOP} (the holder runs the scheduling loop,
 * or is parked idle with it), {@link #TASK} (the holder runs a virtual thread) and {@link #BLOCKING} (that virtual
 * thread is inside a call the JDK marks with {@code jdk.internal.misc.Blocker}). Transitions:
 * <ul>
 *   <li>{@code LOOP -> TASK}: the holder, before each task; a plain release store, since nobody else ever writes a
 *       word in phase {@code LOOP}.</li>
 *   <li>{@code TASK -> LOOP}: the holder, after the task, by CAS ({@link #endTask}). A failed CAS means the
 *       processor was handed to another carrier while the task ran: the holder has lost it.</li>
 *   <li>{@code TASK -> BLOCKING -> TASK}: the holder, around a marked blocking call, by CAS (Go's
 *       {@code entersyscall}/{@code exitsyscall}).</li>
 *   <li>{@code TASK or BLOCKING -> (another carrier) LOOP}: a hand-off ({@link #tryRetake}), by CAS.</li>
 * </ul>
 * Because every move away from a holder is a CAS on the word that holds its serial, exactly one carrier runs the
 * loop of a processor at any time, and the loser learns it at its next CAS. The serial (not the phase alone) makes
 * the CAS immune to ABA: a processor handed on and later back in phase {@code TASK} under another carrier does not
 * match the old holder's expected word.
 *
 * <h2>What a carrier that lost its processor may still touch</h2>
 * A carrier whose processor was taken goes on running its virtual thread until that thread unmounts, and learns of
 * the loss only then. Meanwhile the thread may wake others or arm timers on this processor. That is safe because
 * everything a task may touch here is safe for any number of threads: {@code runNext} is swapped atomically, the run
 * queue is a multi-producer queue whose thieves cope with a full sink ({@link RunQueue}), and the timer heap is
 * guarded by its lock. Everything else here (the fields marked "holder") belongs to whoever runs the loop.
 *
 * <h2>Retired by a resize</h2>
 * Shrinking the pool ({@link Resize}) retires the highest-numbered processors: {@link #retired} is raised first, then
 * the state word goes to {@link #RETIRED_WORD}, by the resizer's CAS from phase TASK or BLOCKING (the holder learns it
 * at its next CAS, exactly as after a hand-off), or by the holder itself in phase LOOP, which it alone writes, when it
 * sees the flag before it parks or after it wakes. {@code RETIRED_WORD} is in phase LOOP under a serial no carrier
 * has, so no hand-off or holder CAS ever matches it. A processor brought back by a later grow is bound afresh.
 */
public final class Processor {
    static final int LOOP = 0;
    public static final int TASK = 1;
    public static final int BLOCKING = 2;
    private static final int PHASE_BITS = 2;
    private static final int PHASE_MASK = (1 << PHASE_BITS) - 1;
    /** The state of a processor no carrier holds, after a resize retired it. */
    static final long RETIRED_WORD = ((long) -1 << PHASE_BITS) | LOOP;

    private static final VarHandle TICK;
    private static final VarHandle STATE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TICK = l.findVarHandle(Processor.class, "tick", int.class);
            STATE = l.findVarHandle(Processor.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final int index;
    public final RunQueue runQueue;
    /** Timers armed by threads running here; fired by the holder, or stolen by an idle carrier. */
    public final TimerHeap timers = new TimerHeap();
    /**
     * Holder: how long before its deadline this processor's carrier parks until as the timer watcher, then spins: a
     * low quantile of how late its timed parks return ({@link TimerSleepers#nextParkLead}).
     */
    long parkLead;
    /** Holder: how the next search pauses, and how long, before parking. */
    final SearchBackoff backoff;
    /** Holder: {@code tick} of each victim in the first round of a search; grown by the holder after a resize. */
    int[] ticksAtSearchStart;
    /**
     * Holder: how long the last unsuccessful full-budget search lasted from its first pause, 0 until one was timed
     * ({@link WorkSearch#search}): a wake sooner than this after a park would have been caught by spinning.
     */
    long fullSearchNanos;
    /**
     * Holder: when its carrier began to park with less than the full search budget after a timed search, 0 when that
     * park's wake can teach the {@link SearchBackoff} nothing ({@code Carrier.prepareToPark}).
     */
    long parkedAt;
    /** Holder: runNext picks in a row. */
    int runNextStreak;
    /** Holder: xorshift state for the random start of a steal pass. */
    int seed;
    /**
     * Holder: when this processor's carrier last got up from the timer watch or the backup, 0 if it did not;
     * reported to {@link TimerSleepers#recordAway} when it parks again.
     */
    long awaySince;
    /** Holder: the JDK pollers its carrier's sleep in the poll found ready, a bit per poller, polled once it is up. */
    long readyPollers;

    // Counters, read by SchedulerCounters.of: plain fields written by the holder, so no core ever contends for a cache
    // line it would not write anyway (the holder writes tick in the same object every loop). Readers sum them racily;
    // a sum may lag by the increments not yet visible, never go backwards on x86-64 where long stores are atomic.
    /** Holder: virtual-thread runs started (a run lasts until the thread parks, yields or ends). */
    public long tasksRun;
    /** Holder: successful steals from another processor's queue or runNext (one per steal, whatever its size). */
    public long steals;
    /** Holder: times its carrier slept while idle (one idle spell may sleep several times). */
    public long parks;
    /** Holder: times its carrier got up from idle to work (woken, or up for due timers or work it saw). */
    public long wakeUps;
    /** Holder: times its carrier, woken to search, slept again without having run a task (a wake-up for nothing). */
    public long emptyWakeUps;
    /** Holder: searches that spun (paused between two rounds) and then found work. */
    public long spinsFound;
    /** Holder: searches that spun and found nothing; the carrier parked after them. */
    public long spinsWasted;
    /**
     * Holder: involuntary context switches of the carriers that held this processor, counted by each as it parks
     * ({@link InvoluntarySwitches}): times the kernel took a carrier's core while it was runnable.
     */
    public long involuntarySwitches;
    /** Holder: the sleeps its carrier spent in the network poll ({@link Netpoll}). */
    public long pollsBlocking;
    /** Holder: its carrier's polls that did not block. */
    public long pollsNonBlocking;
    /** Holder: descriptors its carrier's polls found ready (each unparks the thread waiting for it). */
    public long polledDescriptors;
    /** Holder: timers fired from this processor's own heap. */
    public long timersFiredOwn;
    /** Holder: timers this processor's carrier fired from other processors' heaps. */
    public long timersStolen;
    /**
     * Timers armed on this processor's heap by its carrier. Written on the carrier as a virtual thread unmounts, so a
     * carrier that lost this processor and has not yet noticed may increment it at the same time as the new holder:
     * a plain increment may then lose one count. Accepted: an exact count would need a shared atomic per timed park.
     */
    public long timersArmed;
    /** Holder: the sampled waits of the threads it started ({@link SchedulingDelays}). */
    final DelayHistogram delays = new DelayHistogram();
    /**
     * Holder: the id of the virtual thread it started last, which {@link SchedulingDelayEvent} names as what a victim
     * waited behind; an id, so that an idle processor keeps no ended thread reachable.
     */
    long lastStartedId = -1;

    /**
     * Scheduling ticks, a sign of progress: written by the holder with release stores (a plain store on x86, not a
     * volatile write's fence in the hot loop), read by thieves and the monitor with acquire loads.
     */
    @SuppressWarnings("unused") // accessed through TICK
    private int tick;
    /** Holder serial and phase; see the class comment. */
    @SuppressWarnings("unused") // accessed through STATE
    private volatile long state;
    /** The carrier thread that holds this processor; written before the holder is unparked with it. */
    private volatile CarrierThread holder;
    /**
     * The tick at which the {@link Monitor} last saw this processor stand still with work waiting: while the tick is
     * still this, thieves may take its runNext. Starts at a tick the processor reaches only after 2^32 - 1 ticks.
     */
    private volatile int stuckTick = -1;
    /**
     * Raised by a resize that retires this processor, before it takes the processor from its holder; lowered only by
     * a grow that brings it back. Read where work may still land here: a stale push ({@code Carrier.pushLocal}), a
     * timer armed here ({@code TimerService.arm}), and the holder's way to park.
     */
    volatile boolean retired;

    Processor(GlobalQueue global, SpinPolicy spin, int index, int parallelism) {
        this.index = index;
        this.runQueue = new RunQueue(global);
        this.seed = 0x9E3779B9 * (index + 1);
        this.ticksAtSearchStart = new int[parallelism];
        this.backoff = new SearchBackoff(spin);
    }

    static long word(CarrierThread carrier, int phase) {
        return ((long) carrier.serial << PHASE_BITS) | phase;
    }

    public static int phaseOf(long word) {
        return (int) (word & PHASE_MASK);
    }

    /** Gives this processor, in phase LOOP, to {@code carrier} before that carrier first runs: no race yet. */
    void bindInitial(CarrierThread carrier) {
        holder = carrier;
        STATE.setVolatile(this, word(carrier, LOOP));
    }

    /**
     * A resize retires this processor from a holder seen in {@code expected} (phase TASK or BLOCKING): the holder
     * learns it at its next CAS.
     */
    boolean retireFrom(long expected) {
        return phaseOf(expected) != LOOP && STATE.compareAndSet(this, expected, RETIRED_WORD);
    }

    /** Holder, in phase LOOP, which nobody else writes: gives this retired processor up. */
    void retireByHolder() {
        STATE.setVolatile(this, RETIRED_WORD);
    }

    boolean isGivenUp() {
        return state() == RETIRED_WORD;
    }

    public CarrierThread holder() {
        return holder;
    }

    public long state() {
        return (long) STATE.getVolatile(this);
    }

    public int tick() {
        return (int) TICK.getAcquire(this);
    }

    /** Holder: one more scheduling tick; returns it. */
    int nextTick() {
        int t = (int) TICK.get(this) + 1;
        TICK.setRelease(this, t);
        return t;
    }

    /**
     * The one rule for a stuck processor, and so for a {@code runNext} that a carrier other than the owner may take:
     * its tick, read as {@code tick}, is still the one a looker recorded for it in {@code seen} (indexed by processor)
     * a while earlier, so one task has kept the processor since (a long task, a waiter spinning for the thread it just
     * woke) and the owner will not run its {@code runNext} soon. Otherwise the owner will run it next, and a thief
     * would only move a thread off the warm carrier. Three lookers apply it, each to its own record:
     * <ul>
     *   <li>a searcher after its first pause, against the ticks of its first round ({@link WorkSearch}; Go's
     *       {@code runqgrab} likewise pauses before it takes a running P's {@code runnext});</li>
     *   <li>a parking carrier's re-check, against the record of its last search: the {@code runNext} that search
     *       would take ({@code Idle.workInSight});</li>
     *   <li>the {@link Monitor}, between two of its looks; it publishes what it found with {@link #markStuck}, so
     *       that thieves take the {@code runNext} at once.</li>
     * </ul>
     * A record shorter than the pool (made before a resize grew it) says nothing of the processors beyond it.
     */
    boolean stoodStill(int tick, int[] seen) {
        return index < seen.length && seen[index] == tick;
    }

    /** Monitor: this processor's tick stood still at {@code t} with work waiting ({@link #stoodStill}). */
    void markStuck(int t) {
        stuckTick = t;
    }

    boolean isStuckAt(int t) {
        return stuckTick == t;
    }

    /** Holder, in phase LOOP: a task starts. */
    void beginTask(CarrierThread self) {
        STATE.setRelease(this, word(self, TASK));
    }

    /** Holder: the task ended; false if the processor was handed to another carrier meanwhile. */
    boolean endTask(CarrierThread self) {
        return STATE.compareAndSet(this, word(self, TASK), word(self, LOOP));
    }

    /** Holder, inside a task: a marked blocking call begins; false if the processor is no longer ours. */
    boolean enterBlocking(CarrierThread self) {
        return STATE.compareAndSet(this, word(self, TASK), word(self, BLOCKING));
    }

    /** Holder: the marked blocking call returned; false if the processor was handed off meanwhile. */
    boolean exitBlocking(CarrierThread self) {
        return STATE.compareAndSet(this, word(self, BLOCKING), word(self, TASK));
    }

    /**
     * Hands this processor, seen in state {@code expected} (phase TASK or BLOCKING), to {@code to}: on success
     * {@code to} holds it in phase LOOP and must be started or unparked by the caller.
     */
    boolean tryRetake(long expected, CarrierThread to) {
        if (phaseOf(expected) == LOOP || !STATE.compareAndSet(this, expected, word(to, LOOP))) {
            return false;
        }
        holder = to;
        return true;
    }

    /** Whether anything waits here for a carrier: queued tasks, runNext, or a due timer. */
    boolean hasWaitingWork(long now) {
        if (!runQueue.isEmpty()) {
            return true;
        }
        long due = timers.earliestDeadline();
        return due != TimerHeap.NONE && due - now <= 0;
    }
}
