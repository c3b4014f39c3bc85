package dev.shuttle.scheduler.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code PoolState.wakingSearchers}, the searchers a waker promised that are not yet up: each wake-up that clears an
 * idle bit counts one, and the woken carrier uncounts it when it gets up, so once every carrier is parked again the
 * count is zero. A count that drifted up would make waiters park for a searcher that is up; one that drifted down, spin
 * for one that is not ({@code Carrier.test}).
 */
class WakingSearchersTest {

    @Test
    void everyWokenCarrierIsUncountedOnceItIsUp() throws InterruptedException {
        CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        pool.start();
        try {
            for (int round = 0; round < 300; round++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertTrue(ran.await(20, TimeUnit.SECONDS), "a task submitted from outside never ran");
                if (round % 3 == 0) {
                    // Parked carriers make the next submission wake one; the others land while carriers are up.
                    PoolQuiet.await(pool.state);
                }
            }
            PoolQuiet.await(pool.state);
            long wakeUps = 0;
            for (Processor proc : pool.state.processors) {
                wakeUps += proc.wakeUps;
            }
            assertTrue(wakeUps > 0, "no carrier was ever woken, so nothing was tested");
            Rescues.assertNone(pool);
        } finally {
            pool.stop();
            pool.joinCarriers();
        }
    }
}
