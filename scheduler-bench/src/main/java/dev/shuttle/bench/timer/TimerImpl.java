package dev.shuttle.bench.timer;

import dev.shuttle.scheduler.ShuttleScheduler;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A timer service under test, by the {@code impl} parameter of the timer-operation benchmarks: {@code shuttle}
 * ({@code ShuttleScheduler.schedule}, per-carrier timer heaps), {@code stpe} (one {@link ScheduledThreadPoolExecutor}
 * thread, the JDK's timer for virtual threads on custom schedulers) and {@code fjp} ({@link ForkJoinPool#schedule}
 * on the common pool, the default virtual-thread scheduler's timer path).
 */
public abstract class TimerImpl implements AutoCloseable {
    public static final String SHUTTLE = "shuttle";
    public static final String STPE = "stpe";
    public static final String FJP = "fjp";

    /** Arms a one-shot timer. */
    public abstract ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit);

    @Override
    public abstract void close();

    /** Opens the named implementation. */
    public static TimerImpl open(String name) {
        return switch (name) {
            case SHUTTLE -> new Shuttle();
            case STPE -> new Stpe();
            case FJP -> new Fjp();
            default -> throw new IllegalArgumentException("unknown impl '" + name + "': use shuttle, stpe or fjp");
        };
    }

    /** True when this build's ShuttleScheduler has {@code schedule(Runnable, long, TimeUnit)}. */
    public static boolean shuttleScheduleAvailable() {
        return Shuttle.lookup() != null;
    }

    /**
     * Reached reflectively: the per-carrier timer integration adds {@code ShuttleScheduler.schedule} after this
     * benchmark was written; until it lands the benchmark fails with a message naming the missing method.
     */
    private static final class Shuttle extends TimerImpl {
        private final ShuttleScheduler scheduler;
        private final MethodHandle schedule;

        Shuttle() {
            MethodHandle found = lookup();
            if (found == null) {
                throw new UnsupportedOperationException("impl=shuttle needs ShuttleScheduler.schedule(Runnable, long,"
                        + " TimeUnit), which this build of scheduler-core does not have yet (per-carrier timer"
                        + " integration pending); run with -p impl=stpe,fjp meanwhile");
            }
            scheduler = ShuttleScheduler.create();
            schedule = found.bindTo(scheduler);
        }

        static MethodHandle lookup() {
            try {
                return MethodHandles.publicLookup().findVirtual(ShuttleScheduler.class, "schedule",
                        MethodType.methodType(ScheduledFuture.class, Runnable.class, long.class, TimeUnit.class));
            } catch (NoSuchMethodException | IllegalAccessException e) {
                return null;
            }
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
            try {
                return (ScheduledFuture<?>) schedule.invokeExact(task, delay, unit);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void close() {
            scheduler.close();
        }
    }

    private static final class Stpe extends TimerImpl {
        private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);

        Stpe() {
            // Go's Stop removes the timer from its heap; without this a cancelled timer stays queued until it is due.
            executor.setRemoveOnCancelPolicy(true);
        }

        @Override
        public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
            return executor.schedule(task, delay, unit);
        }

        @Override
        public void close() {
            executor.shutdownNow();
        }
    }

    private static final class Fjp extends TimerImpl {
        @Override
        public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
            return ForkJoinPool.commonPool().schedule(task, delay, unit);
        }

        @Override
        public void close() {
            // The common pool outlives the benchmark; its cancelled timers are already gone.
        }
    }
}
