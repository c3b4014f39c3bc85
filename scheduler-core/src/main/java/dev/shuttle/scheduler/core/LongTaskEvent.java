package dev.shuttle.scheduler.core;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A processor ran one virtual thread for longer than {@code minRunningFor} (default 20 ms, set per recording:
 * {@code dev.shuttle.LongTask#minRunningFor=100 ms}) while other work waited for it: the monitor saw its tick stand
 * still, on a CPU, with tasks queued, runNext occupied, a timer due, or the global queue waiting and no processor idle.
 * One event per such spell, as soon as it crosses the setting.
 */
@Name("dev.shuttle.LongTask")
@Label("Long Task")
@Category("Shuttle")
@Description("A virtual thread kept its processor longer than minRunningFor (default 20 ms) while other work waited")
@StackTrace(false)
public final class LongTaskEvent extends jdk.jfr.Event {
    /** The recordings' smallest {@code minRunningFor}; the monitor reads it before building an event. */
    static volatile long minRunningForNanos = 20_000_000L;

    @Label("Scheduler")
    String scheduler;

    @Label("Carrier")
    String carrier;

    @Label("Virtual Thread")
    Thread virtualThread;

    @Label("Running For")
    @Description("How long the monitor had seen the processor's tick stand still with work waiting")
    @Timespan(Timespan.NANOSECONDS)
    long runningFor;

    @Label("Queued")
    @Description("Tasks in the processor's run queue and runNext slot")
    int queued;

    @Label("Stack")
    @Description("Top frames of the virtual thread's stack when the event was recorded")
    String stack;

    @Label("Minimum Running For")
    @Description("Record a spell only when the virtual thread kept its processor at least this long")
    @Name("minRunningFor")
    @SettingDefinition
    boolean minRunningFor(MinRunningFor setting) {
        return runningFor >= minRunningForNanos;
    }

    static final class MinRunningFor extends DurationSetting {
        MinRunningFor() {
            super("20 ms");
        }

        @Override
        void apply(long nanos) {
            minRunningForNanos = nanos;
        }
    }

    static void emit(String scheduler, Processor proc, long runningFor) {
        LongTaskEvent e = new LongTaskEvent();
        if (!e.isEnabled()) {
            return;
        }
        CarrierThread carrier = proc.holder();
        Thread vthread = CarrierBlockedEvent.runningOn(carrier);
        e.scheduler = scheduler;
        e.carrier = carrier == null ? null : carrier.getName();
        e.virtualThread = vthread;
        e.runningFor = runningFor;
        e.queued = proc.runQueue.size();
        e.stack = CarrierBlockedEvent.topFrames(vthread);
        e.commit();
    }
}
