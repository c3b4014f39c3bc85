package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

import java.util.Objects;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The executor the JDK sees as the scheduler of Shuttle's virtual threads, and the composition root that builds the
 * scheduler's parts and wires each to the ones below it (package-info, "Who calls whom"). Nothing it builds calls it
 * back: the carriers, the monitor and the timers reach the state and the wake-ups directly. The one class below it
 * that names it is {@link ScheduledStart}, which {@code ShuttleScheduler} builds and which starts virtual threads on
 * this pool as their executor; the {@link TimerService} fires and cancels those actions without knowing their kind.
 *
 * <p>It extends {@link ForkJoinPool} for one reason: JDK 25 routes a virtual thread's timed park to
 * {@code ForkJoinPool.schedule} when the thread's scheduler is a {@code ForkJoinPool}, and to shared JDK timer
 * threads otherwise. Being one lets each carrier keep its threads' timers in its own heap. None of
 * {@code ForkJoinPool}'s own workers is ever started; the JDK only calls {@link #execute(Runnable)} and
 * {@code schedule}. Applications never see this class: {@code ShuttleScheduler} is the public face.
 */
public final class CarrierPool extends ForkJoinPool {
    /** The state of a task that continues no virtual thread: distinct from every VirtualThread state. */
    private static final int NOT_A_VIRTUAL_THREAD = Integer.MIN_VALUE;
    /** Defaults of the builder's carrier options, for pools built directly (tests). */
    public static final int DEFAULT_MAX_CARRIERS = 256;
    public static final long DEFAULT_KEEP_ALIVE_NANOS = 30_000_000_000L;

    public final PoolState state;
    /** The timer heaps' earliest deadlines, as idle carriers, wakers and the monitor read them. */
    final TimerDeadlines deadlines;
    public final HandOff handOff;
    /** The network poll; idle until the agent hands it the JDK's pollers ({@link NetpollInstall}). */
    public final Netpoll netpoll = new Netpoll();
    final Idle idle;
    final Resize resize;
    public final TimerService timers;
    public final Monitor monitor;
    private final CarrierThread[] initialCarriers;

    /** A pool with the builder's defaults for the carrier options (no time slice). */
    CarrierPool(int parallelism, SpinPolicy spin) {
        this(parallelism, spin, Math.max(parallelism, DEFAULT_MAX_CARRIERS), 0, DEFAULT_KEEP_ALIVE_NANOS);
    }

    public CarrierPool(int parallelism, SpinPolicy spin, int maxCarriers, long timeSliceNanos, long keepAliveNanos) {
        super(parallelism);
        this.state = new PoolState(parallelism, spin);
        this.deadlines = new TimerDeadlines(state);
        // Carriers are made only below, after every part they use exists.
        this.handOff = new HandOff(state, maxCarriers, keepAliveNanos, this::newCarrier);
        this.idle = new Idle(state, deadlines, handOff, netpoll);
        this.resize = new Resize(state, handOff, idle);
        this.timers = new TimerService(state, idle, resize);
        this.monitor = new Monitor(state, deadlines, idle, handOff, netpoll, timeSliceNanos);
        Processor[] initial = state.processors;
        this.initialCarriers = new CarrierThread[parallelism];
        for (int i = 0; i < parallelism; i++) {
            initialCarriers[i] = handOff.createInitial(initial[i]);
        }
    }

    Carrier newCarrier(ThreadGroup group, int serial, Processor initial) {
        return new Carrier(state, handOff, idle, resize, timers, group, serial, initial);
    }

