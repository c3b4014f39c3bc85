package dev.shuttle.scheduler.core;

import dev.shuttle.timers.Timer;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What {@code ShuttleScheduler.schedule} returns: the timer seen only through {@link ScheduledFuture}. The
 * {@link Timer} itself is public (scheduler-core arms and fires it from another package) and has operations a caller
 * must not reach, {@code fire()} above all, which would run the task early; a caller who cast the future to it could.
 * This class is package-private (the API reaches it through {@link TimerService#futureOf}), so the future's only operations are {@code ScheduledFuture}'s. One small object per
 * {@code schedule} call; the JDK's timed parks, which go through {@code CarrierPool.schedule}, never see it.
 */
final class ScheduledHandle implements ScheduledFuture<Void> {
    private final Timer timer;

    ScheduledHandle(Timer timer) {
        this.timer = timer;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return timer.cancel(mayInterruptIfRunning);
    }

    @Override
    public boolean isCancelled() {
        return timer.isCancelled();
    }

    @Override
    public boolean isDone() {
        return timer.isDone();
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return timer.getDelay(unit);
    }

    @Override
    public int compareTo(Delayed other) {
        return timer.compareTo(other instanceof ScheduledHandle h ? h.timer : other);
    }

    @Override
    public Void get() throws InterruptedException {
        return timer.get();
    }

    @Override
    public Void get(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
        return timer.get(timeout, unit);
    }

    @Override
    public State state() {
        return timer.state();
    }

    @Override
    public Void resultNow() {
        return timer.resultNow();
    }

    @Override
    public Throwable exceptionNow() {
        return timer.exceptionNow();
    }

    @Override
    public String toString() {
        return "ShuttleScheduler.schedule[" + timer.state() + ", delay " + timer.getDelay(TimeUnit.NANOSECONDS)
                + " ns]";
    }
}
