package dev.shuttle.bench.timer;

import dev.shuttle.bench.BenchJvm;
import dev.shuttle.bench.OnScheduler;
import dev.shuttle.bench.SchedulerSlack;
import java.lang.reflect.Field;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Shared set-up of the timer-operation benchmarks (seed 004), like for like: the timer operation is the one a virtual
 * thread's timed park performs on its own scheduler, called where the park calls it. JDK 25 arms a timed park's
 * timeout with {@code ForkJoinPool.schedule} on the thread's scheduler, from the carrier as the thread unmounts, and
 * cancels the returned future when the park ends early. So each invocation starts a virtual thread on the scheduler
 * under test, which calls {@code schedule} and {@code cancel} on its own scheduler's pool: the JDK default's
 * {@code ForkJoinPool} (its delay scheduler) or Shuttle's carrier pool (the carrier's timer heap). Starting and
 * joining that thread is part of each invocation; batches of {@value #BATCH} operations keep it a small share.
 * One JMH caller per processor ({@code Threads.MAX}), as Go's {@code benchmark} helper runs one per P.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
@Threads(Threads.MAX)
public abstract class TimerBenchmark extends OnScheduler {
    static final Runnable NOTHING = () -> { };
    static final int BATCH = 1_000;
    /** {@code VirtualThread.scheduler}: the executor JDK 25 hands a timed park's timeout to when it is a pool. */
    private static final Field SCHEDULER;

    static {
        try {
            // Not initialised here: its initialiser starts the JDK's VirtualThread-unblocker thread, which must be
            // created after the callers lowered their timer slack, like every other thread of the JDK's scheduler.
            SCHEDULER = Class.forName("java.lang.VirtualThread", false, null).getDeclaredField("scheduler");
            SCHEDULER.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ExceptionInInitializerError("reading a virtual thread's scheduler needs "
                    + BenchJvm.ADD_OPENS + ": " + e);
        }
    }

    /**
     * Each JMH caller thread creates virtual threads, and so may create the JDK's scheduler threads: every caller,
     * not only the one that opened the scheduler, must lower its timer slack before its first call.
     */
    @State(Scope.Thread)
    public static class Caller {
        @Setup(Level.Trial)
        public void lowerTimerSlack() {
            SchedulerSlack.lowerCurrentThread();
        }
    }

    /** Runs {@code batch} on a new virtual thread of the scheduler under test, given that thread's timer pool. */
    protected void onVirtualThread(Consumer<ForkJoinPool> batch) throws InterruptedException {
        tasks.join(tasks.start(() -> batch.accept(timerPool())));
    }

    private static ForkJoinPool timerPool() {
        Executor scheduler;
        try {
            scheduler = (Executor) SCHEDULER.get(Thread.currentThread());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        if (scheduler instanceof ForkJoinPool pool) {
            return pool;
        }
        throw new IllegalStateException("this virtual thread's scheduler is not a ForkJoinPool, so its timed parks"
                + " do not go through ForkJoinPool.schedule: " + scheduler);
    }
}
