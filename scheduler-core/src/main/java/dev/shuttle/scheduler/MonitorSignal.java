package dev.shuttle.scheduler;

import java.util.concurrent.locks.LockSupport;

/**
 * The flag through which carriers wake the {@link Monitor}, apart from the monitor so that waking it is a
 * write here and an unpark, never a call into the monitor: the monitor calls the wake-ups, and nothing below it calls
 * the monitor.
 *
 * <p>{@code asleep}: the monitor parks without a timeout while every processor is idle. The race: the monitor
 * publishes {@code asleep}, then reads the idle set ({@link Monitor#prepareToSleep}); a carrier clears its idle bit,
 * then reads {@code asleep} ({@link #processorBusy}). All volatile or atomic, so one sees the other
 * ({@code MonitorSleepVersusBusyStress}).
 */
final class MonitorSignal {
    /** The monitor's thread; set once, while the pool is built (volatile: read only on the way to wake it). */
    private volatile Thread monitor;
    private volatile boolean asleep;

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
}
