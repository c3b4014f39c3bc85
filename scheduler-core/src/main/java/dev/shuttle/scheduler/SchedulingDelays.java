package dev.shuttle.scheduler;

/**
 * Scheduling delay on a Shuttle scheduler (Go's {@code /sched/latencies:seconds}): how long runnable virtual threads
 * wait between being handed to the scheduler and a carrier starting them, sampled one hand-off in
 * {@value HandOffStamps#SAMPLE_PERIOD}. {@link CarrierPool#execute} stamps a sampled hand-off with its kind before it
 * queues the task ({@link #handedOff}); the carrier that picks the task takes the stamp and records the wait in its
 * processor's {@link DelayHistogram}, which only the processor's holder writes ({@link #starting}); readers merge
 * every processor ever created, retired ones included ({@link #snapshot}), so counts survive a resize.
 *
 * <p>Cost on the hot path: per hand-off a thread-local random draw, and for one in eight a clock read and a store;
 * per task started a hash, one load from the stamp table and a plain store of the thread's id into its processor; per
 * sampled task a clock read and two stores to the holder's own histogram. It is off unless asked for (a static final
 * the JIT folds), see {@link #ENABLED}.
 */
final class SchedulingDelays {
    static final String PROPERTY = "shuttle.schedulingDelay";
    /**
     * Whether Shuttle's schedulers measure: only when asked ({@value #PROPERTY}{@code =on}, or the agent's
     * {@code shuttle.measure=true}): the per-hand-off draw and the per-start table lookup make a ping-pong round trip
     * measurably slower (docs/operations.md, "Scheduling delay"), more than a measurement left on may cost.
     * {@link #parseEnabled} has already refused other values when it matters.
     */
    static final boolean ENABLED = "on".equals(System.getProperty(PROPERTY))
            || "true".equals(System.getProperty(JdkSchedulingDelays.PROPERTY));

    private final HandOffStamps stamps = new HandOffStamps();

    /**
     * {@value #PROPERTY}: {@code on} or {@code off} (the default, also when unset).
     *
     * @throws IllegalArgumentException naming the property and the value otherwise
     */
    static boolean parseEnabled(String text) {
        if (text == null || text.equals("off")) {
            return false;
        }
        if (text.equals("on")) {
            return true;
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + text + ": expected on or off");
    }

    /** Any thread, before the task is queued: samples the hand-off of {@code vthread} as {@code kind}. */
    void handedOff(Thread vthread, int kind) {
        if (ENABLED && vthread != null) {
            stamps.stamp(vthread, kind);
        }
    }

    /**
     * The holder of {@code proc}, in phase LOOP, about to run {@code task}: records the wait if the hand-off was
     * sampled, and emits {@link SchedulingDelayEvent} past its threshold.
     */
    void starting(String scheduler, Processor proc, Runnable task) {
        if (!ENABLED) {
            return;
        }
        Thread vthread = JdkVirtualThreads.threadOf(task);
        if (vthread == null) {
            return;
        }
        long previous = proc.lastStartedId;
        proc.lastStartedId = vthread.threadId();
        long word = stamps.take(vthread);
        if (word == 0) {
            return;
        }
        long waited = HandOffStamps.waited(word, System.nanoTime());
        int kind = HandOffStamps.kind(word);
        proc.delays.record(kind, waited);
        if (waited >= SchedulingDelayEvent.minDelayNanos) {
            SchedulingDelayEvent.emit(scheduler, vthread, kind, waited, proc.index, previous);
        }
    }

    /** Every processor's histogram merged, retired processors' included; any thread, racing with the holders. */
    static DelayHistogram.Snapshot snapshot(PoolState state) {
        DelayHistogram.Snapshot s = new DelayHistogram.Snapshot();
        for (Processor p : state.everCreated()) {
            p.delays.addTo(s);
        }
        return s;
    }
}
