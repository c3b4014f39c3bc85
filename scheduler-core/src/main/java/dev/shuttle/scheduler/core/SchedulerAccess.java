package dev.shuttle.scheduler.core;

import java.util.function.Function;

/**
 * The exported {@code ShuttleScheduler}'s state that the module's other packages need: the JVM-wide default the agent
 * installed ({@code dev.shuttle.scheduler.install.SystemScheduler} writes it, {@code ShuttleScheduler} reads it), and
 * a scheduler's {@link CarrierPool} (the agent hands it to the JDK; tests inspect it). The JDK's
 * {@code jdk.internal.access} pattern: the API class registers an accessor once, so that neither needs a public
 * method in the exported package. Schedulers are typed {@code Object} because this package names nothing of the
 * exported one, which depends on it.
 */
public final class SchedulerAccess {
    /** The scheduler the agent installed as the JVM's default, or null. */
    private static volatile Object systemDefault;
    /** Set once, by {@code ShuttleScheduler}'s class initializer. */
    private static volatile Function<Object, CarrierPool> pools;

    private SchedulerAccess() {
    }

    /**
     * Records the JVM-wide default scheduler, or clears it with null.
     *
     * @param scheduler a {@code ShuttleScheduler}, or null
     */
    public static void setSystemDefault(Object scheduler) {
        systemDefault = scheduler;
    }

    /**
     * The JVM-wide default scheduler.
     *
     * @return the {@code ShuttleScheduler} the agent installed, or null
     */
    public static Object systemDefault() {
        return systemDefault;
    }

    /**
     * Registers how to read a scheduler's pool; called once by {@code ShuttleScheduler}.
     *
     * @param accessor from a {@code ShuttleScheduler} to its pool
     */
    public static void poolsAre(Function<Object, CarrierPool> accessor) {
        pools = accessor;
    }

    /**
     * A scheduler's carrier pool.
     *
     * @param scheduler a {@code ShuttleScheduler}
     * @return its pool
     */
    public static CarrierPool poolOf(Object scheduler) {
        return pools.apply(scheduler);
    }
}
