package dev.shuttle.scheduler.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One owner's scheduling-delay histogram: how long sampled virtual threads waited between being handed to the
 * scheduler and a carrier starting them, by {@linkplain HandOffStamps kind of hand-off}. Written by one thread at a
 * time (the holder of a {@link Processor}, or one JDK carrier thread), read by any thread and merged on read
 * ({@link Snapshot}).
 *
 * <p>The buckets are Go's {@code timeHistogram} ({@code runtime/histogram.go}): a value goes to the bucket of its
 * most significant set bit and, inside it, to one of {@value #SUB_BUCKETS} linear sub-buckets chosen by the next
 * {@value #SUB_BUCKET_BITS} bits, so each bucket is at most 1/{@value #SUB_BUCKETS} (12.5 %) wide relative to its
 * values. Values below 2<sup>{@value #MIN_BUCKET_BITS}-1</sup> ns share the first bucket; values from
 * 2<sup>{@value #MAX_BUCKET_BITS}</sup> ns (about nine minutes) on go to one overflow bucket. Go uses 4 sub-buckets;
 * 8 keep a 5 ms wait inside a bucket half a millisecond wide for the price of 257 counters per kind.
 *
 * <p>Why not HdrHistogram (a dependency already): its {@code Histogram} raises its maximum by a CAS on every record
 * that sets a new one and is documented as unsafe to read while it is being written; its {@code Recorder} makes
 * reading safe with a phaser (an atomic increment per record) and hands out intervals, where the MXBean wants counts
 * since start that a monitoring system differences itself; and at a comparable precision it has thousands of
 * counters, where this bean publishes its buckets. Here each record is two plain-speed stores to the owner's own
 * array (opaque, so a reader sees whole values) and no atomic read-modify-write.
 */
public final class DelayHistogram {
    static final int MIN_BUCKET_BITS = 9;
    static final int MAX_BUCKET_BITS = 39;
    static final int SUB_BUCKET_BITS = 3;
    static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    private static final int BUCKETS = MAX_BUCKET_BITS - MIN_BUCKET_BITS + 2;
    /** Counters per kind: the buckets' sub-buckets, then the overflow bucket. */
    public static final int COUNTS = BUCKETS * SUB_BUCKETS + 1;
    static final int OVERFLOW = COUNTS - 1;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    /** {@code HandOffStamps.KINDS} runs of {@link #COUNTS} counters, then one maximum per kind. */
    private final long[] counts = new long[HandOffStamps.KINDS * (COUNTS + 1)];

    /** Owner: counts one wait of {@code nanos} (negative counts as 0) handed off as {@code kind}. */
    public void record(int kind, long nanos) {
        long d = Math.max(nanos, 0);
        int i = kind * COUNTS + index(d);
        LONGS.setOpaque(counts, i, (long) LONGS.getOpaque(counts, i) + 1);
        int m = HandOffStamps.KINDS * COUNTS + kind;
        if (d > (long) LONGS.getOpaque(counts, m)) {
            LONGS.setOpaque(counts, m, d);
        }
    }

    /** Adds this histogram's counts (and maxima) to {@code into}, a snapshot being merged; any thread. */
    public void addTo(Snapshot into) {
        for (int k = 0; k < HandOffStamps.KINDS; k++) {
            long[] c = into.counts[k];
            for (int i = 0; i < COUNTS; i++) {
                c[i] += (long) LONGS.getOpaque(counts, k * COUNTS + i);
            }
            into.max[k] = Math.max(into.max[k], (long) LONGS.getOpaque(counts, HandOffStamps.KINDS * COUNTS + k));
        }
    }

    /** The counter index of a wait of {@code nanos} >= 0. */
    static int index(long nanos) {
        int bits = 64 - Long.numberOfLeadingZeros(nanos);
        int bucketBit;
        int bucket;
        if (bits < MIN_BUCKET_BITS) {
            bucketBit = MIN_BUCKET_BITS;
            bucket = 0;
        } else {
            bucketBit = bits;
            bucket = bits - MIN_BUCKET_BITS + 1;
        }
        if (bucket >= BUCKETS) {
            return OVERFLOW;
        }
        int sub = (int) (nanos >>> (bucketBit - 1 - SUB_BUCKET_BITS)) & (SUB_BUCKETS - 1);
        return bucket * SUB_BUCKETS + sub;
    }

    /** The smallest wait, in nanoseconds, counted at {@code index}. */
    public static long lowerBound(int index) {
        if (index == OVERFLOW) {
            return 1L << MAX_BUCKET_BITS;
        }
        int bucket = index >>> SUB_BUCKET_BITS;
        int sub = index & (SUB_BUCKETS - 1);
        int bucketBit = bucket == 0 ? MIN_BUCKET_BITS : bucket + MIN_BUCKET_BITS - 1;
        long width = 1L << (bucketBit - 1 - SUB_BUCKET_BITS);
        return (bucket == 0 ? 0 : 1L << (bucketBit - 1)) + sub * width;
    }

    /** The first wait, in nanoseconds, past {@code index}'s bucket; {@link Long#MAX_VALUE} for the overflow. */
    static long upperBound(int index) {
        return index == OVERFLOW ? Long.MAX_VALUE : lowerBound(index + 1);
    }

    /**
     * Several owners' histograms merged, or the difference of two such merges: counts per kind and bucket, and the
     * largest wait per kind (in a difference, the larger of the two readings' maxima).
     */
    public static final class Snapshot {
        public final long[][] counts = new long[HandOffStamps.KINDS][COUNTS];
        public final long[] max = new long[HandOffStamps.KINDS];

        /** The counts of every kind added together. */
        public long[] allKinds() {
            long[] all = new long[COUNTS];
            for (long[] c : counts) {
                for (int i = 0; i < COUNTS; i++) {
                    all[i] += c[i];
                }
            }
            return all;
        }

        public long maxAllKinds() {
            long m = 0;
            for (long x : max) {
                m = Math.max(m, x);
            }
            return m;
        }

        /** This reading minus an earlier one of the same histograms: what was recorded in between. */
        public Snapshot minus(Snapshot earlier) {
            Snapshot d = new Snapshot();
            for (int k = 0; k < HandOffStamps.KINDS; k++) {
                for (int i = 0; i < COUNTS; i++) {
                    d.counts[k][i] = counts[k][i] - earlier.counts[k][i];
                }
                d.max[k] = max[k];
            }
            return d;
        }

        public static long total(long[] counts) {
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            return n;
        }

        /**
         * The {@code q} quantile (0 < q <= 1) of {@code counts}, as the upper bound of its bucket, so "at most" this
         * long, capped at {@code max} when that is known (> 0); 0 with no samples.
         */
        public static long quantile(long[] counts, double q, long max) {
            long total = total(counts);
            if (total == 0) {
                return 0;
            }
            long rank = Math.max(1, (long) Math.ceil(q * total));
            long seen = 0;
            for (int i = 0; i < COUNTS; i++) {
                seen += counts[i];
                if (seen >= rank) {
                    long upper = upperBound(i) - 1;
                    return max > 0 ? Math.min(upper, max) : upper;
                }
            }
            return max;
        }
    }
}
