package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

/**
 * The action of a {@code ShuttleScheduler.schedule} timer: starts the task in a new Shuttle virtual thread, so that
 * a slow task never holds the carrier that fires timers (Go's {@code AfterFunc} runs its function in a new
 * goroutine for the same reason). A distinct class so that {@code ShuttleScheduler.close()} can find and cancel these
 * timers: it names this class to {@code TimerService.cancelPending}, which fires and cancels actions without knowing
 * their kinds, so the dependency runs one way (scheduler, then this action, then the pool it starts threads on).
 */
public record ScheduledStart(Runnable task, CarrierPool pool) implements Runnable {
    @Override
    public void run() {
        JdkVirtualThreads.newBuilder(pool).start(task);
    }
}
