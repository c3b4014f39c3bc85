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
 * carriers, the global injection queue, the idle set and the count of searching carriers.
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
     * Threads woken by a carrier's own timers that it runs alone while another idle carrier will be up within the
     * backup watch's grace (see {@link #afterFiredPush}); a larger batch wakes a helper at once.
     */
    static final int SMALL_FIRED_BATCH = 16;
    /** The state of a task that continues no virtual thread: distinct from every VirtualThread state. */
    private static final int NOT_A_VIRTUAL_THREAD = Integer.MIN_VALUE;

    final Carrier[] carriers;
    final IdleSet idle;
    /** Carriers in the searching state (Go's {@code nmspinning}); see package-info for the wake-up protocol. */
    final AtomicInteger searching = new AtomicInteger();
    /** Parked carriers that wake on a short timeout to check busy carriers' runNext (see Carrier.awaitWake). */
    final AtomicInteger runNextWatchers = new AtomicInteger();
    /** External submissions, yields and local-queue overflow. */
    final MpmcUnboundedXaddArrayQueue<Runnable> global = new MpmcUnboundedXaddArrayQueue<>(1024);
    final ThreadLifecycle threads;
    final TimerService timers;
    final SpinPolicy spin;
    private volatile boolean stopping;

    CarrierPool(int parallelism, SpinPolicy spin, String carrierNamePrefix) {
        super(parallelism);
        this.spin = spin;
        this.idle = new IdleSet(parallelism);
        this.threads = new ThreadLifecycle();
        this.timers = new TimerService(this);
        this.carriers = new Carrier[parallelism];
        for (int i = 0; i < parallelism; i++) {
            carriers[i] = new Carrier(this, i, carrierNamePrefix + i);
        }
    }

    void start() {
        for (Carrier c : carriers) {
            c.start();
        }
    }

    /**
     * Takes a virtual thread's continuation: from the JDK when a thread starts, is unparked or unblocked, yields, or
     * parks with a wake-up already pending.
     *
     * <p>On one of our carriers the task stays local: a woken thread goes to runNext (the waker's carrier runs it
     * next), the carrier's own thread re-submitting itself goes to the tail of its queue, and a yield goes to the
     * global queue, behind all other runnable work (Go's {@code Gosched}). From any other thread the task goes to
     * the global queue. Either way {@link #wakep()} then makes sure some carrier will look.
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
        if (carrier instanceof Carrier c && c.pool == this) {
            if (state == JdkVirtualThreads.YIELDED) {
                global.offer(task);
                wakep();
            } else if (c.isBetweenTasks()) {
                // Timers fired by the carrier loop: FIFO, so a batch runs in deadline order (runNext would run it
                // backwards). The carrier takes the first next; others are woken only for what lies beyond it.
                afterFiredPush(c, c.pushTail(task));
            } else {
                afterLocalPush(c.pushLocal(task));
            }
        } else {
            global.offer(task);
            wakep();
        }
    }

    /**
     * Wakes a helper for threads that {@code c}'s own timers woke and queued on it ({@code queued} tasks now), beyond
     * the one it runs next. Not for a small batch while another idle carrier, the timer watcher or the {@link
     * BackupWatch}, will be up within the backup's grace anyway and carriers come back from timers quickly ({@code
     * TimerWatch.coveredWithoutWake}): waking a parked carrier costs more than running a few
     * short threads (a batch of ten 1 ms sleepers is about 25 us of work, over before the woken carrier runs), and if
     * one of them runs long that carrier wakes within the grace and takes what is queued behind it. The tasks were
     * queued before the watch and the backup are read; a carrier giving up either role looks at the queues after
     * ({@code BackupWatchStress}). Returns whether it woke a carrier.
     */
    boolean afterFiredPush(Carrier c, int queued) {
        return queued > 1 && (queued > SMALL_FIRED_BATCH
                || !timers.watch.coveredWithoutWake(System.nanoTime(), c.index)) && wakep();
    }

    /**
     * Wakes a searcher for work just queued on a carrier, unless it only went into runNext while a parked carrier
     * watches runNext slots (it will look within its grace period). The push wrote runNext before this reads the
     * watcher count; see {@code Carrier.keepWatchingRunNextIfNeeded} for the other side.
     */
    void afterLocalPush(boolean onlyRunNext) {
        if (!onlyRunNext || runNextWatchers.get() == 0) {
            wakep();
        }
    }

    /**
     * A virtual thread's timed park (sleep, parkNanos, timed wait, join, poll or get): JDK 25 calls this on the
     * carrier, as the thread unmounts, when the thread's scheduler is a {@link ForkJoinPool}. The timeout goes into
     * that carrier's timer heap; the JDK cancels the returned future from any thread when the park ends early.
     */
    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return timers.schedule(command, delay, unit);
    }

    /**
     * Go's {@code wakep}: wakes one idle carrier into the searching state, unless a carrier is already searching
     * (it will find the work, or re-check before it parks) or none is idle (every carrier will look at the queues
     * before it parks). The searching count is raised on the woken carrier's behalf before it is unparked, so two
     * submitters never both wake one. Returns whether it woke a carrier.
     *
     * <p>The raised count is a promise that a carrier will search, so a waker that then finds no idle bit (the carrier
     * it counted on cleared its own bit, up for a timer) has broken it: submitters that saw the count skipped waking
     * anyone, and a carrier may have parked meanwhile, its re-check done before their work was queued. Go closes this
     * with {@code sched.lock} around both the idle list and this look; here the waker lowers the count and then
     * looks at the queues and the timer heaps, as a parking carrier does: a submitter or arming thread that read the
     * raised count had queued its work or published its timer before, so the look sees it, and the waker tries again
     * (PhantomSearcherStress; before this a lost wake-up that left both carriers asleep beside a queued virtual
     * thread, or asleep without a timeout beside a pending timer).
     */
    boolean wakep() {
        for (;;) {
            if (idle.count() == 0 || searching.get() != 0 || !searching.compareAndSet(0, 1)) {
                return false;
            }
            int i = idle.pollAny(ThreadLocalRandom.current().nextInt(carriers.length));
            // Any idle carrier will do, including the timer watcher: it hands its watch to another idle carrier.
            if (i >= 0) {
                carriers[i].unparkSearching();
                return true;
            }
            searching.decrementAndGet();
            if (!hasQueuedWork() && !timers.anyPending()) {
                return false;
            }
        }
    }

    /**
     * Whether any task is queued: global queue, or any carrier's run queue or runNext. O(parallelism), paid only by a
     * waker that found no idle bit. Unlike a parking carrier's look ({@code Carrier.workInSight}) it counts busy
     * carriers' runNext: a runNext hand-off relies on {@code wakep} too, while a parking carrier must not stay up for
     * a runNext that its busy owner will run (the runNext watch covers a stuck owner).
     */
    private boolean hasQueuedWork() {
        if (hasGlobalWork()) {
            return true;
        }
        for (Carrier c : carriers) {
            if (c.runQueue.hasStealableWork() || c.runQueue.hasRunNext()) {
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

    /** Ends the carriers; called once every virtual thread has finished. */
    void stop() {
        stopping = true;
        for (Carrier c : carriers) {
            c.unparkToStop();
        }
    }

    void joinCarriers() throws InterruptedException {
        for (Carrier c : carriers) {
            c.join();
        }
    }

    @Override
    public String toString() {
        return "ShuttleScheduler[parallelism=" + carriers.length + ", idle=" + idle.count()
                + ", searching=" + searching.get() + ", global=" + global.size() + ", threads=" + threads.liveCount()
                + (stopping ? ", stopped" : "") + "]";
    }
}
