package dev.shuttle.bench.juc;

/** The body of a benchmark thread that waits on a JDK primitive; nothing interrupts these threads. */
@FunctionalInterface
interface Blocking {
    void run() throws InterruptedException;

    /** {@code body} as a {@link Runnable}; an interrupt fails the thread, and so the benchmark. */
    static Runnable task(Blocking body) {
        return () -> {
            try {
                body.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException("nothing interrupts the benchmark's threads", e);
            }
        };
    }
}
