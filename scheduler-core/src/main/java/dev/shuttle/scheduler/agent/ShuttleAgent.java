package dev.shuttle.scheduler.agent;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The {@code Premain-Class} of the scheduler-core jar: {@code java -javaagent:scheduler-core.jar ...}.
 *
 * <p>This class is compiled for Java 11 (the rest of Shuttle for Java 25) so that on any JDK from 11 on it can check
 * the JDK before anything else loads and stop the JVM with one clear line, instead of a
 * {@code UnsupportedClassVersionError} or an abort. On JDK 25 it hands over, by reflection, to
 * {@code dev.shuttle.scheduler.install.SystemScheduler}, which does the work (see there and docs/design.md, "The agent").
 *
 * <p>Every refusal is one line on standard error starting with {@code shuttle: }, followed by
 * {@code System.exit(1)} before {@code main} runs. (An exception thrown out of {@code premain} would make the JVM
 * abort with a native fatal-error report and exit code 134.)
 *
 * <p><b>Not API.</b> Public only because the JVM calls {@code premain}; applications use the agent through
 * {@code -javaagent:} and {@code ShuttleScheduler.systemDefault()}.
 */
public final class ShuttleAgent {
    /** The one JDK feature release whose internals Shuttle's agent rewrites. */
    static final int SUPPORTED_JDK = 25;

    private ShuttleAgent() {
    }

    /**
     * Entry point for {@code -javaagent}. The agent accepts no arguments: configuration is by system properties.
     *
     * @param agentArgs the text after {@code =} in {@code -javaagent:jar=args}; must be empty
     * @param inst      the JVM's instrumentation
     */
    public static void premain(String agentArgs, Instrumentation inst) {
        int feature = Runtime.version().feature();
        if (feature != SUPPORTED_JDK) {
            refuse("shuttle: -javaagent needs JDK " + SUPPORTED_JDK + ", this JVM is JDK " + feature
                    + " (java.version=" + System.getProperty("java.version") + ", java.home="
                    + System.getProperty("java.home") + ")");
            return;
        }
        String error;
        try {
            Class<?> installer = Class.forName("dev.shuttle.scheduler.install.SystemScheduler", true,
                    ShuttleAgent.class.getClassLoader());
            Method install = installer.getDeclaredMethod("install", String.class, Instrumentation.class);
            install.setAccessible(true);
            error = (String) install.invoke(null, agentArgs, inst);
        } catch (InvocationTargetException e) {
            fail(e.getCause());
            return;
        } catch (ReflectiveOperationException | LinkageError e) {
            fail(e);
            return;
        }
        if (error != null) {
            refuse(error);
        }
    }

    private static void fail(Throwable e) {
        System.err.println("shuttle: the agent failed to start: " + e);
        e.printStackTrace();
        System.err.flush();
        System.exit(1);
    }

    private static void refuse(String line) {
        System.err.println(line);
        System.err.flush();
        System.exit(1);
    }
}
