package dev.shuttle.scheduler.core;


import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

/**
 * Scheduling delay on a Shuttle scheduler (Go's {@code /sched/latencies:seconds}): how long runnable virtual threads
 * wait between being handed to the scheduler and a carrier starting them, sampled one hand-off in
 * {@value HandOffStamps#SAMPLE_PERIOD} on average. {@link CarrierPool#execute} lets the submitting carrier's
 * {@link HandOffStamps} decide, and queues a stamp in place of a sampled task ({@link #handedOff}); the carrier that
 * dequeues a stamp unwraps it and records the wait in its processor's {@link DelayHistogram}, which only the
 * processor's holder writes ({@link #starting}); readers merge every processor ever created, retired ones included
 * ({@link #snapshot}), so counts survive a resize.
 *
 * <p>Cost on the hot path: per hand-off a decrement and compare of a field of the submitting carrier; per task
 * started a class check of the dequeued task, and a plain store of the thread's id into its processor; per sampled
 * hand-off two clock reads, a handful of stores to a stamp the submitting carrier owns and to the starting holder's
 * own histogram, and one release store. Nothing shared is read or written for an unsampled task, and nothing is
 * allocated once a carrier's stamps exist. {@value #PROPERTY}{@code =off} turns it off (a static final the JIT folds).
 */
public final class SchedulingDelays {
    public static final String PROPERTY = "shuttle.schedulingDelay";
    /** The agent's switch that also measures the JDK's own scheduler ({@code JdkSchedulingDelays} reads it). */
    public static final String MEASURE_PROPERTY = "shuttle.measure";
    /**
     * Whether Shuttle's schedulers measure: unless {@value #PROPERTY}{@code =off} says not to (the agent's
     * {@code shuttle.measure=true} measures all the same). An unsampled hand-off and start cost a decrement and a type
     * check, so the measurement is on unless asked otherwise. {@link #parseEnabled} has already refused other values
     * when it matters.
     */
    static final boolean ENABLED = !"off".equals(System.getProperty(PROPERTY))
            || "true".equals(System.getProperty(MEASURE_PROPERTY));

    /**
     * {@value #PROPERTY}: {@code on} (the default, also when unset) or {@code off}.
     *
     * @throws IllegalArgumentException naming the property and the value otherwise
     */
    public static boolean parseEnabled(String text) {
        if (text == null || text.equals("on")) {
            return true;
        }
        if (text.equals("off")) {
            return false;
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + text + ": expected on or off");
    }

    /**
     * Any thread, before it queues {@code task}, the continuation of {@code vthread} (null if it is not a virtual
     * thread's): what to queue, the task or a stamp of its hand-off as {@code kind}. {@code owned} is the submitting
     * carrier's stamps, null on any other thread.
     */
    static Runnable handedOff(HandOffStamps owned, Runnable task, Thread vthread, int kind) {
        if (!ENABLED || vthread == null) {
            return task;
        }
        return owned != null ? owned.stamp(task, kind) : HandOffStamps.stampForeign(task, kind);
    }

    /**
     * The holder of {@code proc}, in phase LOOP, about to run {@code queued} as it came out of a queue: the task to
     * run. Records the wait if the hand-off was sampled, and emits {@link SchedulingDelayEvent} past its threshold.
     */
    static Runnable starting(String scheduler, Processor proc, Runnable queued) {
        if (!ENABLED) {
            return queued;
        }
        Runnable task = queued;
        long word = 0;
        if (queued instanceof HandOffStamps.Stamp stamp) {
            task = stamp.task();
            word = stamp.take();
        }
        Thread vthread = JdkVirtualThreads.threadOf(task);
        if (vthread == null) {
            return task;
        }
        long previous = proc.lastStartedId;
        proc.lastStartedId = vthread.threadId();
        if (task == queued) {
            return task;
        }
        long waited = HandOffStamps.waited(word, System.nanoTime());
        int kind = HandOffStamps.kind(word);
        proc.delays.record(kind, waited);
        if (waited >= SchedulingDelayEvent.minDelayNanos) {
            SchedulingDelayEvent.emit(scheduler, vthread, kind, waited, proc.index, previous);
        }
        return task;
    }

    /** Every processor's histogram merged, retired processors' included; any thread, racing with the holders. */
    public static DelayHistogram.Snapshot snapshot(PoolState state) {
        DelayHistogram.Snapshot s = new DelayHistogram.Snapshot();
        for (Processor p : state.everCreated()) {
            p.delays.addTo(s);
        }
        return s;
    }
}
