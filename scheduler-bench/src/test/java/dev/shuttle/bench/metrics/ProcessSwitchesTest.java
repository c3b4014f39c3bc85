package dev.shuttle.bench.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class ProcessSwitchesTest {
    private static ThreadSwitches.Counts counts(long voluntary, long involuntary) {
        return new ThreadSwitches.Counts(voluntary, involuntary);
    }

    /**
     * Thread 1 lives through both readings, 2 ends between them, 3 starts between them and 4's id is reused by a
     * new thread: 1 counts its growth, 2 nothing, 3 and the new 4 all of theirs.
     */
    @Test
    void aDifferenceCountsTheThreadsAliveAtTheEndEachFromItsStart() {
        ProcessSwitches before = new ProcessSwitches(Map.of(1L, counts(100, 10), 2L, counts(500, 50),
                4L, counts(70, 7)));
        ProcessSwitches after = new ProcessSwitches(Map.of(1L, counts(130, 12), 3L, counts(20, 1),
                4L, counts(5, 0)));
        assertEquals(counts(30 + 20 + 5, 2 + 1), after.since(before));
    }

    /** This process's own threads, read from outside as the benchmark reads a server's: 20 parks, 20 blocks. */
    @Test
    void readsTheThreadsOfAProcessById() throws Exception {
        assumeTrue(ThreadSwitches.available(), "Linux only");
        long pid = ProcessHandle.current().pid();
        ProcessSwitches before = ProcessSwitches.of(pid);
        Thread parker = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 20; i++) {
                LockSupport.parkNanos(1_000_000);
            }
            LockSupport.park();                      // alive until the second reading
        });
        Thread.sleep(200);
        ThreadSwitches.Counts during = ProcessSwitches.of(pid).since(before);
        LockSupport.unpark(parker);
        parker.join();
        assertTrue(during.voluntary() >= 20, during + " for 20 parks");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ProcessSwitches.of(-1));
        assertTrue(e.getMessage().startsWith("cannot read /proc/-1/task"), e.getMessage());
    }
}
