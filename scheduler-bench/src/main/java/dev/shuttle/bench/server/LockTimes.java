package dev.shuttle.bench.server;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * How long the requests of one lock endpoint waited for its lock and held it, over one interval, as the server measured
 * them ({@link TimedLock}); and the text form in which the server's {@link ServerHandlers#LOCKS} sends them to the
 * parent. Each endpoint takes two lines, every value in nanoseconds:
 *
 * <pre>/lock/reentrant wait COUNT P50 P90 P99 P99.9 MAX
 * /lock/reentrant hold COUNT P50 P90 P99 P99.9 MAX</pre>
 */
record LockTimes(Distribution waits, Distribution holds) {
    private static final List<String> KINDS = List.of("wait", "hold");
    private static final int FIELDS = 8;

    /** A summary of one histogram of nanoseconds. */
    record Distribution(long count, long p50, long p90, long p99, long p999, long max) {
        /**
         * @throws IllegalArgumentException if a value is negative or a percentile is below the one before it (the
         *     fields were mixed up)
         */
        Distribution {
            long[] ordered = {p50, p90, p99, p999, max};
            boolean ascending = true;
            for (int i = 1; i < ordered.length; i++) {
                ascending &= ordered[i] >= ordered[i - 1];
            }
            if (count < 0 || p50 < 0 || !ascending) {
                throw new IllegalArgumentException("a negative count or percentile, or a percentile below the one"
                        + " before it: count " + count + ", p50 p90 p99 p99.9 max " + Arrays.toString(ordered));
            }
        }

        static Distribution of(Histogram h) {
            return new Distribution(h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
                    h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue());
        }

        private String format() {
            return count + " " + p50 + " " + p90 + " " + p99 + " " + p999 + " " + max;
        }
    }

    /** The text form of {@code byEndpoint}, endpoints in their declared order. */
    static String format(Map<Endpoint, LockTimes> byEndpoint) {
        Map<Endpoint, LockTimes> ordered = new EnumMap<>(Endpoint.class);
        ordered.putAll(byEndpoint);
        StringBuilder text = new StringBuilder();
        ordered.forEach((e, t) -> {
            text.append(e.path()).append(" wait ").append(t.waits().format()).append('\n');
            text.append(e.path()).append(" hold ").append(t.holds().format()).append('\n');
        });
        return text.toString();
    }

    /**
     * The lock times in {@code text}, by endpoint.
     *
     * @throws IllegalArgumentException naming the line, if a line is not {@code PATH wait|hold} and six whole numbers,
     *     names an endpoint that takes no lock, repeats one, or an endpoint lacks its wait or its hold
     */
    static Map<Endpoint, LockTimes> parse(String text) {
        Map<Endpoint, Distribution[]> lines = new EnumMap<>(Endpoint.class);
        List<String> all = text.lines().toList();
        for (int i = 0; i < all.size(); i++) {
            try {
                parseLine(all.get(i), lines);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("malformed lock times, line " + (i + 1) + " `" + all.get(i)
                        + "`: " + e.getMessage(), e);
            }
        }
        Map<Endpoint, LockTimes> times = new EnumMap<>(Endpoint.class);
        lines.forEach((e, kinds) -> {
            for (int k = 0; k < KINDS.size(); k++) {
                if (kinds[k] == null) {
                    throw new IllegalArgumentException("malformed lock times: " + e.path() + " has no "
                            + KINDS.get(k) + " line");
                }
            }
            times.put(e, new LockTimes(kinds[0], kinds[1]));
        });
        return times;
    }

    private static void parseLine(String line, Map<Endpoint, Distribution[]> lines) {
        String[] f = line.split(" ", -1);
        if (f.length != FIELDS) {
            throw new IllegalArgumentException(FIELDS + " fields separated by single spaces are needed (path, wait"
                    + " or hold, count, p50, p90, p99, p99.9, max), not " + f.length);
        }
        Endpoint e = Endpoint.ofPath(f[0]);
        if (!e.takesLock()) {
            throw new IllegalArgumentException(e.path() + " takes no lock");
        }
        int kind = KINDS.indexOf(f[1]);
        if (kind < 0) {
            throw new IllegalArgumentException("the second field must be wait or hold, not " + f[1]);
        }
        Distribution[] kinds = lines.computeIfAbsent(e, x -> new Distribution[KINDS.size()]);
        if (kinds[kind] != null) {
            throw new IllegalArgumentException("a second " + f[1] + " line for " + e.path());
        }
        long[] v = new long[FIELDS - 2];
        for (int i = 0; i < v.length; i++) {
            try {
                v[i] = Long.parseLong(f[i + 2]);
            } catch (NumberFormatException notANumber) {
                throw new IllegalArgumentException("field " + (i + 3) + " is not a whole number: " + f[i + 2]);
            }
        }
        kinds[kind] = new Distribution(v[0], v[1], v[2], v[3], v[4], v[5]);
    }
}
