package dev.shuttle.scheduler.core;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A sampled virtual thread waited longer than {@code minDelay} (default 20 ms, set per recording:
 * {@code dev.shuttle.SchedulingDelay#minDelay=5 ms}) between being handed to its scheduler and a carrier starting it.
 * Only sampled hand-offs are timed ({@link HandOffStamps}, one in {@value HandOffStamps#SAMPLE_PERIOD}), so a
 * starvation that lasts shows up in a few events, not in every one of its victims. The carrier emits it as it starts
 * the thread, so the event's own thread is the carrier; the victim is {@link #thread}, and {@link #previousThreadId}
 * is the id of the virtual thread that the same processor started just before it, the last of those it waited behind
 * (-1 on the JDK's scheduler, whose carriers keep no such record). An id, not the thread: a processor that kept its
 * last thread would keep an ended thread reachable for as long as the processor stays idle.
 */
@Name("dev.shuttle.SchedulingDelay")
@Label("Scheduling Delay")
@Category("Shuttle")
@Description("A sampled virtual thread waited for a carrier at least minDelay (default 20 ms)")
@StackTrace(false)
public final class SchedulingDelayEvent extends jdk.jfr.Event {
    /** The recordings' smallest {@code minDelay}; the recording path reads it before building an event. */
    public static volatile long minDelayNanos = 20_000_000L;

    @Label("Scheduler")
    String scheduler;

    @Label("Virtual Thread")
    @Description("The thread that waited")
    Thread thread;

    @Label("Kind")
    @Description("How it became runnable: start, wake (unpark or unblock), yield or timer")
    String kind;

    @Label("Delay")
    @Description("From its hand-off to the scheduler to a carrier starting it")
    @Timespan(Timespan.NANOSECONDS)
    long delay;

    @Label("Processor")
    @Description("The processor that ran it (Shuttle), or -1 on the JDK's scheduler")
    int processor;

    @Label("Previous Thread Id")
    @Description("The id of the virtual thread this processor ran just before it (the last it waited behind), or -1")
    long previousThreadId;

    @Label("Minimum Delay")
    @Description("Record a sampled wait only when it lasted at least this long")
    @Name("minDelay")
    @SettingDefinition
    boolean minDelay(MinDelay setting) {
        return delay >= minDelayNanos;
    }

    static final class MinDelay extends DurationSetting {
        MinDelay() {
            super("20 ms");
        }

        @Override
        void apply(long nanos) {
            minDelayNanos = nanos;
        }
    }

    public static void emit(String scheduler, Thread thread, int kind, long delay, int processor, long previousThreadId) {
        SchedulingDelayEvent e = new SchedulingDelayEvent();
        if (!e.isEnabled()) {
            return;
        }
        e.scheduler = scheduler;
        e.thread = thread;
        e.kind = HandOffStamps.KIND_NAMES[kind];
        e.delay = delay;
        e.processor = processor;
        e.previousThreadId = previousThreadId;
        e.commit();
    }
}
