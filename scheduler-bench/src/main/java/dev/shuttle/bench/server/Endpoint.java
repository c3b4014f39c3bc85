package dev.shuttle.bench.server;

/** What a request to the server under load does, each on its own virtual thread. */
public enum Endpoint {
    /** Answers at once: the cost of the request path itself. */
    HELLO("/hello"),
    /** Sleeps 1 ms: a timed park and its wake-up per request. */
    SLEEP("/sleep"),
    /** 20 µs of CPU under one process-wide {@link java.util.concurrent.locks.ReentrantLock}. */
    LOCK_REENTRANT("/lock/reentrant"),
    /** 20 µs of CPU under one process-wide {@link dev.shuttle.lock.SpinBitLock}. */
    LOCK_SPINBIT("/lock/spinbit"),
    /** Starts 8 virtual threads that each sleep 1 ms, and joins them. */
    FAN_OUT("/fanout"),
    /** Reads a 256 KB file (from the page cache) and answers its length, not its content. */
    FILE("/file");

    private final String path;

    Endpoint(String path) {
        this.path = path;
    }

    public String path() {
        return path;
    }

    /** Whether its requests take a lock, whose wait and hold the server times ({@link LockTimes}). */
    public boolean takesLock() {
        return this == LOCK_REENTRANT || this == LOCK_SPINBIT;
    }

    /**
     * The endpoint served at {@code path}.
     *
     * @throws IllegalArgumentException naming the path and the served ones if there is none
     */
    public static Endpoint ofPath(String path) {
        for (Endpoint e : values()) {
            if (e.path.equals(path)) {
                return e;
            }
        }
        StringBuilder served = new StringBuilder();
        for (Endpoint e : values()) {
            served.append(served.isEmpty() ? "" : ", ").append(e.path);
        }
        throw new IllegalArgumentException("no endpoint " + path + "; the server has " + served);
    }
}
