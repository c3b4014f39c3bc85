package dev.shuttle.lock;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A non-reentrant mutex on the spin-bit synchronizer, releasable by any thread (so one actor can
 * hold it and another release it), which counts threads holding the spin role at once. In package
 * {@code dev.shuttle.lock} because the spin-role callback and the spinner snapshot it uses are
 * package-private: they are for tests, not part of the lock's API.
 */
public final class CountingMutex extends SpinBitSynchronizer {
    private final AtomicInteger spinners = new AtomicInteger();
    private final AtomicInteger maxSpinners = new AtomicInteger();

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
            maxSpinners.accumulateAndGet(spinners.incrementAndGet(), Math::max);
        } else {
            spinners.decrementAndGet();
        }
    }

    public void unlock() {
        release(1);
    }

    public boolean isFree() {
        return lockBits() == 0;
    }

    public int maxSpinners() {
        return maxSpinners.get();
    }

    public boolean spinnerPresent() {
        return hasSpinner();
    }
}
