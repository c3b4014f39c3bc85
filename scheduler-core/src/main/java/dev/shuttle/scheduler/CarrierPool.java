package dev.shuttle.scheduler;

import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

/**
 * The executor the JDK sees as the scheduler of Shuttle's virtual threads, and the state the carriers share: the
 * processors, the global injection queue, the idle set, the count of searching carriers, the spare carrier threads
 * and the monitor.
 *
 * <p>It extends {@link ForkJoinPool} for one reason: JDK 25 routes a virtual thread's timed park to
 * {@code ForkJoinPool.schedule} when the thread's scheduler is a {@code ForkJoinPool}, and to shared JDK timer
 * threads otherwise. Being one lets each carrier keep its threads' timers in its own heap. None of
 * {@code ForkJoinPool}'s own workers is ever started; the JDK only calls {@link #execute(Runnable)} and
 * {@code schedule}. Applications never see this class: {@link ShuttleScheduler} is the public face.
 */
final class CarrierPool extends ForkJoinPool {
    /** Go's {@code schedtick % 61}: how often a carrier serves the global queue before its own. */
    static final int GLOBAL_FAIRNESS_TICKS = 61;
    /**
     * Threads woken by a processor's own timers that its carrier runs alone while another idle carrier will be up
     * within the backup watch's grace (see {@link #afterFiredPush}); a larger batch wakes a helper at once.
     */
    static final int SMALL_FIRED_BATCH = 16;
    /** The state of a task that continues no virtual thread: distinct from every VirtualThread state. */
    private static final int NOT_A_VIRTUAL_THREAD = Integer.MIN_VALUE;
    /** Defaults of the builder's carrier options, for pools built directly (tests). */
    static final int DEFAULT_MAX_CARRIERS = 256;
    static final long DEFAULT_KEEP_ALIVE_NANOS = 30_000_000_000L;

    /**
     * The processors in use, {@code parallelism} of them; replaced, never written in place, by a {@link Resize}. Hot
     * paths read it once per use and index only the array they read.
     */
    volatile Processor[] processors;
    /**
     * Every processor ever created, those in use first: retired ones keep their counters ({@link SchedulerCounters}
     * sums them all) and come back when the pool grows again. Indexes by a processor number read elsewhere (the
     * timer watcher's) stay valid in it whatever resize happened since.
     */
    private volatile Processor[] created;
    final IdleSet idle;
    /** Carriers in the searching state (Go's {@code nmspinning}); see package-info for the wake-up protocol. */
    final AtomicInteger searching = new AtomicInteger();
    /** Processors in phase BLOCKING: a waker that finds no idle processor may take one of those instead. */
    final AtomicInteger blocking = new AtomicInteger();
    /** External submissions, yields and local-queue overflow. */
    final MpmcUnboundedXaddArrayQueue<Runnable> global = new MpmcUnboundedXaddArrayQueue<>(1024);
    final ThreadLifecycle threads;
    /** The timer heaps' earliest deadlines, as idle carriers, wakers and the monitor read them. */
    final TimerDeadlines deadlines = new TimerDeadlines(this);
    final TimerService timers;
    final SpinPolicy spin;
    final SpareCarriers spares;
    final Monitor monitor;
    final Resize resize = new Resize(this);
    private final Carrier[] initialCarriers;
    private volatile boolean stopping;
    /** The scheduler's name, for JFR events; set before {@link #start}, which publishes it to the carriers. */
    String name = "";

    /** A pool with the builder's defaults for the carrier options (no time slice). */
    CarrierPool(int parallelism, SpinPolicy spin) {
        this(parallelism, spin, Math.max(parallelism, DEFAULT_MAX_CARRIERS), 0, DEFAULT_KEEP_ALIVE_NANOS);
    }

    CarrierPool(int parallelism, SpinPolicy spin, int maxCarriers, long timeSliceNanos, long keepAliveNanos) {
        super(parallelism);
        this.spin = spin;
        this.idle = new IdleSet(ShuttleScheduler.MAX_PARALLELISM);
        this.threads = new ThreadLifecycle();
        Processor[] initial = new Processor[parallelism];
        for (int i = 0; i < parallelism; i++) {
            initial[i] = new Processor(this, i, parallelism);
        }
        this.created = initial;
        this.processors = initial;
        this.timers = new TimerService(this);
        this.spares = new SpareCarriers(this, maxCarriers, keepAliveNanos);
        this.initialCarriers = new Carrier[parallelism];
        for (int i = 0; i < parallelism; i++) {
            initialCarriers[i] = spares.createInitial(initial[i]);
        }
        this.monitor = new Monitor(this, timeSliceNanos);
    }

