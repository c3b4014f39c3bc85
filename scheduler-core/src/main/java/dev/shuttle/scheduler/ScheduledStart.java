package dev.shuttle.scheduler;

/**
 * The action of a {@code ShuttleScheduler.schedule} timer: starts the task in a new Shuttle virtual thread, so that
 * a slow task never holds the carrier that fires timers (Go's {@code AfterFunc} runs its function in a new
 * goroutine for the same reason). A distinct class so that {@code close()} can find and cancel these timers.
 */
record ScheduledStart(Runnable task, CarrierPool pool) implements Runnable {
    @Override
    public void run() {
        JdkVirtualThreads.newBuilder(pool).start(task);
    }
}
