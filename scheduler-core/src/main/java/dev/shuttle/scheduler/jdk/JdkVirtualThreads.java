package dev.shuttle.scheduler.jdk;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.concurrent.Executor;

/**
 * The few JDK 25 internals Shuttle needs, resolved once, checked at class initialisation, and failing with one
 * message that names the fix.
 *
 * <ul>
 *   <li>{@code ThreadBuilders$VirtualThreadBuilder(Executor)}: a {@link Thread.Builder.OfVirtual} whose threads run
 *       on our executor.</li>
 *   <li>{@code Thread.currentCarrierThread()}: {@code execute} is often called by a mounted virtual thread (an
 *       unpark), where {@link Thread#currentThread()} names the virtual thread; the carrier tells us which run queue
 *       is local.</li>
 *   <li>The virtual thread behind a task: the JDK hands the executor {@code VirtualThread::runContinuation}, a
 *       bound method reference whose one captured field is the thread. Reading the thread's {@code state} tells a
 *       start from a wake-up (close must refuse starts, not wake-ups), a {@code Thread.yield} from an unpark (a
 *       yield goes behind other work), and a finished thread from a parked one.</li>
 * </ul>
 * Method handles and var handles in static finals are constants to the JIT, so each access costs one field load.
 */
public final class JdkVirtualThreads {

    /**
     * The exact JVM flag that opens the JDK's virtual-thread internals to Shuttle: to its module on the module path,
     * to the unnamed module on the class path.
     */
    static final String OPENS_FLAG = "--add-opens java.base/java.lang="
            + (JdkVirtualThreads.class.getModule().isNamed() ? JdkVirtualThreads.class.getModule().getName()
                    : "ALL-UNNAMED");

    private static final Throwable UNAVAILABLE;
    private static final Constructor<?> BUILDER;
    private static final MethodHandle CURRENT_CARRIER;
    private static final Class<?> RUN_CONTINUATION;
    private static final MethodHandle THREAD_OF_TASK;
    private static final VarHandle STATE;
    public static final int STARTED;
    public static final int YIELDED;
    public static final int TERMINATED;

    static {
        Throwable failure = null;
        Constructor<?> builder = null;
        MethodHandle currentCarrier = null;
        Class<?> runContinuation = null;
        MethodHandle threadOfTask = null;
        VarHandle state = null;
        int started = -1;
        int yielded = -1;
        int terminated = -1;
        try {
            Class<?> builderClass = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
            builder = builderClass.getDeclaredConstructor(Executor.class);
            builder.setAccessible(true);

            MethodHandles.Lookup threadLookup = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup());
            currentCarrier = threadLookup.findStatic(Thread.class, "currentCarrierThread",
                    MethodType.methodType(Thread.class));

            Class<?> vthread = Class.forName("java.lang.VirtualThread");
            MethodHandles.Lookup vthreadLookup = MethodHandles.privateLookupIn(vthread, MethodHandles.lookup());
            state = vthreadLookup.findVarHandle(vthread, "state", int.class);
            started = constant(vthread, "STARTED");
            yielded = constant(vthread, "YIELDED");
            terminated = constant(vthread, "TERMINATED");

            // Find the task class and its captured thread on a thread that is never started.
            Thread probe = ((Thread.Builder.OfVirtual) builder.newInstance((Executor) Runnable::run))
                    .unstarted(() -> { });
            Runnable task = (Runnable) vthreadLookup.findGetter(vthread, "runContinuation", Runnable.class)
                    .invoke(probe);
            runContinuation = task.getClass();
            Field captured = capturedThreadField(runContinuation, vthread);
            threadOfTask = MethodHandles.privateLookupIn(runContinuation, MethodHandles.lookup())
                    .unreflectGetter(captured)
                    .asType(MethodType.methodType(Thread.class, Runnable.class));
            if ((Thread) threadOfTask.invokeExact(task) != probe) {
                throw new IllegalStateException("the continuation task does not capture its thread");
            }
        } catch (Throwable e) {
            failure = e;
        }
        UNAVAILABLE = failure;
        BUILDER = builder;
        CURRENT_CARRIER = currentCarrier;
        RUN_CONTINUATION = runContinuation;
        THREAD_OF_TASK = threadOfTask;
        STATE = state;
        STARTED = started;
        YIELDED = yielded;
        TERMINATED = terminated;
    }

    private JdkVirtualThreads() {
    }

    private static int constant(Class<?> owner, String name) throws ReflectiveOperationException {
        Field f = owner.getDeclaredField(name);
        f.setAccessible(true);
        return f.getInt(null);
    }

    private static Field capturedThreadField(Class<?> taskClass, Class<?> vthread) {
        for (Field f : taskClass.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && f.getType() == vthread) {
                return f;
            }
        }
        throw new IllegalStateException(taskClass + " has no captured " + vthread.getName());
    }

    /** Throws the one explanation of why Shuttle cannot run virtual threads in this JVM, if it cannot. */
    public static void requireAvailable() {
        if (UNAVAILABLE == null) {
            return;
        }
        boolean accessDenied = UNAVAILABLE instanceof IllegalAccessException
                || UNAVAILABLE instanceof RuntimeException
                && UNAVAILABLE.getClass().getName().equals("java.lang.reflect.InaccessibleObjectException");
        String why = accessDenied
                ? "java.lang is not open to Shuttle: start the JVM with " + OPENS_FLAG
                        + " (or with -javaagent:scheduler-core.jar, which opens it)"
                : "this JDK's virtual-thread internals are not the JDK 25 ones Shuttle was built against ("
                        + UNAVAILABLE + "); run on JDK 25";
        throw new UnsupportedOperationException("Shuttle cannot schedule virtual threads: " + why, UNAVAILABLE);
    }

    public static Thread.Builder.OfVirtual newBuilder(Executor scheduler) {
        requireAvailable();
        try {
            return (Thread.Builder.OfVirtual) BUILDER.newInstance(scheduler);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create the JDK's virtual thread builder", e);
        }
    }

    /** The platform thread the caller runs on: itself, or the carrier of the virtual thread it is. */
    public static Thread currentCarrier() {
        if (UNAVAILABLE != null) {
            return Thread.currentThread();
        }
        try {
            return (Thread) CURRENT_CARRIER.invokeExact();
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The virtual thread a task submitted by the JDK continues, or null for any other runnable. */
    public static Thread threadOf(Runnable task) {
        if (task.getClass() != RUN_CONTINUATION) {
            return null;
        }
        try {
            return (Thread) THREAD_OF_TASK.invokeExact(task);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public static int state(Thread vthread) {
        return (int) STATE.getAcquire(vthread);
    }
}
