package dev.shuttle.bench;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The state every scheduler benchmark shares: the {@code scheduler} parameter ({@code jdk} or {@code shuttle}, one
 * carrier per processor on both sides), the scheduler opened for the trial and a factory of its virtual threads.
 * Both schedulers' threads run with the same timer slack ({@link SchedulerSlack}), checked at the end of the trial.
 * The one {@code @Setup} and {@code @TearDown} here call {@link #afterOpen} and {@link #beforeClose}, so a
 * benchmark's own trial steps run in a fixed order around the scheduler's life instead of depending on how JMH
 * orders setup methods across a class hierarchy.
 */
@State(Scope.Benchmark)
public abstract class OnScheduler {
    @Param({Schedulers.JDK, Schedulers.SHUTTLE})
    public String scheduler;

    protected Schedulers schedulers;
    protected VirtualTasks tasks;

    @Setup(Level.Trial)
    public final void openScheduler() throws Exception {
        SchedulerSlack.lowerCurrentThread();
        schedulers = Schedulers.open(scheduler, 0);
        tasks = new VirtualTasks(schedulers.ofVirtual().factory());
        afterOpen();
    }

    @TearDown(Level.Trial)
    public final void closeScheduler() throws Exception {
        try {
            beforeClose();
            SchedulerSlack.requireLowered();
        } finally {
            schedulers.close();
        }
    }

    /** The benchmark's own trial set-up, once the scheduler is open. */
    protected void afterOpen() throws Exception {
    }

    /** The benchmark's own trial tear-down, while the scheduler is still open. */
    protected void beforeClose() throws Exception {
    }
}
