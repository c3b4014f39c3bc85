package dev.shuttle.scheduler.jdk;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * The JDK 25 pollers ({@code sun.nio.ch.Poller}) as the scheduler's {@code Netpoll} drives them: the master poller (on which
 * virtual threads wait for a {@code Selector}), the read and the write sub-pollers. Each is an {@code EPollPoller}
 * with an epoll descriptor of its own, {@code fdVal()}, on which the JDK registers each waiting socket one-shot;
 * {@code poll(0)} collects what is ready without blocking and unparks each waiting thread. Read from the
 * {@code Pollers} object that {@code Poller}'s static initializer hands to {@link PollersTransformer}'s driver; needs
 * {@code sun.nio.ch} open to Shuttle (the scheduler's {@code NetpollInstall} opens it).
 */
public final class JdkPollers {
    static final String POLLER_CLASS = "sun.nio.ch.Poller";
    static final String EPOLL_POLLER_CLASS = "sun.nio.ch.EPollPoller";
    public static final String VTHREAD_POLLERS = "VTHREAD_POLLERS";

    private final Object[] pollers;
    private final int[] descriptors;
    private final MethodHandle poll;

    private JdkPollers(Object[] pollers, int[] descriptors, MethodHandle poll) {
        this.pollers = pollers;
        this.descriptors = descriptors;
        this.poll = poll;
    }

    /**
     * The pollers held by {@code jdkPollers} (a {@code sun.nio.ch.Poller$Pollers}), or null when Shuttle does not
     * drive them: a poller mode other than {@value #VTHREAD_POLLERS} (the JDK's platform poller threads serve, as
     * {@code -Djdk.pollerMode=1} asks), or pollers other than epoll's.
     */
    public static JdkPollers of(Object jdkPollers) throws ReflectiveOperationException {
        Class<?> holder = jdkPollers.getClass();
        Object mode = read(holder, jdkPollers, "pollerMode");
        if (!(mode instanceof Enum<?> e) || !e.name().equals(VTHREAD_POLLERS)) {
            return null;
        }
        List<Object> all = new ArrayList<>();
        all.add(read(holder, jdkPollers, "masterPoller"));
        all.addAll(List.of((Object[]) read(holder, jdkPollers, "readPollers")));
        all.addAll(List.of((Object[]) read(holder, jdkPollers, "writePollers")));
        Class<?> pollerClass = Class.forName(POLLER_CLASS, false, null);
        MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(pollerClass, MethodHandles.lookup());
        MethodHandle fdVal = lookup.findVirtual(pollerClass, "fdVal", MethodType.methodType(int.class))
                .asType(MethodType.methodType(int.class, Object.class));
        MethodHandle poll = lookup.findVirtual(pollerClass, "poll", MethodType.methodType(int.class, int.class))
                .asType(MethodType.methodType(int.class, Object.class, int.class));
        Object[] pollers = all.toArray();
        int[] fds = new int[pollers.length];
        for (int i = 0; i < pollers.length; i++) {
            if (pollers[i] == null || !pollers[i].getClass().getName().equals(EPOLL_POLLER_CLASS)) {
                return null;
            }
            try {
                fds[i] = (int) fdVal.invokeExact(pollers[i]);
            } catch (Throwable t) {
                throw new IllegalStateException("cannot read a JDK poller's descriptor", t);
            }
        }
        return new JdkPollers(pollers, fds, poll);
    }

    private static Object read(Class<?> holder, Object instance, String name) throws ReflectiveOperationException {
        Field f = holder.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(instance);
    }

    /** The epoll descriptor of each poller: the master, the read pollers, the write pollers. */
    public int[] descriptors() {
        return descriptors.clone();
    }

    /** Polls poller {@code index} without blocking; returns how many descriptors it found ready and unparked. */
    public int pollNow(int index) {
        try {
            return (int) poll.invokeExact(pollers[index], 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            // Poller.poll declares IOException: epoll_wait on a descriptor the JDK keeps open does not fail.
            throw new IllegalStateException("a JDK poller failed to poll", e);
        }
    }
}
