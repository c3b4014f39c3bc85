package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;

class TimedLockTest {
    private static final long HOLD = TimeUnit.MICROSECONDS.toNanos(20);
    // Far above any stall of the holder's carrier a loaded 2-core CI machine shows, so the hold stays below it.
    private static final long HELD_ELSEWHERE = TimeUnit.MILLISECONDS.toNanos(500);

    /**
     * A request that finds the lock held waits until it is released: its wait covers that, its hold only its own spin;
     * and each interval holds only what came since the previous one.
     */
    @Test
    void timesTheWaitForTheLockApartFromTheHoldAndResetsEachInterval() throws InterruptedException {
        ReentrantLock lock = new ReentrantLock();
        TimedLock timed = new TimedLock(lock);
        timed.spinUnder(HOLD);
        assertEquals(1, timed.interval().waits().count());

        lock.lock();
        Thread request;
        try {
            request = Thread.ofVirtual().start(() -> timed.spinUnder(HOLD));
            while (!lock.hasQueuedThread(request)) {
                Thread.onSpinWait();
            }
            Thread.sleep(TimeUnit.NANOSECONDS.toMillis(HELD_ELSEWHERE));
        } finally {
            lock.unlock();
        }
        request.join();
        LockTimes times = timed.interval();
        assertEquals(1, times.waits().count(), "the interval before was reset");
        assertEquals(1, times.holds().count());
        assertTrue(times.waits().max() >= HELD_ELSEWHERE, times.toString());
        assertTrue(times.holds().max() >= HOLD && times.holds().max() < HELD_ELSEWHERE, times.toString());
        assertEquals(0, timed.interval().holds().count());
    }
}
