package dev.shuttle.bench.server;

import java.util.List;

/**
 * Where a CPU sample of the server's Java code belongs, by the topmost frame on its stack whose class lies in one of
 * these areas: a sample in {@code Unsafe.compareAndSetInt} called by the spin-bit lock is the lock's, one in
 * {@code System.nanoTime} called by the handler's spin is the spin's. Frames of classes in no area (the JDK's
 * collections, strings, reflection) are passed over for the frame below; a stack with none in any area is
 * {@link #OTHER}. The areas are checked in their declared order for each frame, so {@code LockSupport}, which parks
 * and unparks threads for the scheduler, is the scheduler's although it lives in the locks package.
 */
enum CodeArea {
    /** The handler's 20 µs of CPU under a lock endpoint's lock: work both schedulers do alike. */
    HANDLER_SPIN("the lock endpoints' 20 µs spin", List.of("dev.shuttle.bench.metrics.Spin")),
    /** Running, parking, waking and moving virtual threads: the scheduler's own work. */
    SCHEDULER("scheduler: virtual-thread mount, park, wake-up, queues, search", List.of("dev.shuttle.scheduler.",
            "java.util.concurrent.ForkJoin", "java.lang.VirtualThread", "jdk.internal.vm.Continuation",
            "java.util.concurrent.locks.LockSupport", "jdk.internal.misc.CarrierThread")),
    /** Taking and releasing locks, and their waiters' queues. */
    LOCK("locks: acquire, release, waiter queues", List.of("dev.shuttle.lock.", "java.util.concurrent.locks.")),
    /** The benchmark's handlers and their timing. */
    BENCHMARK("the benchmark's handlers and timing", List.of("dev.shuttle.bench.")),
    /** Parsing requests and writing responses. */
    HTTP_SERVER("HTTP server (Helidon, com.sun.net.httpserver)", List.of("io.helidon.", "com.sun.net.httpserver.",
            "sun.net.httpserver.")),
    /** Socket and file I/O and the JDK's I/O pollers. */
    IO("sockets, files, the JDK's I/O pollers", List.of("sun.nio.", "java.nio.", "java.io.", "java.net.",
            "jdk.internal.misc.Blocker")),
    /** A stack with no frame in any area above. */
    OTHER("other Java code", List.of());

    private final String description;
    private final List<String> classPrefixes;

    CodeArea(String description, List<String> classPrefixes) {
        this.description = description;
        this.classPrefixes = classPrefixes;
    }

    String description() {
        return description;
    }

    /** The area of a sample whose stack holds frames of {@code classNamesTopFirst}, innermost first. */
    static CodeArea of(List<String> classNamesTopFirst) {
        for (String className : classNamesTopFirst) {
            for (CodeArea area : values()) {
                for (String prefix : area.classPrefixes) {
                    if (className.startsWith(prefix)) {
                        return area;
                    }
                }
            }
        }
        return OTHER;
    }
}
