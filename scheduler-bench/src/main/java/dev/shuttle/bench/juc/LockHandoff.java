package dev.shuttle.bench.juc;

import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.Spin;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.ReentrantLock;
import org.HdrHistogram.Histogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

/**
 * {@code threads} virtual threads take turns at one {@code primitive}: a non-fair {@link ReentrantLock}, or a
 * {@link Semaphore} with one permit (the same exclusion through AQS's shared mode). Each thread loops: acquire, keep
 * the carrier busy {@value #HOLD_NANOS} ns, release, busy {@value #HOLD_NANOS} ns outside. More threads than
 * carriers means waiters park and each release may wake one: the path of issue 20's Helidon endpoint that did
 * 20 µs of work under a lock. (A semaphore with at least as many permits as carriers never blocks, as virtual
 * threads are not preempted while they hold one.)
 *
 * <p>Primary score: mean time per acquisition over all threads, {@value #ACQUISITIONS} per invocation; the floor
 * is {@value #HOLD_NANOS} ns, the serial part. Secondary: process CPU per acquisition, and percentiles of the time
 * one acquire call waited.
 */
public class LockHandoff extends JucBenchmark {
    static final String REENTRANT_LOCK = "ReentrantLock";
    static final String SEMAPHORE = "Semaphore";
    /** Divisible by every {@code threads} value. */
    static final int ACQUISITIONS = 4_000;
    static final long HOLD_NANOS = 1_000;

    @Param({REENTRANT_LOCK, SEMAPHORE})
    public String primitive;

    @Param({"2", "8"})
    public int threads;

    private Histogram[] waits;

    /** The primitive's acquire and release. */
    private interface Exclusion {
        void acquire() throws InterruptedException;

        void release();
    }

    @Override
    protected void afterOpen() {
        if (threads < 1 || ACQUISITIONS % threads != 0) {
            throw new IllegalArgumentException("threads must divide " + ACQUISITIONS + ", not " + threads);
        }
        waits = new Histogram[threads];
        for (int t = 0; t < threads; t++) {
            waits[t] = new Histogram(3);
        }
    }

    private Exclusion open() {
        return switch (primitive) {
            case REENTRANT_LOCK -> {
                ReentrantLock lock = new ReentrantLock();
                yield new Exclusion() {
                    @Override
                    public void acquire() {
                        lock.lock();
                    }

                    @Override
                    public void release() {
                        lock.unlock();
                    }
                };
            }
            case SEMAPHORE -> {
                Semaphore permits = new Semaphore(1);
                yield new Exclusion() {
                    @Override
                    public void acquire() throws InterruptedException {
                        permits.acquire();
                    }

                    @Override
                    public void release() {
                        permits.release();
                    }
                };
            }
            default -> throw new IllegalArgumentException("unknown primitive '" + primitive + "': use "
                    + REENTRANT_LOCK + " or " + SEMAPHORE);
        };
    }

    @Benchmark
    @OperationsPerInvocation(ACQUISITIONS)
    public void acquire(CpuStats cpu, LatencyStats latency) throws InterruptedException {
        Exclusion exclusion = open();
        int each = ACQUISITIONS / threads;
        long[] inside = new long[1];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            Histogram waited = waits[t];
            workers[t] = tasks.newThread(Blocking.task(() -> {
                for (int i = 0; i < each; i++) {
                    long start = System.nanoTime();
                    exclusion.acquire();
                    waited.recordValue(System.nanoTime() - start);
                    try {
                        inside[0]++;
                        Spin.forNanos(HOLD_NANOS);
                    } finally {
                        exclusion.release();
                    }
                    Spin.forNanos(HOLD_NANOS);
                }
            }));
        }
        runAll(cpu, ACQUISITIONS, workers);
        if (inside[0] != ACQUISITIONS) {
            throw new AssertionError("the counter guarded by the " + primitive + " reached " + inside[0] + ", not "
                    + ACQUISITIONS + ": exclusion failed");
        }
        for (Histogram h : waits) {
            latency.add(h);
            h.reset();
        }
    }
}
