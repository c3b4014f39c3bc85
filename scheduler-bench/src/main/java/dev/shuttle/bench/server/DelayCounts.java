package dev.shuttle.bench.server;

import dev.shuttle.scheduler.SchedulingDelayMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The server's scheduling-delay histogram (Shuttle's {@link SchedulingDelayMXBean}: how long sampled virtual threads
 * waited, runnable, for a carrier), all kinds of hand-off together, and the line in which the server's
 * {@link ServerHandlers#DELAY} sends it. The bean counts since start, so a run's own delays are the difference of
 * two readings ({@link #since}), as a monitoring system computes its windows. On Shuttle the bean is the scheduler's
 * own; on the JDK default it is the agent's measuring mode ({@code -Dshuttle.measure=true}, no {@code implClass}),
 * which records the same histogram for the JDK's {@code ForkJoinPool} without changing how it schedules. The line is
 * the bean's name, then one {@code lower-upper:count} per non-empty bucket, in nanoseconds, in order:
 *
 * <pre>default 0-256:12 4096-4608:3 4718592-5242880:1</pre>
 *
 * @param lowers the lower bounds of the non-empty buckets, in nanoseconds, ascending
 * @param uppers their upper bounds, exclusive ({@link Long#MAX_VALUE} for the overflow bucket)
 * @param counts their counts, each above 0 in a reading (a difference may hold zeros)
 */
record DelayCounts(String scheduler, long[] lowers, long[] uppers, long[] counts) {
    /** Reads the bean once (one merge of its owners' histograms). */
    static DelayCounts of(SchedulingDelayMXBean bean) {
        long[] bounds = bean.getSchedulingDelayBucketBoundsNanos();
        long[] all = bean.getSchedulingDelayBucketCounts();
        List<long[]> buckets = new ArrayList<>();
        for (int i = 0; i < all.length; i++) {
            if (all[i] > 0) {
                buckets.add(new long[] {bounds[i], i + 1 < bounds.length ? bounds[i + 1] : Long.MAX_VALUE, all[i]});
            }
        }
        return of(bean.getName(), buckets);
    }

    private static DelayCounts of(String scheduler, List<long[]> buckets) {
        long[] lowers = new long[buckets.size()];
        long[] uppers = new long[buckets.size()];
        long[] counts = new long[buckets.size()];
        for (int i = 0; i < buckets.size(); i++) {
            lowers[i] = buckets.get(i)[0];
            uppers[i] = buckets.get(i)[1];
            counts[i] = buckets.get(i)[2];
        }
        return new DelayCounts(scheduler, lowers, uppers, counts);
    }

    String format() {
        StringBuilder line = new StringBuilder(scheduler);
        for (int i = 0; i < counts.length; i++) {
            line.append(' ').append(lowers[i]).append('-').append(uppers[i]).append(':').append(counts[i]);
        }
        return line.toString();
    }

    /**
     * @throws IllegalArgumentException quoting the line and saying what is wrong, if it is not a name followed by
     *     {@code lower-upper:count} buckets, each lower below its upper and at or above the previous upper, each
     *     count above 0
     */
    static DelayCounts parse(String line) {
        String[] fields = line.split(" ", -1);
        if (fields[0].isEmpty()) {
            throw malformed(line, "no scheduler name");
        }
        List<long[]> buckets = new ArrayList<>();
        long previousUpper = 0;
        for (int i = 1; i < fields.length; i++) {
            String f = fields[i];
            int dash = f.indexOf('-');
            int colon = f.indexOf(':');
            if (dash <= 0 || colon < dash) {
                throw malformed(line, "`" + f + "` is not lower-upper:count");
            }
            long[] b;
            try {
                b = new long[] {Long.parseLong(f.substring(0, dash)), Long.parseLong(f.substring(dash + 1, colon)),
                    Long.parseLong(f.substring(colon + 1))};
            } catch (NumberFormatException e) {
                throw malformed(line, "`" + f + "` is not lower-upper:count in whole numbers");
            }
            if (b[0] < previousUpper || b[1] <= b[0]) {
                throw malformed(line, "bucket `" + f + "` is empty or out of order");
            }
            if (b[2] <= 0) {
                throw malformed(line, "bucket `" + f + "` has no count");
            }
            previousUpper = b[1];
            buckets.add(b);
        }
        return of(fields[0], buckets);
    }

    private static IllegalArgumentException malformed(String line, String why) {
        return new IllegalArgumentException("malformed scheduling delays `" + line + "`: " + why);
    }

    /**
     * The counts added since {@code earlier}, bucket by bucket.
     *
     * @throws IllegalArgumentException if {@code earlier} is another scheduler's, or one of its buckets is missing
     *     here or counted more: it was not an earlier reading of the same bean
     */
    DelayCounts since(DelayCounts earlier) {
        if (!scheduler.equals(earlier.scheduler)) {
            throw new IllegalArgumentException("scheduling delays of " + scheduler + " after a reading of "
                    + earlier.scheduler);
        }
        long[] d = counts.clone();
        int j = 0;
        for (int i = 0; i < earlier.counts.length; i++) {
            while (j < lowers.length && lowers[j] < earlier.lowers[i]) {
                j++;
            }
            if (j == lowers.length || lowers[j] != earlier.lowers[i] || counts[j] < earlier.counts[i]) {
                throw new IllegalArgumentException("scheduling delays went down in the bucket from "
                        + earlier.lowers[i] + " ns: not an earlier reading of the same scheduler");
            }
            d[j] -= earlier.counts[i];
        }
        return new DelayCounts(scheduler, lowers, uppers, d);
    }

    long samples() {
        long n = 0;
        for (long c : counts) {
            n += c;
        }
        return n;
    }

    /**
     * The upper bound of the bucket that holds the {@code percentile}th sample (at most 12.5 % above the values in
     * it; the overflow bucket's lower bound), in nanoseconds; NaN without a sample.
     */
    double percentileNanos(double percentile) {
        long n = samples();
        if (n == 0) {
            return Double.NaN;
        }
        long rank = Math.max(1, (long) Math.ceil(percentile / 100 * n));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return uppers[i] == Long.MAX_VALUE ? lowers[i] : uppers[i];
            }
        }
        throw new AssertionError("rank " + rank + " beyond " + n + " samples");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DelayCounts d && scheduler.equals(d.scheduler) && java.util.Arrays.equals(lowers, d.lowers)
                && java.util.Arrays.equals(uppers, d.uppers) && java.util.Arrays.equals(counts, d.counts);
    }

    @Override
    public int hashCode() {
        return scheduler.hashCode() * 31 + java.util.Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return format();
    }
}