    /** A resize publishes its arrays: {@code created} first, so an index read from the new array is valid in it. */
    void publish(Processor[] created, Processor[] processors) {
        this.created = created;
        this.processors = processors;
    }

    /** Every processor ever created, those in use first. */
    Processor[] everCreated() {
        return created;
    }

    /**
     * Processor {@code i}, whether in use or retired: for numbers read from a field that a resize may have left
     * behind (the timer watcher's), where the {@code processors} array may have shrunk below them.
     */
    Processor processorAt(int i) {
        return created[i];
    }

    void start() {
        for (Carrier c : initialCarriers) {
            c.start();
        }
        monitor.start();
    }

    /**
     * Takes a virtual thread's continuation: from the JDK when a thread starts, is unparked or unblocked, yields, or
     * parks with a wake-up already pending.
     *
     * <p>On one of our carriers the task stays local: a woken thread goes to runNext (the waker's carrier runs it
     * next), the carrier's own thread re-submitting itself goes to the tail of its queue, and a yield goes to the
     * global queue, behind all other runnable work (Go's {@code Gosched}). From any other thread, or a carrier that
     * lost its processor, the task goes to the global queue. Either way {@link #wakep()} then makes sure some carrier
     * will look.
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        Thread vthread = JdkVirtualThreads.threadOf(task);
        int state = vthread == null ? NOT_A_VIRTUAL_THREAD : JdkVirtualThreads.state(vthread);
        if (vthread != null && state == JdkVirtualThreads.STARTED) {
            threads.admit(vthread);
        } else if (stopping) {
            throw new RejectedExecutionException("Shuttle scheduler is closed");
        }
        Thread carrier = JdkVirtualThreads.currentCarrier();
        Processor proc;
        if (carrier instanceof Carrier c && c.pool == this && (proc = c.p) != null
                && state != JdkVirtualThreads.YIELDED) {
            if (c.isBetweenTasks()) {
                // Timers fired by the carrier loop: FIFO, so a batch runs in deadline order (runNext would run it
                // backwards). The carrier takes the first next; others are woken only for what lies beyond it.
                proc.runQueue.offerOrOverflow(task);
                afterFiredPush(proc, proc.runQueue.size());
            } else {
                afterLocalPush(c.pushLocal(proc, task));
            }
        } else {
            global.offer(task);
            wakep();
        }
    }

    /**
     * Wakes a helper for threads that {@code proc}'s own timers woke and queued on it ({@code queued} tasks now),
     * beyond the one its carrier runs next. Not for a small batch while another idle carrier, the timer watcher or
     * the {@link BackupWatch}, will be up within the backup's grace anyway and carriers come back from timers quickly
     * ({@code TimerWatch.coveredWithoutWake}): waking a parked carrier costs more than running a few short threads,
     * and if one of them runs long that carrier wakes within the grace and takes what is queued behind it. The tasks
     * were queued before the watch and the backup are read; a carrier giving up either role looks at the queues after
     * ({@code BackupWatchStress}). Returns whether it woke a carrier.
     */
    boolean afterFiredPush(Processor proc, int queued) {
        return queued > 1 && (queued > SMALL_FIRED_BATCH
                || !timers.watch.coveredWithoutWake(System.nanoTime(), proc.index)) && wakep();
    }

    /**
     * Wakes a searcher for work just queued from a task, unless it only went into runNext while the monitor watches
     * runNext slots: the current task usually parks soon and its carrier runs the woken thread next; if it does not,
     * the monitor sees the processor's tick stand still and has the runNext stolen. The push wrote runNext before
     * this reads the flag; see {@code Monitor.watchRunNext} for the other side ({@code RunNextWatchStress}).
     */
    void afterLocalPush(boolean onlyRunNext) {
        if (!onlyRunNext || !monitor.watchesRunNext()) {
            wakep();
        }
    }

