package dev.shuttle.scheduler.core;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.SettingControl;

/**
 * A JFR event setting holding a duration, for an event whose emitter measures a delay that began before the event could
 * (a timer's deadline, the moment the monitor first saw a processor stuck) and records it only past the setting.
 * JFR's own {@code threshold} times an event from {@code begin()} to {@code commit()}, so it cannot express these.
 *
 * <p>Values are written as in JFR settings: {@code 20 ms}, {@code 5ms}, {@code 1 s}, {@code 0 ns}; a value that does
 * not parse is ignored and the previous one kept, as JFR does for its own thresholds. With several recordings the
 * smallest value wins, so every recording gets the events it asked for. JFR calls {@link #setValue} when recordings
 * start and stop; {@link #apply} publishes the value where the emitter reads it, so a disabled event costs the emitter
 * one comparison against the default.
 */
abstract class DurationSetting extends SettingControl {
    private static final Pattern DURATION = Pattern.compile("\\s*(\\d{1,18})\\s*(ns|us|ms|s|m|h|d)?\\s*");

    private String value;

    DurationSetting(String defaultValue) {
        this.value = defaultValue;
    }

    /** Publishes a new value to the emitter. */
    abstract void apply(long nanos);

    /** The value in nanoseconds, or -1 if it is not a duration. */
    static long parseNanos(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            return -1;
        }
        long amount = Long.parseLong(m.group(1));
        String unit = m.group(2);
        if (unit == null) {
            return amount == 0 ? 0 : -1;
        }
        TimeUnit u = switch (unit) {
            case "ns" -> TimeUnit.NANOSECONDS;
            case "us" -> TimeUnit.MICROSECONDS;
            case "ms" -> TimeUnit.MILLISECONDS;
            case "s" -> TimeUnit.SECONDS;
            case "m" -> TimeUnit.MINUTES;
            case "h" -> TimeUnit.HOURS;
            default -> TimeUnit.DAYS;
        };
        return u.toNanos(amount);
    }

    @Override
    public String combine(Set<String> values) {
        String smallest = null;
        long least = Long.MAX_VALUE;
        for (String v : values) {
            long nanos = parseNanos(v);
            if (nanos >= 0 && nanos < least) {
                least = nanos;
                smallest = v;
            }
        }
        return smallest != null ? smallest : value;
    }

    @Override
    public void setValue(String text) {
        long nanos = parseNanos(text);
        if (nanos >= 0) {
            value = text;
            apply(nanos);
        }
    }

    @Override
    public String getValue() {
        return value;
    }
}
