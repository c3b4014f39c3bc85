package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The monitor wakes a carrier for work that every wake-up path missed for 50 ms and counts it as a rescue
 * ({@link Monitor#rescues()}). A test that runs long enough passes with a lost wake-up, only slower, unless it asks
 * this count: tests that run the scheduler under load end with {@link #assertNone}, or say why a rescue is expected.
 * Public for the tests of other packages that run virtual threads on a {@link ShuttleScheduler} (dev.shuttle.lock's).
 */
public final class Rescues {
    private Rescues() {
    }

    /** Fails if the monitor of {@code shuttle} has rescued a lost wake-up since it started. */
    public static void assertNone(ShuttleScheduler shuttle) {
        assertNone(SchedulerAccess.poolOf(shuttle));
    }

    static void assertNone(CarrierPool pool) {
        assertEquals(0, pool.monitor.rescues(),
                "the monitor rescued work that no carrier was woken for: a wake-up was lost; " + pool);
    }
}
