package dev.shuttle.bench.server;

import java.util.EnumMap;
import java.util.Map;

/**
 * CPU samples of the server's Java code over one run, counted by {@link CodeArea}, each standing for
 * {@code periodNanos} of one thread running Java code ({@link JavaSampler}); and the text form in which the server's
 * {@code ServerHandlers.PROFILE_STOP} sends them to the parent, one line per area with samples:
 *
 * <pre>period NANOS
 * SCHEDULER COUNT</pre>
 */
record JavaSamples(long periodNanos, Map<CodeArea, Long> counts) {
    /** @throws IllegalArgumentException if the period is not positive or a count is negative */
    JavaSamples {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("sampling period " + periodNanos + " ns: must be positive");
        }
        EnumMap<CodeArea, Long> copy = new EnumMap<>(CodeArea.class);
        counts.forEach((area, n) -> {
            if (n < 0) {
                throw new IllegalArgumentException("negative sample count " + n + " for " + area);
            }
            copy.put(area, n);
        });
        counts = Map.copyOf(copy);
    }

    long count(CodeArea area) {
        return counts.getOrDefault(area, 0L);
    }

    long total() {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The samples of this run and {@code other}, taken at the same period, together. */
    JavaSamples plus(JavaSamples other) {
        if (other.periodNanos != periodNanos) {
            throw new IllegalArgumentException("samples taken every " + periodNanos + " and every "
                    + other.periodNanos + " ns cannot be added");
        }
        Map<CodeArea, Long> sum = new EnumMap<>(CodeArea.class);
        sum.putAll(counts);
        other.counts.forEach((area, n) -> sum.merge(area, n, Long::sum));
        return new JavaSamples(periodNanos, sum);
    }

    String format() {
        StringBuilder text = new StringBuilder("period ").append(periodNanos).append('\n');
        for (CodeArea area : CodeArea.values()) {
            if (count(area) > 0) {
                text.append(area.name()).append(' ').append(count(area)).append('\n');
            }
        }
        return text.toString();
    }

    /**
     * The samples {@link #format} wrote.
     *
     * @throws IllegalArgumentException quoting the text if a line is not of the form, an area is unknown or repeated,
     *     or the period is missing
     */
    static JavaSamples parse(String text) {
        long period = 0;
        Map<CodeArea, Long> counts = new EnumMap<>(CodeArea.class);
        try {
            for (String line : text.strip().split("\n")) {
                String[] fields = line.strip().split(" ");
                if (fields.length != 2) {
                    throw new IllegalArgumentException("not two fields: " + line);
                }
                long value = Long.parseLong(fields[1]);
                if (fields[0].equals("period")) {
                    period = value;
                } else if (counts.put(CodeArea.valueOf(fields[0]), value) != null) {
                    throw new IllegalArgumentException("area given twice: " + fields[0]);
                }
            }
            return new JavaSamples(period, counts);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed CPU samples from the server (" + e.getMessage() + "): "
                    + text, e);
        }
    }
}
