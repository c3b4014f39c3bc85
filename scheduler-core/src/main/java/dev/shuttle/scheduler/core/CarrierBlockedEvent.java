package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.jdk.JdkVirtualThreads;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The monitor handed a processor away from a carrier stuck in the kernel (or in a call the JDK marks as blocking).
 * Built only when enabled: the stack walk is the expensive part.
 */
@Name("dev.shuttle.CarrierBlocked")
@Label("Carrier Blocked")
@Category("Shuttle")
@Description("A carrier thread was stuck in a blocking call while work waited; its processor went to another carrier")
@StackTrace(false)
public final class CarrierBlockedEvent extends jdk.jfr.Event {
    /** Frames of the virtual thread's stack kept in {@link #stack}: enough to reach the caller of a JDK read. */
    static final int STACK_FRAMES = 16;

    @Label("Scheduler")
    String scheduler;

    @Label("Carrier")
    String carrier;

    @Label("Virtual Thread")
    @Description("The virtual thread the carrier was running; null if it had just unmounted")
    Thread virtualThread;

    @Label("Blocked For")
    @Description("How long the processor's tick had stood still with work waiting")
    @Timespan(Timespan.NANOSECONDS)
    long blockedFor;

    @Label("Marked Blocking")
    @Description("True if the call was one the JDK marks as blocking (jdk.internal.misc.Blocker), false if the"
            + " monitor saw the carrier off the CPU")
    boolean marked;

    @Label("Stack")
    @Description("Top frames of the virtual thread's stack: the blocking call")
    String stack;

    /** The monitor, after a hand-off from {@code carrier}: records it if the event is enabled. */
    static void emit(String scheduler, CarrierThread carrier, long blockedFor, boolean marked) {
        CarrierBlockedEvent e = new CarrierBlockedEvent();
        if (!e.isEnabled()) {
            return;
        }
        Thread vthread = runningOn(carrier);
        e.scheduler = scheduler;
        e.carrier = carrier == null ? null : carrier.getName();
        e.virtualThread = vthread;
        e.blockedFor = blockedFor;
        e.marked = marked;
        e.stack = topFrames(vthread);
        e.commit();
    }

    /** The virtual thread {@code carrier} runs, or null: between tasks, or if its task is not a virtual thread's. */
    static Thread runningOn(CarrierThread carrier) {
        Runnable task = carrier == null ? null : carrier.currentTask();
        return task == null ? null : JdkVirtualThreads.threadOf(task);
    }

    /** The first {@link #STACK_FRAMES} frames of {@code thread}'s stack, one per line; null for no thread. */
    static String topFrames(Thread thread) {
        if (thread == null) {
            return null;
        }
        StackTraceElement[] frames = thread.getStackTrace();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(frames.length, STACK_FRAMES); i++) {
            b.append(frames[i]).append('\n');
        }
        if (frames.length > STACK_FRAMES) {
            b.append("... ").append(frames.length - STACK_FRAMES).append(" more\n");
        }
        return b.toString();
    }
}
