package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * When a parking carrier times its park ({@code Carrier.prepareToPark} sets {@code Processor.parkedAt}): only when the
 * wake that ends it can teach the {@link SearchBackoff} something, that is below the full budget and once a full
 * search was timed ({@code Processor.fullSearchNanos > 0}). Before that, no wake can count as sooner than a full
 * search, and the park reads no clock. The search's half of the timing is in {@link SearchBackoffTest}.
 */
class ParkTimingTest {

    @Test
    void aParkIsTimedOnlyBelowTheFullBudgetAndOnceAFullSearchWasTimed() {
        CarrierPool pool = new CarrierPool(1, new SpinPolicy(2, 1_000L));
        Processor proc = pool.state.processors[0];
        Carrier carrier = pool.newCarrier(Thread.currentThread().getThreadGroup(), 0, proc);

        assertTrue(parks(pool, carrier), "an empty pool: the carrier must be about to sleep");
        assertEquals(0L, proc.parkedAt, "at the full budget a wake teaches nothing");

        proc.backoff.contended();                 // below the full budget before any full search was timed
        assertEquals(0L, proc.fullSearchNanos);
        assertTrue(parks(pool, carrier));
        assertEquals(0L, proc.parkedAt, "no full search timed yet: no wake can be sooner than one, nothing to time");

        proc.fullSearchNanos = 1_000_000L;
        assertTrue(parks(pool, carrier));
        assertNotEquals(0L, proc.parkedAt, "below the full budget after a timed search: the park is timed");
    }

    /** One {@code prepareToPark} of a carrier that is not running, then its idle bit cleared as a waker would. */
    private static boolean parks(CarrierPool pool, Carrier carrier) {
        boolean sleeps = carrier.prepareToPark();
        pool.state.idle.tryRemove(carrier.p.index);
        return sleeps;
    }
}
