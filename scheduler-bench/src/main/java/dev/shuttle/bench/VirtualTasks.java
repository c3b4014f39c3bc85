package dev.shuttle.bench;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Starts a benchmark's virtual threads and carries their failures back to the JMH thread: an exception in a virtual
 * thread only reaches its uncaught-exception handler, and a benchmark must fail, not report a number, when one of
 * its threads broke. The first failure is kept and rethrown by {@link #join} or {@link #check}.
 */
public final class VirtualTasks {
    private final ThreadFactory factory;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    public VirtualTasks(ThreadFactory factory) {
        this.factory = factory;
    }

    /** Creates, but does not start, a thread running {@code task}; a failure of the task is recorded. */
    public Thread newThread(Runnable task) {
        return factory.newThread(() -> {
            try {
                task.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
            }
        });
    }

    /** Creates and starts a thread running {@code task}. */
    public Thread start(Runnable task) {
        Thread thread = newThread(task);
        thread.start();
        return thread;
    }

    /** Waits for {@code thread}, then rethrows any failure recorded so far. */
    public void join(Thread thread) throws InterruptedException {
        thread.join();
        check();
    }

    /** Rethrows the first recorded failure, if any. */
    public void check() {
        Throwable e = failure.getAndSet(null);
        if (e != null) {
            throw new IllegalStateException("a benchmark thread failed: " + e, e);
        }
    }

    /** Waits for a thread inside another benchmark thread, where nothing interrupts: the wait must complete. */
    public static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
