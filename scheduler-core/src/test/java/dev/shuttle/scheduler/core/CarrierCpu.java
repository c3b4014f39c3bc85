package dev.shuttle.scheduler.core;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** CPU time used so far by all of a pool's carriers: tests that check carriers sleep rather than spin. */
public final class CarrierCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CarrierCpu() {
    }

    public static long nanos(CarrierPool pool) {
        long sum = 0;
        for (Processor proc : pool.state.processors) {
            CarrierThread c = proc.holder();
            sum += THREADS.getThreadCpuTime(c.threadId());
        }
        return sum;
    }
}
