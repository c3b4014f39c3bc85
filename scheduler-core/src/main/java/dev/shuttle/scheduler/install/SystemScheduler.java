package dev.shuttle.scheduler.install;

import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.core.NetpollInstall;
import dev.shuttle.scheduler.core.SchedulerAccess;
import dev.shuttle.scheduler.core.SchedulingDelays;
import dev.shuttle.scheduler.observe.JdkSchedulingDelays;
import dev.shuttle.scheduler.observe.SchedulerStatisticsEvent;
import dev.shuttle.scheduler.observe.SchedulingDelayView;

import dev.shuttle.scheduler.jdk.CarrierHooksTransformer;
import dev.shuttle.scheduler.jdk.DefaultSchedulerTransformer;
import dev.shuttle.scheduler.jdk.DelayHooksTransformer;
import dev.shuttle.scheduler.jdk.JdkVirtualThreads;
import dev.shuttle.scheduler.jdk.ThreadBuildersTransformer;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * The process-wide Shuttle scheduler that the agent installs, and the installation itself.
 *
 * <p>{@code dev.shuttle.scheduler.agent.ShuttleAgent.premain} calls {@link #install} (by reflection: that class is
 * compiled for Java 11 and cannot link against this one). Steps, all before {@code main}:
 * <ol>
 *   <li>Open {@code java.base/java.lang} to the module of Shuttle's classes (the unnamed module of the class loader
 *       that loaded the agent), so the explicit API works without {@code --add-opens}. This is all the agent does
 *       when {@value #IMPL_CLASS_PROPERTY} is not set.</li>
 *   <li>Check the properties: {@value #IMPL_CLASS_PROPERTY} must name {@link ShuttleScheduler} and
 *       {@value #PARALLELISM_PROPERTY}, if set, must be an integer from 1 to
 *       {@value ShuttleScheduler#MAX_PARALLELISM}.</li>
 *   <li>Register {@link ThreadBuildersTransformer}. Rewrite {@code VirtualThread.defaultScheduler()}
 *       ({@link DefaultSchedulerTransformer}) so that the JDK's scheduler MXBean and
 *       {@code jcmd Thread.vthread_scheduler} describe Shuttle once it is installed; a failure here only logs a
 *       warning. This retransformation must come before the next step: it gives the continuation tasks of virtual
 *       threads created afterwards a new class, and Shuttle learns that class there.</li>
 *   <li>Make sure the JDK internals Shuttle uses are there (which loads {@code java.lang.ThreadBuilders}, so it is
 *       rewritten, and starts a probe virtual thread), check that the rewrite took (its new field exists), then
 *       remove the transformer.</li>
 *   <li>Start the scheduler and store its executor in {@code ThreadBuilders.shuttle$defaultScheduler}. From then on
 *       virtual threads created from platform threads without an explicit scheduler run on it.</li>
 *   <li>Unless {@code -D}{@value NetpollInstall#PROPERTY}{@code =off}, hand it the JDK's pollers once the JDK creates
 *       them ({@link NetpollInstall}): its carriers then wait for the network, and no poller thread starts.</li>
 * </ol>
 * Any problem is returned as one line naming the property and its value; the agent prints it and exits.
 */
public final class SystemScheduler {
    /** The OpenJDK loom prototype's property, reused so that the command line carries over. */
    static final String IMPL_CLASS_PROPERTY = "jdk.virtualThreadScheduler.implClass";
    static final String PARALLELISM_PROPERTY = "shuttle.parallelism";
    static final String MAX_CARRIERS_PROPERTY = "shuttle.maxCarriers";
    static final String TIME_SLICE_PROPERTY = "shuttle.timeSlice";

    private SystemScheduler() {
    }

    /**
     * Runs the agent. Returns null when done, or the line to print before exiting with status 1.
     *
     * @param agentArgs the agent's argument string (none are accepted)
     * @param inst      the JVM's instrumentation
     */
    static String install(String agentArgs, Instrumentation inst) {
        if (agentArgs != null && !agentArgs.isEmpty()) {
            return "shuttle: -javaagent:<scheduler-core jar>=" + agentArgs
                    + ": the agent takes no arguments; configure it with -D" + IMPL_CLASS_PROPERTY + " and -D"
                    + PARALLELISM_PROPERTY;
        }
        Module javaBase = Object.class.getModule();
        Module shuttle = SystemScheduler.class.getModule();
        if (!inst.isModifiableModule(javaBase)) {
            return "shuttle: java.base cannot be modified by agents in this JVM, so java.lang cannot be opened to Shuttle";
        }
        inst.redefineModule(javaBase, Set.of(), Map.of(), Map.of("java.lang", Set.of(shuttle)), Set.of(), Map.of());
        String hooks = CarrierHooksTransformer.install(inst);
        if (hooks != null) {
            return "shuttle: " + hooks;
        }

        String measureText = System.getProperty(JdkSchedulingDelays.PROPERTY);
        boolean measure;
        try {
            measure = JdkSchedulingDelays.parseMeasure(measureText);
            SchedulingDelays.parseEnabled(System.getProperty(SchedulingDelays.PROPERTY));
        } catch (IllegalArgumentException e) {
            return "shuttle: " + e.getMessage();
        }
        String implClass = System.getProperty(IMPL_CLASS_PROPERTY);
        if (implClass == null) {
            return measure ? measureJdkDefault(inst) : null;
        }
        String bad = checkImplClass(implClass);
        if (bad != null) {
            return "shuttle: -D" + IMPL_CLASS_PROPERTY + "=" + implClass + ": " + bad;
        }
        String parallelismText = System.getProperty(PARALLELISM_PROPERTY);
        int parallelism;
        try {
            parallelism = parseParallelism(parallelismText);
        } catch (IllegalArgumentException e) {
            return "shuttle: -D" + PARALLELISM_PROPERTY + "=" + parallelismText + ": " + e.getMessage();
        }

        String maxCarriersText = System.getProperty(MAX_CARRIERS_PROPERTY);
        int maxCarriers;
        try {
            maxCarriers = maxCarriersText == null ? Math.max(parallelism, ShuttleScheduler.Builder.DEFAULT_MAX_CARRIERS)
                    : parseMaxCarriers(maxCarriersText, parallelism);
        } catch (IllegalArgumentException e) {
            return "shuttle: -D" + MAX_CARRIERS_PROPERTY + "=" + maxCarriersText + ": " + e.getMessage();
        }
        String timeSliceText = System.getProperty(TIME_SLICE_PROPERTY);
        Duration timeSlice;
        try {
            timeSlice = timeSliceText == null ? null : parseTimeSlice(timeSliceText);
        } catch (IllegalArgumentException e) {
            return "shuttle: -D" + TIME_SLICE_PROPERTY + "=" + timeSliceText + ": " + e.getMessage();
        }

        ThreadBuildersTransformer transformer = new ThreadBuildersTransformer();
        Field defaultScheduler;
        inst.addTransformer(transformer);
        try {
            if (!runsVirtualThreadsOnContinuations()) {
                // Not an error of the user's: the JVM has no scheduler to replace.
                System.err.println("shuttle: warning: this JVM runs virtual threads as platform threads"
                        + " (-XX:-VMContinuations), so there is no scheduler to replace; " + IMPL_CLASS_PROPERTY
                        + " is ignored and scheduling is unchanged");
                return null;
            }
            // Before JdkVirtualThreads learns the class of the JDK's continuation tasks from a probe thread:
            // retransforming VirtualThread re-links its constructor's lambda, so threads created after it carry
            // tasks of a new class, which Shuttle would no longer recognise as virtual threads.
            String report = DefaultSchedulerTransformer.install(inst);
            if (report != null) {
                // Scheduling works without it; only the JDK's scheduler MXBean and jcmd keep describing its pool.
                System.getLogger("dev.shuttle.scheduler").log(System.Logger.Level.WARNING, "Shuttle: " + report
                        + "; the JDK's VirtualThreadSchedulerMXBean keeps describing the JDK's own scheduler");
            }
            try {
                JdkVirtualThreads.requireAvailable();
            } catch (UnsupportedOperationException e) {
                return "shuttle: -D" + IMPL_CLASS_PROPERTY + "=" + implClass + ": " + e.getMessage();
            }
            Class<?> threadBuilders = Class.forName(ThreadBuildersTransformer.CLASS_NAME, true, null);
            defaultScheduler = threadBuilders.getDeclaredField(ThreadBuildersTransformer.FIELD);
        } catch (ReflectiveOperationException e) {
            Throwable why = transformer.failure();
            return "shuttle: -D" + IMPL_CLASS_PROPERTY + "=" + implClass + ": cannot rewrite "
                    + ThreadBuildersTransformer.CLASS_NAME + ": " + (why != null ? why
                    : "it was loaded before Shuttle's agent ran (did another agent start a virtual thread first?"
                            + " put Shuttle's -javaagent first)");
        } finally {
            inst.removeTransformer(transformer);
        }

        ShuttleScheduler scheduler = ShuttleScheduler.builder().name("default").parallelism(parallelism)
                .maxCarriers(maxCarriers).timeSlice(timeSlice).build();
        SchedulerAccess.setSystemDefault(scheduler);
        try {
            defaultScheduler.setAccessible(true);
            defaultScheduler.set(null, SchedulerAccess.poolOf(scheduler));
        } catch (ReflectiveOperationException | RuntimeException e) {
            SchedulerAccess.setSystemDefault(null);
            scheduler.close();
            return "shuttle: -D" + IMPL_CLASS_PROPERTY + "=" + implClass + ": cannot set "
                    + ThreadBuildersTransformer.CLASS_NAME + "." + ThreadBuildersTransformer.FIELD + ": " + e;
        }
        return NetpollInstall.install(inst, SchedulerAccess.poolOf(scheduler));
    }

    /**
     * The JDK-default measuring mode: the JDK's scheduler stays the scheduler, and its threads' scheduling delay is
     * recorded ({@link JdkSchedulingDelays}). Loads {@code ThreadBuilders} under {@link ThreadBuildersTransformer} for
     * its {@code shuttle$delays} field (its {@code shuttle$defaultScheduler} stays null, so thread creation is
     * unchanged), then adds the hooks to {@code VirtualThread} ({@link DelayHooksTransformer}), and only then touches
     * {@link JdkVirtualThreads}, whose probe must see the rewritten class. Returns null when done, else the line to
     * print.
     */
    private static String measureJdkDefault(Instrumentation inst) {
        String flag = "shuttle: -D" + JdkSchedulingDelays.PROPERTY + "=true: ";
        ThreadBuildersTransformer transformer = new ThreadBuildersTransformer();
        Field delaysField;
        inst.addTransformer(transformer);
        try {
            // Creates a virtual thread, so loads ThreadBuilders: after the transformer is in place.
            if (!runsVirtualThreadsOnContinuations()) {
                System.err.println("shuttle: warning: this JVM runs virtual threads as platform threads"
                        + " (-XX:-VMContinuations), so there is no scheduler to measure; "
                        + JdkSchedulingDelays.PROPERTY + " is ignored");
                return null;
            }
            Class<?> threadBuilders = Class.forName(ThreadBuildersTransformer.CLASS_NAME, true, null);
            delaysField = threadBuilders.getDeclaredField(ThreadBuildersTransformer.DELAYS_FIELD);
        } catch (ReflectiveOperationException e) {
            Throwable why = transformer.failure();
            return flag + "cannot rewrite " + ThreadBuildersTransformer.CLASS_NAME + ": " + (why != null ? why
                    : "it was loaded before Shuttle's agent ran (put Shuttle's -javaagent first)");
        } finally {
            inst.removeTransformer(transformer);
        }
        String hooks = DelayHooksTransformer.install(inst);
        if (hooks != null) {
            return flag + hooks;
        }
        try {
            JdkVirtualThreads.requireAvailable();
            JdkSchedulingDelays delays = new JdkSchedulingDelays();
            SchedulingDelayView view = new SchedulingDelayView(JdkSchedulingDelays.NAME, delays::snapshot).register();
            delaysField.setAccessible(true);
            delaysField.set(null, delays);
            SchedulerStatisticsEvent.registerEvents();
            JdkSchedulingDelays.installed = view;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return flag + e.getMessage();
        }
        return null;
    }

    /**
     * {@value #MAX_CARRIERS_PROPERTY}: from {@code parallelism} to {@value ShuttleScheduler#MAX_PARALLELISM}.
     *
     * @throws IllegalArgumentException with a message saying what is wrong
     */
    public static int parseMaxCarriers(String text, int parallelism) {
        String range = "an integer from the parallelism (" + parallelism + ") to " + ShuttleScheduler.MAX_PARALLELISM;
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number; expected " + range);
        }
        if (value < parallelism || value > ShuttleScheduler.MAX_PARALLELISM) {
            throw new IllegalArgumentException("out of range; expected " + range);
        }
        return (int) value;
    }

    /**
     * {@value #TIME_SLICE_PROPERTY}: a whole number with the unit {@code ms} or {@code s} ({@code 10ms}), at least
     * {@link ShuttleScheduler.Builder#MIN_TIME_SLICE}; {@code off} turns it off.
     *
     * @throws IllegalArgumentException with a message saying what is wrong
     */
    public static Duration parseTimeSlice(String text) {
        String t = text.trim();
        if (t.equals("off")) {
            return null;
        }
        String expected = "expected a duration such as 10ms or 1s (at least "
                + ShuttleScheduler.Builder.MIN_TIME_SLICE.toMillis() + "ms), or off";
        int unitAt = t.endsWith("ms") ? t.length() - 2 : t.endsWith("s") ? t.length() - 1 : -1;
        if (unitAt <= 0) {
            throw new IllegalArgumentException("no unit; " + expected);
        }
        long amount;
        try {
            amount = Long.parseLong(t.substring(0, unitAt));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number; " + expected);
        }
        Duration d = t.endsWith("ms") ? Duration.ofMillis(amount) : Duration.ofSeconds(amount);
        if (d.compareTo(ShuttleScheduler.Builder.MIN_TIME_SLICE) < 0) {
            throw new IllegalArgumentException("too short; " + expected);
        }
        return d;
    }

    /**
     * False when the JVM runs with {@code -XX:-VMContinuations}: the JDK then makes every virtual thread a platform
     * thread ({@code ThreadBuilders$BoundVirtualThread}) and uses no scheduler. An unstarted virtual thread tells,
     * and is never started.
     */
    static boolean runsVirtualThreadsOnContinuations() {
        return Thread.ofVirtual().unstarted(() -> { }).getClass().getName().equals("java.lang.VirtualThread");
    }

    /** Null if {@code name} is a scheduler the agent can install, else why not. */
    static String checkImplClass(String name) {
        if (name.isBlank()) {
            return "empty; the agent installs " + ShuttleScheduler.class.getName();
        }
        Class<?> cls;
        try {
            cls = Class.forName(name, false, ClassLoader.getSystemClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return "no such class on the class path; the agent installs " + ShuttleScheduler.class.getName();
        }
        if (cls != ShuttleScheduler.class) {
            String kind = Executor.class.isAssignableFrom(cls) ? "an Executor Shuttle's agent cannot install"
                    : "not a virtual-thread scheduler";
            return kind + "; the only supported value is " + ShuttleScheduler.class.getName();
        }
        return null;
    }

    /**
     * {@value #PARALLELISM_PROPERTY}: null means the number of available processors.
     *
     * @throws IllegalArgumentException with a message saying what is wrong
     */
    static int parseParallelism(String text) {
        if (text == null) {
            return Math.min(Runtime.getRuntime().availableProcessors(), ShuttleScheduler.MAX_PARALLELISM);
        }
        String range = "an integer from 1 to " + ShuttleScheduler.MAX_PARALLELISM;
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number; expected " + range);
        }
        if (value < 1 || value > ShuttleScheduler.MAX_PARALLELISM) {
            throw new IllegalArgumentException("out of range; expected " + range);
        }
        return (int) value;
    }
}
