package dev.shuttle.scheduler.observe;

import dev.shuttle.scheduler.core.DelayHistogram;
import dev.shuttle.scheduler.core.HandOffStamps;
import dev.shuttle.scheduler.core.SchedulingDelays;
import dev.shuttle.scheduler.core.SchedulingDelayEvent;

import dev.shuttle.scheduler.jdk.DelayHooksTransformer;
import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ObjIntConsumer;

/**
 * Scheduling delay on the JDK's own scheduler, the JDK-default measuring mode ({@code -Dshuttle.measure=true} with the
 * agent and no {@code jdk.virtualThreadScheduler.implClass}). {@link DelayHooksTransformer} makes
 * {@code VirtualThread} call {@link #accept} with {@link DelayHooksTransformer#HAND_OFF} just before it hands a thread of the default
 * scheduler to the pool, and with {@link DelayHooksTransformer#STARTING} as a carrier enters {@code runContinuation}, before it mounts the
 * thread. The stamps wait in a table keyed by the thread ({@link StampTable}), since the task the JDK queues must stay
 * its own; the histograms are one per JDK carrier thread, written by that thread only and merged on read, as
 * Shuttle's are per processor.
 *
 * <h2>Cost</h2>
 * Go's order: decide first, then read. A hand-off made on a carrier (by a virtual thread it carries, or by the carrier
 * itself: a yield, a timer's wake-up, a park that found its permit) asks that carrier's {@link Owner}'s countdown
 * ({@link HandOffStamps#sampled}), a decrement of a field only that carrier writes; an unsampled hand-off stops there,
 * having read the owner table and written nothing shared. Only a sampled one reads the thread's state (for the kind),
 * the clock, and stores the stamp. A hand-off from a thread that carries nothing of this scheduler (a platform thread
 * unparking a virtual thread) draws with {@link ThreadLocalRandom}, whose seed is a field of that thread. A start
 * loads the thread's slot of the stamp table and compares it; only a start that finds its stamp reads the clock and
 * records into its carrier's histogram.
 *
 * <h2>Owners</h2>
 * A carrier gets its {@link Owner} (its histogram and its countdown) on its first sampled start, and is found by an
 * open-addressed table on its thread id that is replaced, never changed, under this object's lock and read without
 * one. A carrier thread that ended leaves its histogram behind, and the next carrier to enrol adopts it (the ended
 * thread's writes happen before {@link Thread#isAlive()} reads false), so the histograms are as many as the most
 * carriers alive at once and no count is lost. On this scheduler a timer's wake-up is a {@code wake}: the pool's delay
 * scheduler hands it to a carrier, which unparks the thread like any other unpark.
 */
public final class JdkSchedulingDelays implements ObjIntConsumer<Thread> {
    public static final String PROPERTY = SchedulingDelays.MEASURE_PROPERTY;
    public static final String NAME = "jdk-default";

    /** The measuring mode's bean, once the agent installed it; read by the periodic statistics event. */
    public static volatile SchedulingDelayView installed;

    private final StampTable stamps = new StampTable();
    /** Every histogram ever made, adopted ones once; for {@link #snapshot}. */
    private final List<DelayHistogram> histograms = new CopyOnWriteArrayList<>();
    /** Histograms of ended carriers, waiting for the next carrier to enrol; under the lock. */
    private final ArrayDeque<DelayHistogram> orphans = new ArrayDeque<>();
    /** Owners by thread id, open addressing, at most half full; replaced under the lock, read without it. */
    private volatile Owner[] owners = new Owner[16];

    /** A carrier's own: written by its thread only. */
    private static final class Owner {
        final Thread thread;
        final DelayHistogram histogram;
        final HandOffStamps sampler = new HandOffStamps();

        Owner(Thread thread, DelayHistogram histogram) {
            this.thread = thread;
            this.histogram = histogram;
        }
    }

    /**
     * {@value #PROPERTY}: {@code true} or {@code false}; null (unset) is false.
     *
     * @throws IllegalArgumentException naming the property and the value otherwise
     */
    public static boolean parseMeasure(String text) {
        if (text == null || text.equals("false")) {
            return false;
        }
        if (text.equals("true")) {
            return true;
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + text + ": expected true or false");
    }

    @Override
    public void accept(Thread vthread, int op) {
        if (op == DelayHooksTransformer.HAND_OFF) {
            handedOff(vthread);
        } else {
            starting(vthread);
        }
    }

    private void handedOff(Thread vthread) {
        Owner o = find(JdkVirtualThreads.currentCarrier());
        if (o != null ? !o.sampler.sampled()
                : (ThreadLocalRandom.current().nextInt() & (HandOffStamps.SAMPLE_PERIOD - 1)) != 0) {
            return;
        }
        int s = JdkVirtualThreads.state(vthread);
        stamps.stamp(vthread, s == JdkVirtualThreads.STARTED ? HandOffStamps.START
                : s == JdkVirtualThreads.YIELDED ? HandOffStamps.YIELD : HandOffStamps.WAKE);
    }

    private void starting(Thread vthread) {
        long word = stamps.take(vthread);
        if (word == 0) {
            return;
        }
        long waited = HandOffStamps.waited(word, System.nanoTime());
        int kind = HandOffStamps.kind(word);
        Thread carrier = JdkVirtualThreads.currentCarrier();
        Owner o = find(carrier);
        (o != null ? o : enrol(carrier)).histogram.record(kind, waited);
        if (waited >= SchedulingDelayEvent.minDelayNanos) {
            SchedulingDelayEvent.emit(NAME, vthread, kind, waited, -1, -1);
        }
    }

    /** {@code t}'s owner, or null; any thread, without a lock. */
    private Owner find(Thread t) {
        Owner[] table = owners;
        int mask = table.length - 1;
        for (int i = slot(t, mask); ; i = (i + 1) & mask) {
            Owner o = table[i];
            if (o == null || o.thread == t) {
                return o;
            }
        }
    }

    private static int slot(Thread t, int mask) {
        return (int) ((t.threadId() * 0x9E3779B97F4A7C15L) >>> 32) & mask;
    }

    /** The current thread, {@code self}, becomes an owner: a new table without the ended owners, plus its own. */
    private synchronized Owner enrol(Thread self) {
        List<Owner> live = new ArrayList<>();
        for (Owner o : owners) {
            if (o == null) {
                continue;
            }
            if (o.thread.isAlive()) {
                live.add(o);
            } else {
                orphans.add(o.histogram);
            }
        }
        DelayHistogram h = orphans.poll();
        if (h == null) {
            h = new DelayHistogram();
            histograms.add(h);
        }
        Owner mine = new Owner(self, h);
        live.add(mine);
        Owner[] table = new Owner[Math.max(16, Integer.highestOneBit(live.size()) << 2)];
        int mask = table.length - 1;
        for (Owner o : live) {
            int i = slot(o.thread, mask);
            while (table[i] != null) {
                i = (i + 1) & mask;
            }
            table[i] = o;
        }
        owners = table;
        return mine;
    }

    /** Every carrier's histogram merged; any thread, racing with the carriers. */
    public DelayHistogram.Snapshot snapshot() {
        DelayHistogram.Snapshot s = new DelayHistogram.Snapshot();
        for (DelayHistogram h : histograms) {
            h.addTo(s);
        }
        return s;
    }
}
