package dev.shuttle.bench.lock;

import dev.shuttle.bench.metrics.CpuStats;
import dev.shuttle.bench.metrics.LatencyStats;
import dev.shuttle.bench.metrics.ProcessCpu;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Go's BenchmarkMutexHandoff (runtime_test.go). Solo: one thread locks and unlocks. The ping-pong
 * cases hand the lock from a coordinator to a worker: the coordinator takes the lock, tells the
 * worker to call lock, optionally waits (SlowPingPong: until the worker sleeps, plus 10 us), then
 * unlocks; the handoff latency runs from the start of that unlock to the worker's lock returning.
 * The primary score is wall time per round; the secondary results are the handoff latency (Go's
 * reported metric is its mean, {@code mean_us}; the percentiles come with it) and the process's CPU
 * per round ({@code cpu_us_per_op}). The monitor cannot take part: a handoff needs lock and unlock
 * as separate calls.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class MutexHandoff {
    static final int FAST_ROUNDS = 10_000;
    static final int SLOW_ROUNDS = 1_000;

    @State(Scope.Benchmark)
    public static class LockState {
        @Param({"spinbit", "reentrant"})
        public String lock;
        Mutexes mutex;

        @Setup(Level.Trial)
        public void setUp() {
            mutex = Mutexes.create(lock);
        }
    }

    /** Coordinator and worker threads of the chosen kind, with Go's padded turn counter. */
    @State(Scope.Benchmark)
    public static class PingPong {
        @Param({"platform", "virtual"})
        public String kind;

        long p00, p01, p02, p03, p04, p05, p06, p07;
        final AtomicLong turn = new AtomicLong();
        long q00, q01, q02, q03, q04, q05, q06, q07;
        /** When the coordinator began its unlock; written before the unlock, read after the worker's lock. */
        long unlockStart;
        volatile int rounds;
        volatile boolean slow;
        volatile LatencyStats handoff;
        Workers workers;

        @Setup(Level.Trial)
        public void setUp(LockState ls) {
            Mutexes m = ls.mutex;
            workers = new Workers(kind, 2, id -> {
                if (id == 0) {
                    coordinator(m);
                } else {
                    worker(m);
                }
            });
        }

        @TearDown(Level.Trial)
        public void tearDown() throws InterruptedException {
            workers.close();
        }

        private void coordinator(Mutexes m) {
            int n = rounds;
            boolean delay = slow;
            for (int i = 0; i < n; i++) {
                m.lock();
                turn.addAndGet(2);
                if (delay) {
                    while (!m.contended()) {
                        Thread.onSpinWait();
                    }
                    for (long t0 = System.nanoTime(); System.nanoTime() - t0 < 10_000; ) {
                        Thread.onSpinWait();
                    }
                }
                unlockStart = System.nanoTime();
                m.unlock();
                while ((turn.get() & 0x2) != 0) {
                    Thread.onSpinWait();
                }
            }
            turn.addAndGet(1);
        }

        private void worker(Mutexes m) {
            LatencyStats latency = handoff;
            for (;;) {
                switch ((int) (turn.get() & 0x3)) {
                    case 0 -> Thread.onSpinWait();
                    case 1, 3 -> {
                        return;
                    }
                    default -> {
                        m.lock();
                        long took = System.nanoTime() - unlockStart;
                        m.unlock();
                        latency.record(took);
                        turn.addAndGet(2);
                    }
                }
            }
        }

        void run(int n, boolean isSlow, CpuStats cpu, LatencyStats latency) throws InterruptedException {
            turn.set(0);
            rounds = n;
            slow = isSlow;
            handoff = latency;
            long c0 = ProcessCpu.nanos();
            long w0 = System.nanoTime();
            workers.runRound();
            cpu.add(ProcessCpu.nanos() - c0, System.nanoTime() - w0, n);
        }
    }

    @Benchmark
    public void solo(LockState s) {
        s.mutex.lock();
        s.mutex.unlock();
    }

    @Benchmark
    @OperationsPerInvocation(FAST_ROUNDS)
    public void fastPingPong(PingPong p, CpuStats cpu, LatencyStats handoff) throws InterruptedException {
        p.run(FAST_ROUNDS, false, cpu, handoff);
    }

    @Benchmark
    @OperationsPerInvocation(SLOW_ROUNDS)
    public void slowPingPong(PingPong p, CpuStats cpu, LatencyStats handoff) throws InterruptedException {
        p.run(SLOW_ROUNDS, true, cpu, handoff);
    }
}
