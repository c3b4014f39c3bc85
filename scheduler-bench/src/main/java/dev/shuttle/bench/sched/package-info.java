/**
 * Scheduling benchmarks: {@link dev.shuttle.bench.sched.PingPong} (park/unpark round trip between two virtual
 * threads; latency percentiles), {@link dev.shuttle.bench.sched.Skynet} (1M-thread fan-out tree, branching 10, sum
 * checked) and {@link dev.shuttle.bench.sched.Wakeup} (Go's WakeupParallel, seed 001: CPU per block/wake pair as
 * parallelism grows past the cores) and {@link dev.shuttle.bench.sched.IdleCpu} (the fraction of a core the
 * process uses once a burst of work has drained: what an idle scheduler burns).
 */
package dev.shuttle.bench.sched;
