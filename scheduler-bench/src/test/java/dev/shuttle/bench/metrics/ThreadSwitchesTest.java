package dev.shuttle.bench.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class ThreadSwitchesTest {

    @Test
    void readsBothCountsOfAStatusFile() {
        String status = "Name:\tshuttle-carrier\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t152\n"
                + "nonvoluntary_ctxt_switches:\t7\n";
        assertArrayEquals(new long[] {152, 7}, ThreadSwitches.switchesOf(status));
        assertThrows(IllegalStateException.class, () -> ThreadSwitches.switchesOf("Name:\tx\n"));
    }

    @Test
    void tellsTheRolesApartByKernelName() {
        assertEquals(ThreadSwitches.Role.CARRIER, ThreadSwitches.Role.of("shuttle-carrier"));
        assertEquals(ThreadSwitches.Role.CARRIER, ThreadSwitches.Role.of("ForkJoinPool-1-"));
        assertEquals(ThreadSwitches.Role.OTHER, ThreadSwitches.Role.of("ForkJoinPool.co"), "the common pool");
        assertEquals(ThreadSwitches.Role.POLLER, ThreadSwitches.Role.of("MasterPoller"));
        assertEquals(ThreadSwitches.Role.DISPATCHER, ThreadSwitches.Role.of("HTTP-Dispatcher"));
        assertEquals(ThreadSwitches.Role.OTHER, ThreadSwitches.Role.of("C2 CompilerThre"));
    }

    /** A thread named as a dispatcher that sleeps 20 times blocks 20 times: its role's voluntary count grows so. */
    @Test
    void countsTheSleepsOfALiveThreadUnderItsRole() throws Exception {
        assumeTrue(ThreadSwitches.available(), "Linux only");
        Thread sleeper = Thread.ofPlatform().name("HTTP-Dispatcher-test").unstarted(() -> {
            for (int i = 0; i < 20; i++) {
                LockSupport.parkNanos(1_000_000);
            }
            LockSupport.park();                      // stays alive until the second reading
        });
        ThreadSwitches before = ThreadSwitches.read();
        sleeper.start();
        Thread.sleep(200);
        ThreadSwitches after = ThreadSwitches.read();
        LockSupport.unpark(sleeper);
        sleeper.join();
        long voluntary = after.since(before).of(ThreadSwitches.Role.DISPATCHER).voluntary();
        assertTrue(voluntary >= 20, "20 parks, " + voluntary + " voluntary switches counted");
    }
}