    /**
     * A virtual thread's timed park (sleep, parkNanos, timed wait, join, poll or get): JDK 25 calls this on the
     * carrier, as the thread unmounts, when the thread's scheduler is a {@link ForkJoinPool}. The timeout goes into
     * that carrier's processor's timer heap; the JDK cancels the returned future from any thread when the park ends
     * early.
     */
    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return timers.schedule(command, delay, unit);
    }

    /**
     * Go's {@code wakep}: wakes one idle carrier into the searching state, unless a carrier is already searching
     * (it will find the work, or re-check before it parks) or none is idle (every carrier will look at the queues
     * before it parks). The searching count is raised on the woken carrier's behalf before it is unparked, so two
     * submitters never both wake one. Returns whether it woke a carrier. With no idle processor but one whose carrier
     * sits in a marked blocking call, that processor goes to another carrier thread instead (Go's {@code handoffp}).
     *
     * <p>The raised count is a promise that a carrier will search, so a waker that then finds no idle bit (the carrier
     * it counted on cleared its own bit, up for a timer) has broken it: submitters that saw the count skipped waking
     * anyone, and a carrier may have parked meanwhile, its re-check done before their work was queued. Go closes this
     * with {@code sched.lock} around both the idle list and this look; here the waker lowers the count and then
     * looks at the queues and the timer heaps, as a parking carrier does: a submitter or arming thread that read the
     * raised count had queued its work or published its timer before, so the look sees it, and the waker tries again
     * (PhantomSearcherStress).
     */
    boolean wakep() {
        for (;;) {
            if (idle.count() == 0) {
                return blocking.get() > 0 && retakeBlocked();
            }
            if (searching.get() != 0 || !searching.compareAndSet(0, 1)) {
                return false;
            }
            Processor[] all = processors;
            int i = idle.pollAny(ThreadLocalRandom.current().nextInt(all.length), all.length);
            // Any idle carrier will do, including the timer watcher: it hands its watch to another idle carrier.
            if (i >= 0) {
                all[i].unparkHolder();
                monitor.processorBusy();
                return true;
            }
            searching.decrementAndGet();
            if (!hasQueuedWork() && !deadlines.anyPending()) {
                return false;
            }
            // The count may hold bits of processors a shrink is retiring, past the bound: trying again would spin
            // until their carriers give them up. A carrier that sets its bit after this look re-checks the queues
            // after it, so it sees the work of every submitter that counted on us.
            if (idle.nextIdle(0, processors.length) < 0) {
                return blocking.get() > 0 && retakeBlocked();
            }
        }
    }

    /**
     * After a push to {@code proc} from a carrier that no longer holds it ({@code Carrier.pushLocal}): a retired
     * processor's work moves on at once; otherwise its new holder is woken if idle. The pusher pushed, then read the
     * state, then the flag; a resize raises the flag, then takes the state by CAS, then drains: either the pusher's
     * state read came before that CAS and the resize's drain sees the task, or the pusher sees the flag.
     */
    void afterStalePush(Processor proc) {
        if (proc.retired) {
            resize.drain(proc);
        } else {
            wakeIfIdle(proc);
        }
    }

    /** Wakes {@code proc}'s carrier into the searching state if {@code proc} is idle. */
    void wakeIfIdle(Processor proc) {
        if (idle.tryRemove(proc.index)) {
            searching.incrementAndGet();
            proc.unparkHolder();
            monitor.processorBusy();
        }
    }

    /** The monitor's rescue: wakes an idle carrier into the searching state whatever the searching count says. */
    void wakeAny() {
        Processor[] all = processors;
        int i = idle.pollAny(0, all.length);
        if (i >= 0) {
            searching.incrementAndGet();
            all[i].unparkHolder();
            monitor.processorBusy();
        }
    }

    /**
     * Go's {@code entersyscall} for a call the JDK marks as blocking: moves {@code proc} to phase BLOCKING, where the
     * monitor or a waker that finds no idle processor may hand it to another carrier. Returns false if {@code proc}
     * is no longer {@code self}'s. A CAS and a count only: nothing here can unmount the calling virtual thread.
     */
    boolean enterBlocking(Processor proc, Carrier self) {
        if (!proc.enterBlocking(self)) {
            return false;
        }
        blocking.incrementAndGet();
        return true;
    }

    /** Hands {@code proc}, just put in phase BLOCKING by {@code self}, to another carrier at once if work waits. */
    void handOffIfWorkWaits(Processor proc, Carrier self) {
        if (proc.hasWaitingWork(System.nanoTime()) || (idle.count() == 0 && hasGlobalWork())) {
            retake(proc, Processor.word(self, Processor.BLOCKING));
        }
    }

    /** Go's {@code exitsyscall}: takes {@code proc} back if nobody took it; returns false if it was taken. */
    boolean exitBlocking(Processor proc, Carrier self) {
        if (!proc.exitBlocking(self)) {
            return false;
        }
        blocking.decrementAndGet();
        return true;
    }

    /**
     * Moves {@code proc}, seen in {@code state} (its carrier in a task or a marked blocking call), to another carrier
     * thread. Returns whether it did.
     */
    boolean retake(Processor proc, long state) {
        if (!spares.handOff(proc, state)) {
            return false;
        }
        if (Processor.phaseOf(state) == Processor.BLOCKING) {
            blocking.decrementAndGet();
        }
        return true;
    }

    private boolean retakeBlocked() {
        for (Processor proc : processors) {
            long state = proc.state();
            if (Processor.phaseOf(state) == Processor.BLOCKING && retake(proc, state)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A carrier learned, after its task, that {@code proc} went to another carrier meanwhile. Timers it armed on
     * {@code proc}'s heap from its own thread skipped the due-timer check, counting on firing them before its next
     * task ({@code TimerService.arm}); the new holder may have passed over them while the heap was locked, so look
     * once more, as a lock holder releasing does. The failed CAS that told of the loss ordered this look after the
     * unlock. A processor retired by a resize is drained instead: everything this carrier pushed or armed there came
     * before this call, on this thread.
     */
    void lostProcessor(Processor proc) {
        if (proc.retired) {
            resize.drain(proc);
        } else {
            timers.recheckDue(proc.timers);
        }
    }

    /**
     * Whether any task is queued: global queue, or any processor's run queue or runNext. O(parallelism), paid only by
     * a waker that found no idle bit, and by the monitor. Unlike a parking carrier's look ({@code
     * Carrier.workInSight}) it counts busy processors' runNext: a runNext hand-off relies on {@code wakep} too,
     * while a parking carrier must not stay up for a runNext that its busy owner will run (the monitor covers a stuck
     * owner).
     */
    boolean hasQueuedWork() {
        if (hasGlobalWork()) {
            return true;
        }
        for (Processor proc : processors) {
            if (!proc.runQueue.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** Whether a task is queued where an idle carrier would look: the global queue or a run queue (not runNext). */
    boolean hasStealableWork() {
        if (hasGlobalWork()) {
            return true;
        }
        for (Processor proc : processors) {
            if (proc.runQueue.hasStealableWork()) {
                return true;
            }
        }
        return false;
    }

    boolean hasGlobalWork() {
        return !global.isEmpty();
    }

    boolean isStopping() {
        return stopping;
    }

    /** Ends the carriers and the monitor; called once every virtual thread has finished. */
    void stop() {
        stopping = true;
        for (Processor proc : created) {
            proc.unparkHolder();
        }
        spares.stop();
        monitor.stop();
    }

    void joinCarriers() throws InterruptedException {
        spares.joinAll();
        monitor.join();
    }

    /*
     * What the JDK's VirtualThreadSchedulerMXBean and jcmd ask the default scheduler, which with the agent is this
     * pool (DefaultSchedulerTransformer). Each is an O(parallelism) estimate, like ForkJoinPool's own.
     */

    /** The number of processors. */
    @Override
    public int getParallelism() {
        return processors.length;
    }

    /**
     * Changes the number of processors while virtual threads run ({@link Resize}); returns the previous number.
     *
     * @throws IllegalArgumentException naming {@code size} if it is not from 1 to 32767; nothing changes
     */
    @Override
    public int setParallelism(int size) {
        return resize.setParallelism(size);
    }

    /** Carrier threads alive: one per processor, plus spares and carriers that lost their processor. */
    @Override
    public int getPoolSize() {
        return spares.carrierThreads();
    }

    /**
     * Carrier threads running a virtual thread (the JDK's MXBean reports it as mounted threads): those holding a
     * processor and those that lost theirs while blocked and still run the thread they had.
     */
    @Override
    public int getActiveThreadCount() {
        return spares.mountedCount();
    }

    @Override
    public int getRunningThreadCount() {
        return getActiveThreadCount();
    }

    /** Virtual threads queued on processors (run queues and runNext slots). */
    @Override
    public long getQueuedTaskCount() {
        long queued = 0;
        for (Processor proc : processors) {
            queued += proc.runQueue.size();
        }
        return queued;
    }

    /** Virtual threads in the global queue. */
    @Override
    public int getQueuedSubmissionCount() {
        return global.size();
    }

    @Override
    public String toString() {
        return "ShuttleScheduler[parallelism=" + processors.length + ", carriers=" + spares.carrierThreads()
                + ", idle=" + idle.count() + ", searching=" + searching.get() + ", global=" + global.size()
                + ", threads=" + threads.liveCount() + (stopping ? ", stopped" : "") + "]";
    }
}
