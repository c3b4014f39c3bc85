package dev.shuttle.lock;

import dev.shuttle.scheduler.core.Rescues;
import dev.shuttle.scheduler.ShuttleScheduler;

/**
 * The carriers a lock test's virtual threads run on. The lock parks and unparks through {@code LockSupport} whatever
 * the scheduler, but what a lost unpark or a timed park costs is the scheduler's: on the JDK's default pool a timed
 * wait is fired by the JDK's timer threads, on Shuttle by the carriers' own timer heaps, and a wake-up Shuttle lost
 * would be repaired by its monitor after 50 ms, so the test would pass, only slower. Users run the lock on Shuttle's
 * carriers (Shuttle as the JVM-wide scheduler), so the contention tests run on both ({@code @EnumSource(Kind.class)}),
 * and a Shuttle run ends by asserting that the monitor rescued nothing.
 *
 * <p>One per test invocation: {@link #open} once, {@link #close} from {@code @AfterEach}, after the test joined its
 * threads.
 */
final class VirtualCarriers implements AutoCloseable {
    enum Kind {
        /** The JDK's default scheduler ({@code Thread.ofVirtual()}), a {@code ForkJoinPool}. */
        JDK_DEFAULT,
        /** A {@link ShuttleScheduler} of the default size, built for the test and closed after it. */
        SHUTTLE
    }

    private ShuttleScheduler shuttle;

    /** A builder of virtual threads on {@code kind}'s carriers. */
    Thread.Builder.OfVirtual open(Kind kind) {
        if (shuttle != null) {
            throw new IllegalStateException("already open");
        }
        if (kind == Kind.JDK_DEFAULT) {
            return Thread.ofVirtual();
        }
        shuttle = ShuttleScheduler.builder().name("lock-test").build();
        return shuttle.ofVirtual();
    }

    /** On Shuttle: fails if the monitor rescued a lost wake-up, then closes the scheduler (joining its threads). */
    @Override
    public void close() {
        if (shuttle == null) {
            return;
        }
        try {
            Rescues.assertNone(shuttle);
        } finally {
            shuttle.close();
            shuttle = null;
        }
    }
}
