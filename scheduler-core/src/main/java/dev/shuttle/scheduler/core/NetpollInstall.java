package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.jdk.JdkPollers;
import dev.shuttle.scheduler.jdk.PollersTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Hands the JDK's pollers to the process-wide scheduler's {@link Netpoll}, for {@code SystemScheduler}: the switch
 * {@value #PROPERTY} ({@code on}, the default, or {@code off}), the checks, and the rewrite of {@code Poller$Pollers}
 * ({@link PollersTransformer}). With {@code on} left to its default, a JVM where Shuttle cannot drive the pollers
 * (not Linux, native access not enabled, {@code -Djdk.pollerMode=1}) keeps the JDK's poller threads without a word;
 * {@code -Dshuttle.netpoll=on} given explicitly makes the same conditions an error, so that a comparison that asked for
 * it does not measure the JDK's pollers by mistake.
 */
public final class NetpollInstall {
    static final String PROPERTY = "shuttle.netpoll";
    private static final System.Logger LOG = System.getLogger("dev.shuttle.scheduler");

    private NetpollInstall() {
    }

    /** Whether {@code value} of {@value #PROPERTY} asks Shuttle to drive the pollers; throws on anything else. */
    static boolean parse(String value) {
        if (value == null || value.equals("on")) {
            return true;
        }
        if (value.equals("off")) {
            return false;
        }
        throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + ": must be on or off");
    }

    /**
     * Arranges for {@code pool} to drive the JDK's pollers once {@code Poller} is initialised. Returns null when done
     * (or when the switch is off, or left on by default where it cannot be), else the line to exit with.
     */
    public static String install(Instrumentation inst, CarrierPool pool) {
        String value = System.getProperty(PROPERTY);
        boolean on;
        try {
            on = parse(value);
        } catch (IllegalArgumentException e) {
            return "shuttle: " + e.getMessage();
        }
        if (!on) {
            return null;
        }
        boolean explicit = value != null;
        String why = EPoll.unavailableReason();
        String pollerMode = System.getProperty("jdk.pollerMode");
        if (why == null && pollerMode != null && !pollerMode.equals("2")
                && !pollerMode.equalsIgnoreCase(JdkPollers.VTHREAD_POLLERS)) {
            why = "-Djdk.pollerMode=" + pollerMode + " asks for the JDK's platform poller threads";
        }
        if (why == null) {
            why = hook(inst, pool);
        }
        return why == null || !explicit ? null : "shuttle: -D" + PROPERTY + "=on: " + why;
    }

    /** Loads {@code Poller$Pollers} under the rewrite and sets its driver; returns null when done, else why not. */
    private static String hook(Instrumentation inst, CarrierPool pool) {
        Module javaBase = Object.class.getModule();
        inst.redefineModule(javaBase, Set.of(), Map.of(),
                Map.of("sun.nio.ch", Set.of(NetpollInstall.class.getModule())), Set.of(), Map.of());
        PollersTransformer transformer = new PollersTransformer();
        inst.addTransformer(transformer);
        Field driver;
        try {
            Class<?> pollers = Class.forName(PollersTransformer.CLASS_NAME, false, null);
            driver = pollers.getDeclaredField(PollersTransformer.FIELD);
        } catch (ReflectiveOperationException e) {
            Throwable failure = transformer.failure();
            return "cannot rewrite " + PollersTransformer.CLASS_NAME + ": " + (failure != null ? failure
                    : "it was loaded before Shuttle's agent ran (did another agent use a socket first?)");
        } finally {
            inst.removeTransformer(transformer);
        }
        Predicate<Object> adopt = jdkPollers -> adopt(pool.netpoll, jdkPollers);
        try {
            driver.setAccessible(true);
            driver.set(null, adopt);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "cannot set " + PollersTransformer.CLASS_NAME + "." + PollersTransformer.FIELD + ": " + e;
        }
        return null;
    }

    /**
     * The driver, called by {@code Poller}'s static initializer: adopts the pollers, or returns false so that the
     * JDK starts its own threads for them. Never throws: that would fail the initialisation of {@code Poller} and with
     * it every socket of the process.
     */
    static boolean adopt(Netpoll netpoll, Object jdkPollers) {
        try {
            JdkPollers pollers = JdkPollers.of(jdkPollers);
            if (pollers == null) {
                return false;
            }
            netpoll.adopt(new Netpoll.Pollers() {
                @Override
                public int[] descriptors() {
                    return pollers.descriptors();
                }

                @Override
                public int pollNow(int index) {
                    return pollers.pollNow(index);
                }
            });
            return true;
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.ERROR, "Shuttle: cannot drive the JDK's pollers; its poller threads serve", e);
            return false;
        }
    }
}