    public void start() {
        for (CarrierThread c : initialCarriers) {
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
     * lost its processor, the task goes to the global queue. Either way {@link Idle#wakep()} then makes sure some
     * carrier will look.
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        Thread vthread = JdkVirtualThreads.threadOf(task);
        int vstate = vthread == null ? NOT_A_VIRTUAL_THREAD : JdkVirtualThreads.state(vthread);
        if (vthread != null && vstate == JdkVirtualThreads.STARTED) {
            state.threads.admit(vthread);
        } else if (state.isStopping()) {
            throw new RejectedExecutionException("Shuttle scheduler is closed");
        }
        Thread carrier = JdkVirtualThreads.currentCarrier();
        Processor proc;
        if (carrier instanceof Carrier c && c.state == state && (proc = c.p) != null
                && vstate != JdkVirtualThreads.YIELDED) {
            if (c.isBetweenTasks()) {
                // Timers fired by the carrier loop: FIFO, so a batch runs in deadline order (runNext would run it
                // backwards). The carrier takes the first next; others are woken only for what lies beyond it.
                proc.runQueue.offerOrOverflow(SchedulingDelays.handedOff(c.stamps, task, vthread, HandOffStamps.TIMER));
                idle.afterFiredPush(proc, proc.runQueue.size());
            } else {
                // Go's ready: wake a searcher even for a runNext-only hand-off. The current task usually parks soon
                // and this carrier runs the woken thread next; if it keeps running (a long task, a waiter spinning
                // for the thread it woke, a handler writing its response), the searcher takes that runNext after its
                // first pause (WorkSearch); the monitor looks too seldom to be the one who moves it.
                c.pushLocal(proc, task, SchedulingDelays.handedOff(c.stamps, task, vthread, kindOf(vstate)));
                idle.wakep();
            }
        } else {
            HandOffStamps owned = carrier instanceof Carrier c ? c.stamps : null;
            state.global.offer(SchedulingDelays.handedOff(owned, task, vthread, kindOf(vstate)));
            idle.wakep();
        }
    }

    /** The kind of a hand-off not made by a carrier firing timers, from the thread's state. */
    private static int kindOf(int vstate) {
        return vstate == JdkVirtualThreads.STARTED ? HandOffStamps.START
                : vstate == JdkVirtualThreads.YIELDED ? HandOffStamps.YIELD : HandOffStamps.WAKE;
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

    /** Ends the carriers and the monitor; called once every virtual thread has finished. */
    public void stop() {
        state.markStopping();
        for (Processor proc : state.everCreated()) {
            idle.unpark(proc);
        }
        handOff.stop();
        monitor.stop();
    }

    public void joinCarriers() throws InterruptedException {
        handOff.joinAll();
        monitor.join();
    }

    /*
     * What the JDK's VirtualThreadSchedulerMXBean and jcmd ask the default scheduler, which with the agent is this
     * pool (DefaultSchedulerTransformer). Each is an O(parallelism) estimate, like ForkJoinPool's own.
     */

    /** The number of processors. */
    @Override
    public int getParallelism() {
        return state.processors.length;
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
        return handOff.carrierThreads();
    }

    /**
     * Carrier threads running a virtual thread (the JDK's MXBean reports it as mounted threads): those holding a
     * processor and those that lost theirs while blocked and still run the thread they had.
     */
    @Override
    public int getActiveThreadCount() {
        return handOff.mountedCount();
    }

    @Override
    public int getRunningThreadCount() {
        return getActiveThreadCount();
    }

    /** Virtual threads queued on processors (run queues and runNext slots). */
    @Override
    public long getQueuedTaskCount() {
        long queued = 0;
        for (Processor proc : state.processors) {
            queued += proc.runQueue.size();
        }
        return queued;
    }

    /** Virtual threads in the global queue. */
    @Override
    public int getQueuedSubmissionCount() {
        return state.global.size();
    }

    @Override
    public String toString() {
        return "ShuttleScheduler[parallelism=" + state.processors.length + ", carriers=" + handOff.carrierThreads()
                + ", idle=" + state.idle.count() + ", searching=" + state.searching.get() + ", global="
                + state.global.size() + ", threads=" + state.threads.liveCount()
                + (state.isStopping() ? ", stopped" : "") + "]";
    }
}
