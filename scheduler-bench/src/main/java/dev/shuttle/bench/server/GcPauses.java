package dev.shuttle.bench.server;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * A server's garbage collections and their summed time, as the JVM's collector MXBeans count them (for G1: the young
 * and mixed pauses, and the remark and clean-up pauses of its concurrent cycles). A pause stops every request thread
 * at once, whichever scheduler runs them, so the report puts these beside the slowest requests: read through
 * {@code /gc} before and after each run, outside the {@code /cpu} readings.
 */
record GcPauses(long collections, long millis) {
    /** Since this JVM started. */
    static GcPauses ofThisJvm() {
        long collections = 0;
        long millis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            // -1 where a collector does not count.
            collections += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new GcPauses(collections, millis);
    }

    /** What {@link #parse} reads. */
    String format() {
        return collections + " " + millis;
    }

    /** @throws IllegalArgumentException naming the text if it is not two counts */
    static GcPauses parse(String text) {
        String[] parts = text.strip().split(" ");
        try {
            if (parts.length == 2) {
                GcPauses p = new GcPauses(Long.parseLong(parts[0]), Long.parseLong(parts[1]));
                if (p.collections >= 0 && p.millis >= 0) {
                    return p;
                }
            }
        } catch (NumberFormatException e) {
            // reported below with the text
        }
        throw new IllegalArgumentException("GC pauses \"" + text + "\": not two counts, collections and milliseconds");
    }

    /** @throws IllegalArgumentException if a count went down, which would mean another JVM answered */
    GcPauses since(GcPauses before) {
        if (collections < before.collections || millis < before.millis) {
            throw new IllegalArgumentException("GC pauses went down from " + before.format() + " to " + format());
        }
        return new GcPauses(collections - before.collections, millis - before.millis);
    }
}
