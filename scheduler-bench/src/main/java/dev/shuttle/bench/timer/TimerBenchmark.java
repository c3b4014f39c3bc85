package dev.shuttle.bench.timer;

import dev.shuttle.bench.BenchJvm;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Shared set-up of the timer-operation benchmarks (seed 004): the {@code impl} parameter and its timer service,
 * and Go's {@code benchmark} helper's parallelism, one caller per processor ({@code Threads.MAX}), since per-carrier
 * heaps exist to make concurrent timer operations scale.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS})
@Threads(Threads.MAX)
@State(Scope.Benchmark)
public abstract class TimerBenchmark {
    static final Runnable NOTHING = () -> { };

    @Param({TimerImpl.SHUTTLE, TimerImpl.STPE, TimerImpl.FJP})
    public String impl;

    protected TimerImpl timers;

    @Setup(Level.Trial)
    public void open() {
        timers = TimerImpl.open(impl);
    }

    @TearDown(Level.Trial)
    public void close() {
        timers.close();
    }
}
