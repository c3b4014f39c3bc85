package dev.shuttle.scheduler;

import dev.shuttle.scheduler.core.CarrierPool;
import dev.shuttle.scheduler.core.CarrierThread;
import dev.shuttle.scheduler.core.PoolState;
import dev.shuttle.scheduler.core.ScheduledStart;
import dev.shuttle.scheduler.core.SchedulerAccess;
import dev.shuttle.scheduler.core.SchedulingDelays;
import dev.shuttle.scheduler.core.SpinPolicy;
import dev.shuttle.scheduler.core.TimerService;
import dev.shuttle.scheduler.observe.SchedulerMXBeanImpl;

import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

import dev.shuttle.timers.Timer;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler for virtual threads after the Go runtime's: per-carrier run queues with a runNext slot, an idle-carrier
 * bitmap so that work stealing skips idle carriers, a bounded number of searching carriers, and bounded spinning
 * before a carrier parks. See the package documentation for the design and its invariants.
 *
 * <pre>{@code
 * try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(4).build();
 *      ExecutorService executor = shuttle.newVirtualThreadPerTaskExecutor()) {
 *     executor.submit(() -> handle(request));
 * }
 * }</pre>
 *
 * <p>Carriers are daemon platform threads named {@code shuttle-carrier-N}; a mounted virtual thread prints as
 * {@code VirtualThread[#id]/runnable@shuttle-carrier-0}. There are {@code parallelism} processors (the right to run
 * virtual threads) and normally one carrier thread per processor. When a carrier blocks in the kernel (a read, a
 * native call, class initialisation, a call the JDK marks as blocking) while work waits, its processor moves to
 * another carrier thread, created if needed up to {@link Builder#maxCarriers}; spare carrier threads end after
 * {@link Builder#keepAlive} unused. So a virtual thread never waits behind a blocked carrier while the cap allows.
 * Between a blocked carrier's return and its virtual thread's next unmount, more carriers than processors run
 * virtual threads, as with the JDK's own compensation. Virtual threads created
 * by a Shuttle virtual thread without an explicit scheduler (plain {@code Thread.ofVirtual()}) run on Shuttle too.
 *
 * <p>Shuttle reaches the JDK's virtual-thread builder through {@code java.lang} internals: the JVM must run with
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED} ({@code =dev.shuttle.scheduler} with Shuttle on the module
 * path), or Shuttle's agent. Without it, {@link #ofVirtual()},
 * {@link #threadFactory()} and {@link #newVirtualThreadPerTaskExecutor()} throw
 * {@link UnsupportedOperationException} naming that flag.
 *
 * <p>This class is thread-safe.
 */
public final class ShuttleScheduler implements AutoCloseable {
    /** Go's and ForkJoinPool's limit: carrier indexes fit in 15 bits. */
    public static final int MAX_PARALLELISM = PoolState.MAX_PARALLELISM;
    static {
        // The agent's installation (dev.shuttle.scheduler.install) reads a scheduler's pool through SchedulerAccess.
        // The system default is held there too, not in the agent's classes, so that using a scheduler never loads
        // them: they name java.lang.instrument types, and an application on the module path has no java.instrument
        // in its boot layer unless it asks for it.
        SchedulerAccess.poolsAre(scheduler -> ((ShuttleScheduler) scheduler).pool);
    }

    private final CarrierPool pool;
    private final SchedulerMXBeanImpl management;
    /** Set by {@link #close()} before it cancels pending starts: {@link #schedule} arms no timer after it. */
    private volatile boolean startsRefused;

    private ShuttleScheduler(Builder builder) {
        SchedulingDelays.parseEnabled(System.getProperty(SchedulingDelays.PROPERTY));
        int maxCarriers = builder.maxCarriers < 0 ? Math.max(builder.parallelism, Builder.DEFAULT_MAX_CARRIERS)
                : builder.maxCarriers;
        if (maxCarriers < builder.parallelism) {
            throw new IllegalArgumentException("maxCarriers (" + maxCarriers + ") must be at least parallelism ("
                    + builder.parallelism + ")");
        }
        this.pool = new CarrierPool(builder.parallelism, SpinPolicy.DEFAULT, maxCarriers,
                builder.timeSlice == null ? 0 : builder.timeSlice.toNanos(), builder.keepAlive.toNanos());
        // Registered before any thread starts, so that a duplicate name leaves nothing running.
        this.management = SchedulerMXBeanImpl.register(
                builder.name == null ? SchedulerMXBeanImpl.generatedName() : builder.name, pool);
        pool.state.name = management.getName();
        pool.start();
    }

    /**
     * A builder with parallelism defaulting to the number of available processors.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    static boolean isSystemDefault(ShuttleScheduler scheduler) {
        return scheduler != null && scheduler == SchedulerAccess.systemDefault();
    }

    /**
     * A scheduler with one carrier per available processor.
     *
     * @return a new, started scheduler
     */
    public static ShuttleScheduler create() {
        return builder().build();
    }

    /**
     * The scheduler of every virtual thread created without an explicit scheduler, if Shuttle is the JVM's default:
     * present when the JVM runs with {@code -javaagent:scheduler-core.jar
     * -Djdk.virtualThreadScheduler.implClass=dev.shuttle.scheduler.ShuttleScheduler} (see docs/guide.md), empty
     * otherwise (virtual threads then use the JDK's {@code ForkJoinPool}). It lives as long as the JVM: its
     * {@link #close()} throws.
     *
     * @return the JVM-wide Shuttle scheduler, or empty when the JVM's default is the JDK's
     */
    public static Optional<ShuttleScheduler> systemDefault() {
        return Optional.ofNullable((ShuttleScheduler) SchedulerAccess.systemDefault());
    }

    /**
     * A builder of virtual threads scheduled by Shuttle. Each call returns a new builder.
     *
     * @return a new builder of Shuttle virtual threads
     * @throws UnsupportedOperationException if {@code java.lang} is not open to Shuttle (message names the flag)
     */
    public Thread.Builder.OfVirtual ofVirtual() {
        return JdkVirtualThreads.newBuilder(pool);
    }

    /**
     * A factory of (unstarted) virtual threads scheduled by Shuttle.
     *
     * @return a factory of Shuttle virtual threads
     * @throws UnsupportedOperationException if {@code java.lang} is not open to Shuttle (message names the flag)
     */
    public ThreadFactory threadFactory() {
        return ofVirtual().factory();
    }

    /**
     * An executor that starts a new Shuttle virtual thread for each task, like
     * {@link Executors#newVirtualThreadPerTaskExecutor()}. Closing the executor waits for its tasks; closing the
     * scheduler makes the executor reject new tasks.
     *
     * @return a new executor
     * @throws UnsupportedOperationException if {@code java.lang} is not open to Shuttle (message names the flag)
     */
    public ExecutorService newVirtualThreadPerTaskExecutor() {
        return Executors.newThreadPerTaskExecutor(threadFactory());
    }

    /**
     * Runs {@code task} in a new Shuttle virtual thread once {@code delay} has passed, like Go's
     * {@code time.AfterFunc}. The timer lives in a carrier's timer heap; a carrier fires it, starting the thread.
     *
     * <ul>
     *   <li>A delay of zero or less starts the thread at once, before this method returns.</li>
     *   <li>{@link ScheduledFuture#cancel} before the timer fires prevents the thread, and returns true; after, it
     *       returns false. {@code isDone()} and {@code get()} report the firing, which starts the thread at
     *       once, not the task's completion: join the work through the task itself. A {@link #close()} after the
     *       firing waits for that thread like any other.</li>
     *   <li>{@link #close()} cancels timers still pending: their futures report cancelled and their tasks never
     *       start. A call racing with close either throws {@link RejectedExecutionException} or returns a future
     *       that close cancelled.</li>
     * </ul>
     *
     * @param task what the new virtual thread runs
     * @param delay the time from now to the start, in {@code unit}; zero or negative starts it at once
     * @param unit the unit of {@code delay}
     * @return a future whose completion is the thread's start
     * @throws NullPointerException if {@code task} or {@code unit} is null
     * @throws RejectedExecutionException if this scheduler is closed
     * @throws UnsupportedOperationException if {@code java.lang} is not open to Shuttle (message names the flag)
     */
    public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        JdkVirtualThreads.requireAvailable();
        if (startsRefused) {
            throw new RejectedExecutionException("Shuttle scheduler is closed");
        }
        Timer timer = new Timer(new ScheduledStart(task, pool), TimerService.deadlineAfter(delay, unit));
        if (delay <= 0) {
            timer.fire();
            return TimerService.futureOf(timer);
        }
        pool.timers.arm(timer);
        // Dekker with close(): it refuses starts, then cancels pending ones; we armed, then look.
        if (startsRefused && timer.cancel(false)) {
            throw new RejectedExecutionException("Shuttle scheduler is closed");
        }
        return TimerService.futureOf(timer);
    }

    /**
     * This scheduler's name: its {@link ShuttleSchedulerMXBean} is {@code dev.shuttle:type=ShuttleScheduler,name=}
     * this, and its JFR events carry it.
     *
     * @return this scheduler's name
     */
    public String name() {
        return management.getName();
    }

    /**
     * The number of processors: how many virtual threads run at once, blocked carriers aside.
     *
     * @return the number of processors
     */
    public int parallelism() {
        return pool.state.processors.length;
    }

    /**
     * Changes the number of processors while virtual threads run (Go's {@code procresize}). Growing adds processors,
     * each with a carrier thread. Shrinking retires the highest-numbered ones: the virtual threads queued on them and
     * their timers move to the others, none lost or run twice; a carrier running a virtual thread on a retired
     * processor finishes that thread's current run, then waits as a spare and ends after {@link Builder#keepAlive}.
     * Resizes are serialised; the call returns once every retired processor has left its carrier's loop.
     * {@link Builder#maxCarriers} is raised to {@code parallelism} if it was lower.
     *
     * @param parallelism the new number of processors, from 1 to {@value #MAX_PARALLELISM}
     * @throws IllegalArgumentException naming the value if it is out of range; nothing changes then
     * @throws IllegalStateException if the scheduler is closed
     */
    public void setParallelism(int parallelism) {
        pool.setParallelism(parallelism);
    }

    /**
     * Carrier threads alive now: one per processor, plus those created to take a blocked carrier's processor and not
     * yet ended (spares end after {@link Builder#keepAlive} unused). Never more than {@link Builder#maxCarriers}.
     *
     * @return the number of carrier threads alive
     */
    public int carrierThreads() {
        return pool.handOff.carrierThreads();
    }

    /**
     * Stops accepting new virtual threads, waits for every virtual thread already started on this scheduler to
     * finish, then ends the carriers. Idempotent.
     *
     * <ul>
     *   <li>After close begins, starting a Shuttle virtual thread ({@code Thread.start}, the factory's threads, the
     *       per-task executor) throws {@link java.util.concurrent.RejectedExecutionException}. Threads already
     *       started keep running normally: they park, wake, sleep and finish as before.</li>
     *   <li>A thread that never finishes keeps close waiting, as {@link ExecutorService#close()} does. If the
     *       caller is interrupted while waiting, close returns at once with the interrupt status set; the carriers
     *       stay up and go on serving the remaining threads (they are daemon threads, so they do not keep the JVM
     *       alive). A later close waits again.</li>
     *   <li>Called from a virtual thread of this scheduler, close would wait for its own caller: it throws
     *       {@link IllegalStateException} instead.</li>
     *   <li>The {@linkplain #systemDefault() system default} scheduler cannot be closed: close throws
     *       {@link IllegalStateException}.</li>
     * </ul>
     */
    @Override
    public void close() {
        if (isSystemDefault(this)) {
            throw new IllegalStateException("this is the JVM's default virtual-thread scheduler (installed by"
                    + " Shuttle's agent); it lives as long as the JVM and cannot be closed");
        }
        Thread carrier = JdkVirtualThreads.currentCarrier();
        if (carrier instanceof CarrierThread c && c.state == pool.state) {
            throw new IllegalStateException("close() called from a virtual thread of this scheduler would wait for"
                    + " itself; close it from another thread");
        }
        // Pending starts go before admission closes. schedule() arms, then reads startsRefused; we write it, then
        // cancel, so a timer armed meanwhile is cancelled by one of us. A carrier fires under its heap's lock, which
        // cancelPending takes on every heap: a timer that fired first (its future done, perhaps seen by the caller of
        // close) has admitted its thread by then, and awaitAll waits for it. Timers of live threads' timed parks stay:
        // those threads must still wake.
        startsRefused = true;
        pool.timers.cancelPending(ScheduledStart.class::isInstance);
        pool.state.threads.close();
        if (!pool.state.threads.awaitAll()) {
            return;
        }
        management.unregister();
        pool.stop();
        boolean interrupted = false;
        while (true) {
            try {
                pool.joinCarriers();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * True once {@link #close()} has begun: new virtual threads are refused.
     *
     * @return whether {@link #close()} has begun
     */
    public boolean isClosed() {
        return pool.state.threads.isClosed();
    }

    @Override
    public String toString() {
        return pool.toString();
    }

    /** Configures a {@link ShuttleScheduler}. */
    public static final class Builder {
        /** The JDK's default {@code maxPoolSize} for its virtual-thread scheduler. */
        public static final int DEFAULT_MAX_CARRIERS = CarrierPool.DEFAULT_MAX_CARRIERS;
        /** The shortest time slice accepted: shorter ones would hand processors around faster than threads wake. */
        public static final Duration MIN_TIME_SLICE = Duration.ofMillis(1);

        private int parallelism = Math.min(Runtime.getRuntime().availableProcessors(), MAX_PARALLELISM);
        private int maxCarriers = -1;
        private Duration timeSlice;
        private Duration keepAlive = Duration.ofNanos(CarrierPool.DEFAULT_KEEP_ALIVE_NANOS);
        private String name;

        private Builder() {
        }

        /**
         * The scheduler's name, for its {@link ShuttleSchedulerMXBean} ({@code dev.shuttle:type=ShuttleScheduler,
         * name=<name>}) and its JFR events. Default: {@code shuttle-N}, unique in the JVM. The JVM's default scheduler
         * is named {@code default}. {@link #build()} fails if a live scheduler has the name already.
         *
         * @param name the name, not blank
         * @return this builder
         * @throws IllegalArgumentException if {@code name} is blank
         * @throws NullPointerException if {@code name} is null
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("a scheduler's name must not be blank, was \"" + name + "\"");
            }
            SchedulerMXBeanImpl.objectName(name);
            this.name = name;
            return this;
        }

        /**
         * The number of carrier threads, from 1 to {@value #MAX_PARALLELISM}.
         *
         * @param parallelism the number of carrier threads running virtual threads at once
         * @return this builder
         * @throws IllegalArgumentException naming the value, if it is out of range
         */
        public Builder parallelism(int parallelism) {
            if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
                throw new IllegalArgumentException("parallelism must be between 1 and " + MAX_PARALLELISM
                        + ", was " + parallelism);
            }
            this.parallelism = parallelism;
            return this;
        }

        /**
         * The most carrier threads alive at once, blocked ones included, from {@code parallelism} to {@value
         * #MAX_PARALLELISM}; default {@value #DEFAULT_MAX_CARRIERS} (or {@code parallelism} if larger). At the cap,
         * work waits for a blocked carrier to return, and one WARNING is logged to {@code dev.shuttle.scheduler}.
         *
         * @param maxCarriers the cap on carrier threads alive, blocked ones included
         * @return this builder
         * @throws IllegalArgumentException naming the value, if it is out of range ({@link #build()} checks it
         *     against {@code parallelism})
         */
        public Builder maxCarriers(int maxCarriers) {
            if (maxCarriers < 1 || maxCarriers > MAX_PARALLELISM) {
                throw new IllegalArgumentException("maxCarriers must be between 1 and " + MAX_PARALLELISM
                        + ", was " + maxCarriers);
            }
            this.maxCarriers = maxCarriers;
            return this;
        }

        /**
         * Off by default. When set, a processor whose carrier has run one virtual thread longer than this while other
         * work waits goes to another carrier thread, so the operating system shares the cores between the long
         * computation and the rest (the JDK cannot preempt a virtual thread). At least {@link #MIN_TIME_SLICE};
         * {@code null} turns it off.
         *
         * @param timeSlice the longest run before the processor moves while work waits, or {@code null} for off
         * @return this builder
         * @throws IllegalArgumentException naming the value, if it is shorter than {@link #MIN_TIME_SLICE}
         */
        public Builder timeSlice(Duration timeSlice) {
            if (timeSlice != null && timeSlice.compareTo(MIN_TIME_SLICE) < 0) {
                throw new IllegalArgumentException("timeSlice must be at least " + MIN_TIME_SLICE + ", was "
                        + timeSlice);
            }
            this.timeSlice = timeSlice;
            return this;
        }

        /**
         * How long a spare carrier thread waits unused before it ends; default 30 seconds, as the JDK's scheduler.
         *
         * @param keepAlive how long an unused spare carrier thread lives
         * @return this builder
         * @throws IllegalArgumentException naming the value, if it is not positive
         * @throws NullPointerException if {@code keepAlive} is null
         */
        public Builder keepAlive(Duration keepAlive) {
            Objects.requireNonNull(keepAlive, "keepAlive");
            if (keepAlive.isNegative() || keepAlive.isZero()) {
                throw new IllegalArgumentException("keepAlive must be positive, was " + keepAlive);
            }
            this.keepAlive = keepAlive;
            return this;
        }

        /**
         * Registers the scheduler's MXBean, starts the carriers and the monitor and returns the scheduler.
         *
         * @return the started scheduler
         * @throws IllegalArgumentException if {@code maxCarriers} was set below {@code parallelism}, or a live
         *     scheduler has the same {@linkplain #name(String) name}
         */
        public ShuttleScheduler build() {
            return new ShuttleScheduler(this);
        }
    }
}
