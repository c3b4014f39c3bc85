package dev.shuttle.scheduler;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ObjIntConsumer;

/**
 * Scheduling delay on the JDK's own scheduler, the JDK-default measuring mode ({@code -Dshuttle.measure=true} with the
 * agent and no {@code jdk.virtualThreadScheduler.implClass}). {@link DelayHooksTransformer} makes
 * {@code VirtualThread} call {@link #accept} with {@link #HAND_OFF} just before it hands a thread of the default
 * scheduler to the pool, and with {@link #STARTING} as a carrier enters {@code runContinuation}, before it mounts the
 * thread. The stamps wait in a table keyed by the thread ({@link StampTable}), since the task the JDK queues must stay
 * its own; the histograms are one per JDK carrier thread, written by that thread only and merged on read, as
 * Shuttle's are per processor.
 *
 * <p>A carrier finds its histogram through a {@link ThreadLocal} of its own, on sampled starts only. A carrier thread
 * that ended leaves its histogram behind, and the next new carrier adopts it (the ended thread's writes happen before
 * {@link Thread#isAlive()} reads false), so the list stays as long as the most carriers alive at once and no count
 * is lost. On this scheduler a timer's wake-up is a {@code wake}: the pool's delay scheduler hands it to a carrier,
 * which unparks the thread like any other unpark.
 */
final class JdkSchedulingDelays implements ObjIntConsumer<Thread> {
    static final String PROPERTY = "shuttle.measure";
    static final String NAME = "jdk-default";
    static final int HAND_OFF = 0;
    static final int STARTING = 1;

    /** The measuring mode's bean, once the agent installed it; read by the periodic statistics event. */
    static volatile SchedulingDelayView installed;

    private final StampTable stamps = new StampTable();
    private final List<Owner> owners = new CopyOnWriteArrayList<>();
    private final ThreadLocal<DelayHistogram> mine = ThreadLocal.withInitial(this::adopt);

    private static final class Owner {
        final DelayHistogram histogram = new DelayHistogram();
        Thread thread;

        Owner(Thread thread) {
            this.thread = thread;
        }
    }

    /**
     * {@value #PROPERTY}: {@code true} or {@code false}; null (unset) is false.
     *
     * @throws IllegalArgumentException naming the property and the value otherwise
     */
    static boolean parseMeasure(String text) {
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
        if (op == HAND_OFF) {
            int s = JdkVirtualThreads.state(vthread);
            stamps.stamp(vthread, s == JdkVirtualThreads.STARTED ? HandOffStamps.START
                    : s == JdkVirtualThreads.YIELDED ? HandOffStamps.YIELD : HandOffStamps.WAKE);
            return;
        }
        long word = stamps.take(vthread);
        if (word == 0) {
            return;
        }
        long waited = HandOffStamps.waited(word, System.nanoTime());
        int kind = HandOffStamps.kind(word);
        mine.get().record(kind, waited);
        if (waited >= SchedulingDelayEvent.minDelayNanos) {
            SchedulingDelayEvent.emit(NAME, vthread, kind, waited, -1, -1);
        }
    }

    private synchronized DelayHistogram adopt() {
        Thread self = Thread.currentThread();
        for (Owner o : owners) {
            if (!o.thread.isAlive()) {
                o.thread = self;
                return o.histogram;
            }
        }
        Owner o = new Owner(self);
        owners.add(o);
        return o.histogram;
    }

    /** Every carrier's histogram merged; any thread, racing with the carriers. */
    DelayHistogram.Snapshot snapshot() {
        DelayHistogram.Snapshot s = new DelayHistogram.Snapshot();
        for (Owner o : owners) {
            o.histogram.addTo(s);
        }
        return s;
    }
}
