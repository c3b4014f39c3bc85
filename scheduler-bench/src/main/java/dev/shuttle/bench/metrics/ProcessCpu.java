package dev.shuttle.bench.metrics;

import java.lang.management.ManagementFactory;

/**
 * The process's CPU time (user + system, all threads), as {@code perf stat}'s task-clock in the Go seeds. It covers
 * JMH's own threads too; they sleep or wait during a measurement, so their share is small.
 */
public final class ProcessCpu {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private ProcessCpu() {
    }

    /** CPU time the process has used so far, in nanoseconds. */
    public static long nanos() {
        long cpu = OS.getProcessCpuTime();
        if (cpu < 0) {
            throw new IllegalStateException("this platform does not report process CPU time");
        }
        return cpu;
    }
}
