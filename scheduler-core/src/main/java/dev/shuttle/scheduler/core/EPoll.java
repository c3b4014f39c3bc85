package dev.shuttle.scheduler.core;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * Linux's epoll and eventfd, called through the foreign-function API: the system calls {@link Netpoll} sleeps and is
 * woken in. Written here because none of the project's libraries (JCTools, Agrona) wraps epoll, and the JDK's
 * {@code sun.nio.ch.EPoll} waits with a millisecond timeout only, too coarse for a carrier that also sleeps toward a
 * timer deadline; {@code epoll_pwait2} takes nanoseconds.
 *
 * <p>Each waiting thread brings its own {@link Buffer} (the events array and the timeout), so waits on one epoll set
 * from several threads share no memory. Available only on Linux with native access enabled for Shuttle, as
 * {@link TimerSlack} explains; {@link #available()} says which.
 */
final class EPoll {
    static final int EPOLLIN = 0x001;
    private static final int EPOLL_CTL_ADD = 1;
    private static final int EPOLL_CLOEXEC = 0x80000;
    private static final int EFD_CLOEXEC = 0x80000;
    private static final int EFD_NONBLOCK = 0x800;
    private static final int EINTR = 4;

    /** {@code struct epoll_event}: packed on x86-64 (12 bytes), naturally aligned elsewhere (16). */
    private static final StructLayout EVENT = isX86()
            ? MemoryLayout.structLayout(ValueLayout.JAVA_INT.withName("events"),
                    ValueLayout.JAVA_LONG_UNALIGNED.withName("data"))
            : MemoryLayout.structLayout(ValueLayout.JAVA_INT.withName("events"), MemoryLayout.paddingLayout(4),
                    ValueLayout.JAVA_LONG.withName("data"));
    private static final long DATA_OFFSET = EVENT.byteOffset(MemoryLayout.PathElement.groupElement("data"));
    private static final StructLayout TIMESPEC = MemoryLayout.structLayout(ValueLayout.JAVA_LONG.withName("tv_sec"),
            ValueLayout.JAVA_LONG.withName("tv_nsec"));
    private static final StructLayout ERRNO = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO_VALUE = ERRNO.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final Calls CALLS = Calls.link();

    private EPoll() {
    }

    /** Whether epoll can be used from here: Linux, native access enabled for Shuttle, the calls found. */
    static boolean available() {
        return CALLS != null;
    }

    /** Why not, for an error message; null when {@link #available()}. */
    static String unavailableReason() {
        if (CALLS != null) {
            return null;
        }
        if (!isLinux()) {
            return "epoll needs Linux (os.name=" + System.getProperty("os.name") + ")";
        }
        if (!EPoll.class.getModule().isNativeAccessEnabled()) {
            return "native access is not enabled for Shuttle (add --enable-native-access=ALL-UNNAMED)";
        }
        return "the C library lacks epoll_create1, epoll_ctl, epoll_pwait2 or eventfd";
    }

    /** A new epoll set, close-on-exec. */
    static int create() {
        return check("epoll_create1", call(CALLS.create, EPOLL_CLOEXEC));
    }

    /** Adds {@code fd} to {@code epfd} for {@code events}, level-triggered, with {@code data} as its tag. */
    static void add(int epfd, int fd, int events, long data) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment event = arena.allocate(EVENT);
            event.set(ValueLayout.JAVA_INT, 0, events);
            event.set(ValueLayout.JAVA_LONG_UNALIGNED, DATA_OFFSET, data);
            check("epoll_ctl", (int) CALLS.ctl.invokeExact(epfd, EPOLL_CTL_ADD, fd, event));
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** A new eventfd, non-blocking and close-on-exec: written to wake a waiter, read to re-arm. */
    static int eventFd() {
        return check("eventfd", call(CALLS.eventfd, 0, EFD_CLOEXEC | EFD_NONBLOCK));
    }

    /** Makes {@code efd} readable (adds one to its counter); a no-op if it already is. */
    static void signal(int efd, Buffer buffer) {
        buffer.word.set(ValueLayout.JAVA_LONG, 0, 1L);
        try {
            long ignored = (long) CALLS.write.invokeExact(efd, buffer.word, 8L);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads {@code efd}'s counter back to zero, so it is no longer readable. */
    static void drain(int efd, Buffer buffer) {
        try {
            long ignored = (long) CALLS.read.invokeExact(efd, buffer.word, 8L);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Waits on {@code epfd} up to {@code timeoutNanos} (negative: without a timeout, 0: not at all) and returns the
     * number of ready descriptors, whose tags {@link Buffer#data} then gives; 0 when the timeout passed or a signal
     * interrupted the wait.
     */
    static int wait(int epfd, Buffer buffer, long timeoutNanos) {
        MemorySegment timeout = MemorySegment.NULL;
        if (timeoutNanos >= 0) {
            timeout = buffer.timespec;
            timeout.set(ValueLayout.JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
            timeout.set(ValueLayout.JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
        }
        int n;
        try {
            n = (int) CALLS.pwait2.invokeExact(buffer.errno, epfd, buffer.events, buffer.capacity, timeout,
                    MemorySegment.NULL);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (n < 0) {
            int errno = (int) ERRNO_VALUE.get(buffer.errno, 0L);
            if (errno == EINTR) {
                return 0;
            }
            throw new IllegalStateException("epoll_pwait2 failed: errno " + errno);
        }
        return n;
    }

    /**
     * One waiting thread's memory: the events array, the timeout, a word for eventfd and the captured errno. Lives as
     * long as the thread that allocated it can reach it (an automatic arena).
     */
    static final class Buffer {
        final int capacity;
        private final MemorySegment events;
        private final MemorySegment timespec;
        private final MemorySegment word;
        private final MemorySegment errno;

        Buffer(int capacity) {
            Arena arena = Arena.ofAuto();
            this.capacity = capacity;
            this.events = arena.allocate(EVENT, capacity);
            this.timespec = arena.allocate(TIMESPEC);
            this.word = arena.allocate(ValueLayout.JAVA_LONG);
            this.errno = arena.allocate(ERRNO);
        }

        /** The tag of the {@code i}th ready descriptor of the last {@link #wait}. */
        long data(int i) {
            return events.get(ValueLayout.JAVA_LONG_UNALIGNED, i * EVENT.byteSize() + DATA_OFFSET);
        }
    }

    private static int call(MethodHandle handle, int a) {
        try {
            return (int) handle.invokeExact(a);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static int call(MethodHandle handle, int a, int b) {
        try {
            return (int) handle.invokeExact(a, b);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static int check(String what, int result) {
        if (result < 0) {
            throw new IllegalStateException(what + " failed");
        }
        return result;
    }

    private static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }

    private static boolean isX86() {
        String arch = System.getProperty("os.arch", "");
        return arch.equals("amd64") || arch.equals("x86_64");
    }

    /** The linked calls; null where they cannot be linked. */
    private record Calls(MethodHandle create, MethodHandle ctl, MethodHandle pwait2, MethodHandle eventfd,
            MethodHandle read, MethodHandle write) {

        static Calls link() {
            if (!isLinux() || !EPoll.class.getModule().isNativeAccessEnabled()) {
                return null;
            }
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                ValueLayout i = ValueLayout.JAVA_INT;
                ValueLayout l = ValueLayout.JAVA_LONG;
                ValueLayout a = ValueLayout.ADDRESS;
                return new Calls(
                        linker.downcallHandle(libc.find("epoll_create1").orElseThrow(), FunctionDescriptor.of(i, i)),
                        linker.downcallHandle(libc.find("epoll_ctl").orElseThrow(),
                                FunctionDescriptor.of(i, i, i, i, a)),
                        linker.downcallHandle(libc.find("epoll_pwait2").orElseThrow(),
                                FunctionDescriptor.of(i, i, a, i, a, a), Linker.Option.captureCallState("errno")),
                        linker.downcallHandle(libc.find("eventfd").orElseThrow(), FunctionDescriptor.of(i, i, i)),
                        linker.downcallHandle(libc.find("read").orElseThrow(), FunctionDescriptor.of(l, i, a, l)),
                        linker.downcallHandle(libc.find("write").orElseThrow(), FunctionDescriptor.of(l, i, a, l)));
            } catch (RuntimeException e) {
                return null;
            }
        }
    }
}
