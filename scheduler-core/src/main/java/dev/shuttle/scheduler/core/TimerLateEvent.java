package dev.shuttle.scheduler.core;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A batch of timers fired with its earliest deadline more than {@code minLateness} past (default 20 ms, set per
 * recording: {@code dev.shuttle.TimerLate#minLateness=5 ms}). One event per batch (up to 64 timers of one heap fired
 * together), carrying the worst lateness: per-timer events would put a check in the timer heap's firing loop; this
 * costs one subtraction per batch when timers are on time.
 */
@Name("dev.shuttle.TimerLate")
@Label("Timer Late")
@Category("Shuttle")
@Description("Timers (sleeps, timed waits, scheduled starts) fired more than 20 ms after their deadline")
@StackTrace(false)
public final class TimerLateEvent extends jdk.jfr.Event {
    /** The recordings' smallest {@code minLateness}; the firing path reads it before building an event. */
    static volatile long minLatenessNanos = 20_000_000L;

    @Label("Scheduler")
    String scheduler;

    @Label("Deadline")
    @Description("The earliest deadline in the batch, System.nanoTime() based")
    long deadline;

    @Label("Lateness")
    @Description("How long after that deadline the batch fired: the worst lateness in the batch")
    @Timespan(Timespan.NANOSECONDS)
    long lateness;

    @Label("Fired")
    @Description("Timers fired in the batch")
    int fired;

    @Label("Processor")
    @Description("The processor whose heap held the timers")
    int processor;

    @Label("Stolen")
    @Description("True if another processor's carrier fired them (the owner was busy or idle)")
    boolean stolen;

    @Label("Minimum Lateness")
    @Description("Record a batch only when it fired at least this long after its deadline")
    @Name("minLateness")
    @SettingDefinition
    boolean minLateness(MinLateness setting) {
        return lateness >= minLatenessNanos;
    }

    static final class MinLateness extends DurationSetting {
        MinLateness() {
            super("20 ms");
        }

        @Override
        void apply(long nanos) {
            minLatenessNanos = nanos;
        }
    }

    static void emit(String scheduler, long deadline, long lateness, int fired, int processor, boolean stolen) {
        TimerLateEvent e = new TimerLateEvent();
        if (!e.isEnabled()) {
            return;
        }
        e.scheduler = scheduler;
        e.deadline = deadline;
        e.lateness = lateness;
        e.fired = fired;
        e.processor = processor;
        e.stolen = stolen;
        e.commit();
    }
}
