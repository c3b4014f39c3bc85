package dev.shuttle.scheduler.core;

import dev.shuttle.timers.TimerHeap;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The monitor (Go's {@code sysmon}): one daemon platform thread per scheduler that looks at every processor now and
 * then and keeps work moving when a carrier stops coming back. It is the one place that answers "a carrier stopped
 * making progress: who takes its work?".
 *
 * <p>Each look, per busy processor whose tick has not moved since the last look ({@link Processor#stoodStill}, the
 * rule the searchers apply too) while work waits for it (its queue, its runNext, a due timer, or the global queue
 * while no processor is idle):
 * <ul>
 *   <li>In a marked blocking call (phase BLOCKING): the processor goes to another carrier thread at once.</li>
 *   <li>Running a task whose carrier thread has been neither on a CPU nor waiting for one for most of the time since
 *       the last look, and for at least {@link #STUCK_NANOS}, at two looks in a row ({@link ThreadActivity}): the carrier
 *       is blocked in the kernel (a read the JDK does not mark, a native call, class initialisation). The processor goes to another
 *       carrier thread. The signal needs no exactness for safety: a hand-off is a CAS on the processor's state
 *       ({@link Processor}), correct whether or not the carrier was really blocked; a wrong guess (a carrier that
 *       only waited for a core) costs one extra thread for a while.</li>
 *   <li>Running a task on a CPU (a long computation): the processor is marked stuck at its tick, so thieves may take
 *       its runNext, and an idle processor is woken to take its queue, runNext and due timers. With a time slice
 *       set, once the task has run longer than the slice the processor goes to another carrier thread, and the OS
 *       shares the cores between the long task and the rest.</li>
 * </ul>
 * Besides, when a processor is idle and nobody searches, yet work stays queued or a timer stays overdue with no idle
 * carrier sleeping toward it, for {@link #RESCUE_AFTER_NANOS} at every look, some wake-up was lost: the monitor wakes
 * a carrier and counts a rescue ({@link #rescues()}), so a lost wake-up shows in tests.
 *
 * <p>Sleep: 20 µs between looks, doubling up to 10 ms after 50 looks that took no processor and rescued nothing (Go's
 * back-off, where only {@code retake} resets the delay). Marking a processor stuck and waking a searcher for it does
 * not count: under a server's load some task always runs past 20 µs with work behind it, so the monitor would never
 * back off, while the carriers' own wake-ups (after every push, and the searchers' runNext steal after a pause)
 * already move that work. While every processor is idle and no timer is pending it parks without a timeout, and the
 * first processor to leave the idle set wakes it ({@link Idle#processorBusy}), which has the race
 * ({@code MonitorSleepVersusBusyStress}). That wake keeps the delay the monitor had, as Go's sysmon keeps it when a
 * timer ends its deep sleep: a server's processors go idle and busy thousands of times a second, and a monitor that
 * started again at 20 µs each time would look at its fastest under moderate load.
 *
 * <p>It sits above everything it looks at: it reads the {@link PoolState} and the timer heaps, and acts through
 * {@link Idle} and {@link HandOff}; carriers and wakers reach it only through {@code Idle}'s flag and an unpark.
 */
public final class Monitor implements Runnable {
    static final long MIN_DELAY_NANOS = 20_000;
    static final long MAX_DELAY_NANOS = 10_000_000;
    private static final int QUIET_LOOKS_BEFORE_BACKOFF = 50;
    /**
     * How long a processor's tick must stand still before the monitor takes it from a carrier that is off the CPU:
     * on a loaded machine the OS may keep a runnable carrier waiting for a core for a time slice or two, and a
     * hand-off then only adds a thread.
     */
    static final long STUCK_NANOS = 1_000_000;
    /**
     * How long work must wait unserved, at every look, before the monitor calls it a lost wake-up. Every wake-up path
     * has a window between publishing and waking (a pusher between its push and {@code wakep}, a carrier between its
     * idle bit and its re-check) in which a look sees exactly what a lost wake-up leaves, and on a loaded machine the
     * OS can hold a thread in that window for milliseconds (docs/design.md, "Blocking and the monitor"). Fifty is far
     * past such delays, and a lost wake-up, which waits forever, still shows.
     */
    static final long RESCUE_AFTER_NANOS = 50_000_000;

    private final PoolState state;
    private final TimerDeadlines deadlines;
    private final Idle idle;
    private final HandOff handOff;
    private final Netpoll netpoll;
    private final long timeSliceNanos;
    private final Thread thread;
    /** Monitor-owned: what each processor looked like at the last look. */
    private long[] seenState;
    private int[] seenTick;
    private long[] seenSince;
    /** Monitor-owned: the holder's {@link CarrierThread#activeNanos} at the last look, -1 if not read. */
    private long[] seenCpu;
    /** Monitor-owned: the holder looked blocked at the last look too (see {@link #lookAt}). */
    private boolean[] seenOffCpu;
    /** Monitor-owned: a {@link LongTaskEvent} was recorded for the processor's current spell. */
    private boolean[] longTaskReported;
    /** Monitor-owned: when the last look was. */
    private long lastLook;
    /** Monitor-owned: work has waited unserved at every look since {@link #unservedSince}. */
    private boolean unserved;
    private long unservedSince;
    /** Monitor-owned: the overdue timer's deadline when the wait began, {@link TimerHeap#NONE} if it was work. */
    private long unservedTimer = TimerHeap.NONE;
    /** Work the monitor found that no other path would have taken: lost wake-ups and missed timers. */
    private final AtomicLong rescues = new AtomicLong();
    /** Processors taken from a carrier that was blocked or ran past its time slice. */
    private final AtomicLong retakes = new AtomicLong();

    Monitor(PoolState state, TimerDeadlines deadlines, Idle idle, HandOff handOff, Netpoll netpoll,
            long timeSliceNanos) {
        this.netpoll = netpoll;
        this.state = state;
        this.deadlines = deadlines;
        this.idle = idle;
        this.handOff = handOff;
        this.timeSliceNanos = timeSliceNanos;
        int n = state.processors.length;
        this.seenState = new long[n];
        this.seenTick = new int[n];
        this.seenSince = new long[n];
        this.seenCpu = new long[n];
        this.seenOffCpu = new boolean[n];
        this.longTaskReported = new boolean[n];
        this.thread = new Thread(null, this, "shuttle-monitor", 0, false);
        thread.setDaemon(true);
        idle.attachMonitor(thread);
    }

    void start() {
        thread.start();
    }

    void stop() {
        LockSupport.unpark(thread);
    }

    void join() throws InterruptedException {
        thread.join();
    }

    public long rescues() {
        return rescues.get();
    }

    public long retakes() {
        return retakes.get();
    }

    @Override
    public void run() {
        long delay = MIN_DELAY_NANOS;
        int quiet = 0;
        while (!state.isStopping()) {
            if (sleepWhileAllIdle()) {
                continue;
            }
            LockSupport.parkNanos(this, delay);
            if (look(System.nanoTime())) {
                delay = MIN_DELAY_NANOS;
                quiet = 0;
            } else if (++quiet > QUIET_LOOKS_BEFORE_BACKOFF) {
                delay = Math.min(2 * delay, MAX_DELAY_NANOS);
            }
        }
    }

    /** Parks without a timeout while nothing can need the monitor; returns whether it did. */
    private boolean sleepWhileAllIdle() {
        if (!prepareToSleep()) {
            return false;
        }
        while (idle.monitorAsleep() && !state.isStopping()) {
            LockSupport.park(this);
        }
        return true;
    }

    /**
     * The non-blocking half of sleeping without a timeout, apart so that a test can play the monitor: {@link
     * Idle#monitorMaySleep} holds the handshake. Returns true when the monitor must now park until woken.
     */
    boolean prepareToSleep() {
        return idle.monitorMaySleep();
    }

    /** One look at every processor; returns whether it took a processor from its carrier or rescued work. */
    boolean look(long now) {
        boolean acted = false;
        boolean noneIdle = state.idle.count() == 0;
        boolean globalWaits = state.hasGlobalWork();
        Processor[] all = state.processors;
        if (all.length > seenState.length) {
            growLooks(all.length);
        }
        for (Processor proc : all) {
            acted |= lookAt(proc, now, noneIdle && globalWaits);
        }
        netpoll.monitorPoll(now);
        lastLook = now;
        return rescueLostWakeUp(now) || acted;
    }

    /**
     * A resize grew the pool: room for the new processors' looks. Grown here, by the monitor that owns them; a
     * shrink leaves them as they are, and a processor that comes back starts with a look that only records it.
     */
    private void growLooks(int n) {
        seenState = Arrays.copyOf(seenState, n);
        seenTick = Arrays.copyOf(seenTick, n);
        seenSince = Arrays.copyOf(seenSince, n);
        seenCpu = Arrays.copyOf(seenCpu, n);
        seenOffCpu = Arrays.copyOf(seenOffCpu, n);
        longTaskReported = Arrays.copyOf(longTaskReported, n);
    }

    private boolean lookAt(Processor proc, long now, boolean globalStarved) {
        int i = proc.index;
        long word = proc.state();
        int tick = proc.tick();
        int phase = Processor.phaseOf(word);
        if (word != seenState[i] || !proc.stoodStill(tick, seenTick) || phase == Processor.LOOP) {
            seenState[i] = word;
            seenTick[i] = tick;
            seenSince[i] = now;
            seenCpu[i] = -1;
            seenOffCpu[i] = false;
            longTaskReported[i] = false;
            return false;
        }
        if (!globalStarved && !proc.hasWaitingWork(now)) {
            return false;
        }
        if (phase == Processor.BLOCKING) {
            return retakeBlocked(proc, word, now - seenSince[i], true);
        }
        CarrierThread holder = proc.holder();
        long cpu = activeNanos(holder);
        // Read only for a processor already stuck with work waiting: the first such look takes the baseline. The
        // counters lag a carrier on a CPU by up to a scheduler tick, so its state must say it is not runnable too.
        boolean offCpu = cpu >= 0 && seenCpu[i] >= 0 && (cpu - seenCpu[i]) * 8 < now - lastLook
                && !holder.isKnownRunnable();
        seenCpu[i] = cpu;
        long stuckFor = now - seenSince[i];
        // Blocked at two looks in a row, not one: a look can land inside a safepoint (a GC pause), when every Java
        // thread sleeps in the kernel and uses no CPU while the monitor, reading /proc in native code, goes on. The
        // next look comes after the monitor's own park, which cannot end inside that pause, and sees the carrier
        // runnable again; a carrier blocked in a read is still asleep.
        boolean blocked = offCpu && stuckFor >= STUCK_NANOS;
        if (blocked && seenOffCpu[i]) {
            return retakeBlocked(proc, word, stuckFor, false);
        }
        seenOffCpu[i] = blocked;
        if (timeSliceNanos > 0 && stuckFor >= timeSliceNanos) {
            return retake(proc, word);
        }
        if (stuckFor >= LongTaskEvent.minRunningForNanos && !longTaskReported[i]) {
            longTaskReported[i] = true;
            LongTaskEvent.emit(state.name, proc, stuckFor);
        }
        proc.markStuck(tick);
        idle.wakep();
        return false;
    }

    /** A retake from a carrier blocked in the kernel, recorded as {@link CarrierBlockedEvent} when enabled. */
    private boolean retakeBlocked(Processor proc, long word, long stuckFor, boolean marked) {
        CarrierThread blocked = proc.holder();
        if (!retake(proc, word)) {
            return false;
        }
        CarrierBlockedEvent.emit(state.name, blocked, stuckFor, marked);
        return true;
    }

    private boolean retake(Processor proc, long word) {
        if (!handOff.retake(proc, word)) {
            return false;
        }
        retakes.incrementAndGet();
        return true;
    }

    private static long activeNanos(CarrierThread c) {
        return c == null ? -1 : c.activeNanos();
    }

    /**
     * A processor in use idle and nobody searching, yet a task queued where an idle carrier would look, or a timer
     * overdue that no idle carrier sleeps toward, at every look for {@link #RESCUE_AFTER_NANOS}: a lost wake-up. Wake
     * a carrier and count it. A busy processor's runNext does not count: its owner runs it. A timer toward which the
     * watcher (or the backup, within its grace) sleeps is not lost however late it is: the kernel wakes that carrier,
     * and only the OS delays it. A different overdue timer at a later look means timers are being fired, and the
     * wait starts over.
     */
    private boolean rescueLostWakeUp(long now) {
        boolean candidate = state.idle.nextIdle(0, state.processors.length) >= 0 && state.searching.get() == 0;
        long timer = candidate ? unwatchedOverdueTimer(now) : TimerHeap.NONE;
        boolean waiting = candidate && (timer != TimerHeap.NONE || state.hasStealableWork());
        if (!waiting || !unserved || timer != unservedTimer) {
            unserved = waiting;
            unservedSince = now;
            unservedTimer = timer;
            return false;
        }
        if (now - unservedSince < RESCUE_AFTER_NANOS) {
            return false;
        }
        unserved = false;
        rescues.incrementAndGet();
        idle.wakeAny();
        return true;
    }

    /** The earliest deadline if it has passed and no idle carrier sleeps toward it, else {@link TimerHeap#NONE}. */
    private long unwatchedOverdueTimer(long now) {
        long earliest = deadlines.earliest(now);
        return earliest != TimerHeap.NONE && earliest - now < 0 && !idle.sleepsToward(earliest)
                ? earliest : TimerHeap.NONE;
    }
}
