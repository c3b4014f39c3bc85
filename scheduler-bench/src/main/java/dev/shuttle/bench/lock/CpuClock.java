package dev.shuttle.bench.lock;

import java.lang.management.ManagementFactory;

/** Process CPU time (all threads, user and system), to report the CPU a lock burns per operation. */
final class CpuClock {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private CpuClock() {
    }

    static long processCpuNanos() {
        return OS.getProcessCpuTime();
    }
}
