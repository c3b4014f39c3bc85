package dev.shuttle.lock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** The spinning bit's invariant with more threads than jcstress can run on two CPUs. */
class SpinRoleTest {
    /** Where the parameterized tests' virtual threads run (VirtualCarriers). */
    private final VirtualCarriers carriers = new VirtualCarriers();

    @AfterEach
    void closeCarriers() {
        carriers.close();
    }

    /** A plain mutex on the synchronizer that counts concurrent holders of the spin role. */
    static final class CountingMutex extends SpinBitSynchronizer {
        final AtomicInteger spinners = new AtomicInteger();
        final AtomicInteger maxSpinners = new AtomicInteger();
        final AtomicInteger roleTakes = new AtomicInteger();

        @Override
        protected int tryAcquireBits(int bits) {
            return bits == 0 ? 1 : FAILED;
        }

        @Override
        protected boolean isHeldExclusively() {
            return lockBits() != 0;
        }

        @Override
        protected long saveForWait() {
            return 0;
        }

        @Override
        protected void restoreAfterWait(long saved) {
        }

        @Override
        void spinRole(boolean taken) {
            if (taken) {
                roleTakes.incrementAndGet();
                maxSpinners.accumulateAndGet(spinners.incrementAndGet(), Math::max);
            } else {
                spinners.decrementAndGet();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(VirtualCarriers.Kind.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void neverTwoSpinners(VirtualCarriers.Kind kind) throws Exception {
        Thread.Builder.OfVirtual vthreads = carriers.open(kind);
        CountingMutex m = new CountingMutex();
        long[] shared = {0};
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Runnable r = () -> {
                for (int k = 0; k < 50_000; k++) {
                    m.acquire();
                    shared[0]++;
                    for (int s = 0; s < 20; s++) {
                        Thread.onSpinWait();     // a critical section long enough to make waiters spin
                    }
                    m.release(1);
                }
            };
            threads.add(i % 2 == 0 ? Thread.ofPlatform().start(r) : vthreads.start(r));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(8 * 50_000L, shared[0]);
        assertTrue(m.roleTakes.get() > 0, "the test never exercised the spin role");
        assertEquals(1, m.maxSpinners.get(), "spinners admitted at once");
        assertEquals(0, m.spinners.get());
        assertFalse(m.hasSpinner());
        assertFalse(m.hasSleepers());
    }
}
