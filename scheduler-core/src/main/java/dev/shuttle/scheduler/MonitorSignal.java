package dev.shuttle.scheduler;

import java.util.concurrent.locks.LockSupport;

/**
 * The two flags through which carriers and the {@link Monitor} talk, apart from the monitor so that waking it is a
 * write here and an unpark, never a call into the monitor: the monitor calls the wake-ups, and nothing below it calls
 * the monitor.
 *
 * <p>{@code asleep}: the monitor parks without a timeout while every processor is idle. The race: the monitor
 * publishes {@code asleep}, then reads the idle set ({@link Monitor#prepareToSleep}); a carrier clears its idle bit,
 * then reads {@code asleep} ({@link #processorBusy}). All volatile or atomic, so one sees the other
 * ({@code MonitorSleepVersusBusyStress}).
 *
 * <p>{@code watchingRunNext}: some busy processor's runNext was occupied at the monitor's last look, so a
 * runNext-only hand-off need not wake anyone ({@link Wakeups#afterLocalPush}). The race: a pusher writes runNext, then
 * reads the flag; the monitor lowering the flag looks at the slots once more ({@link Monitor#watchRunNext}). One of
 * the two sees the other ({@code RunNextWatchStress}).
 */
final class MonitorSignal {
    /** The monitor's thread; set once, while the pool is built (volatile: read only on the way to wake it). */
    private volatile Thread monitor;
    private volatile boolean asleep;
    private volatile boolean watchingRunNext;

    void attach(Thread monitor) {
        this.monitor = monitor;
    }

    /** A processor left the idle set: wake the monitor if it sleeps without a timeout. */
    void processorBusy() {
        if (asleep) {
            asleep = false;
            LockSupport.unpark(monitor);
        }
    }

    /** Whether the monitor sleeps without a timeout and no busy processor has woken it yet. */
    boolean isAsleep() {
        return asleep;
    }

    void setAsleep(boolean asleep) {
        this.asleep = asleep;
    }

    boolean watchesRunNext() {
        return watchingRunNext;
    }

    void setWatchingRunNext(boolean watching) {
        watchingRunNext = watching;
    }
}
