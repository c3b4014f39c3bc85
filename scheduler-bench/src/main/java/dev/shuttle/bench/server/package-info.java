/**
 * The real-server benchmark: what a user runs first. A server of each {@link dev.shuttle.bench.server.Framework}
 * ({@link dev.shuttle.bench.server.HelidonServerApp}, Helidon SE 4; {@link dev.shuttle.bench.server.JdkServerApp}, the
 * JDK's {@code com.sun.net.httpserver}), both answering with the same {@code ServerHandlers}, runs in a child JVM on
 * the JDK's default scheduler or on Shuttle through its agent, with the same flags and heap otherwise;
 * {@link dev.shuttle.bench.server.LoadGenerator} loads it from the parent JVM on 127.0.0.1;
 * {@link dev.shuttle.bench.server.ServerBench} runs the phases, {@link dev.shuttle.bench.server.RoundSummary} gathers
 * the rounds of a multi-round run by table cell and {@link dev.shuttle.bench.server.ServerReport} writes the tables.
 * {@link dev.shuttle.bench.server.SteadyLoad} holds one server on one scheduler at one rate, with the same phases and
 * readings as a step, for a profiler to attach to the server's process.
 *
 * <ul>
 *   <li>Ownership: each generator connection is owned by one platform thread; its counters and histogram are read
 *       by the driver only after {@code join}, which orders them. The driver ends a connection that outlives the
 *       run's bound by closing its socket, and then joins it too.</li>
 *   <li>Bounded: a request not answered within the request timeout is counted as timed out and its connection
 *       replaced, so every run ends by {@code LoadGenerator.boundNanos}; a server that does not print its port within
 *       30 s is killed, and one that does not exit within 5 s of its standard input closing is killed.</li>
 *   <li>Like for like: the server lowers its timer slack before creating any thread (as the JMH trials do), and
 *       checks nothing else differs; both run the agent, the JDK default's in its measuring mode
 *       ({@code -Dshuttle.measure=true}, no {@code implClass}), so both have a scheduling-delay bean;
 *       {@code /info} confirms which scheduler ran the requests.</li>
 *   <li>The scheduler's own share of the latency, and counts that do not drift with the machine's noise: the parent
 *       reads the scheduling-delay histogram through {@code /delay} before and after each run, outside the
 *       {@code /cpu} readings, and keeps its growth ({@link dev.shuttle.bench.server.DelayCounts}); and it reads the
 *       server's threads' context switches itself from {@code /proc/<pid>/task/*}{@code /status}
 *       ({@link dev.shuttle.bench.metrics.ProcessSwitches}), which costs the server nothing.</li>
 *   <li>Where the time goes on the lock endpoints: the end-to-end latency mixes in the generator, the OS and the
 *       loopback network, so the handler itself times each request's wait for the lock (from before {@code lock()}
 *       to its return, on the request's virtual thread, so a parked waiter counts until it runs again) and its hold
 *       (from then to the return of {@code unlock()}) into {@link org.HdrHistogram.Recorder}s
 *       ({@link dev.shuttle.bench.server.TimedLock}). Recording takes no lock nor, once the histograms have grown,
 *       any memory, and is done after the unlock, outside the hold. {@code /locks} returns the
 *       {@link dev.shuttle.bench.server.LockTimes} since its previous call and resets them; the parent calls it before
 *       and after each run of a lock endpoint, outside the {@code /cpu} readings, so each run carries its own.</li>
 *   <li>Where Shuttle's CPU goes: CPU per request cannot tell the requests' work from carriers woken to search that
 *       park again. The parent reads the JVM-wide scheduler's MXBean counters through {@code /scheduler} before and
 *       after each run, outside the {@code /cpu} readings, and keeps their growth
 *       ({@link dev.shuttle.bench.server.SchedulerActivity}); the JDK default has none to read.</li>
 *   <li>Where a slow request's time goes: every endpoint's handler answers the {@code System.nanoTime} of its entry
 *       in a header ({@code ServerHandlers.HANDLED_AT}); both processes read the machine's one monotonic clock. The
 *       JDK's {@code HttpServer} also answers when its dispatcher thread handed the request to the executor and when
 *       the request's virtual thread began to run ({@code ServerHandlers.DISPATCHED_AT}), the scheduler's part. Each
 *       generator thread keeps, per answered request, its intended start, its connection's previous answer, its send,
 *       those server times and its answer, in arrays sized before the run ({@link
 *       dev.shuttle.bench.server.SlowestRequests}), so recording allocates nothing under load; the driver reads them
 *       after {@code join} and reports the slowest 1 % by latency and by service time, cut into parts. Beside them, the
 *       server's garbage collections during the run ({@link dev.shuttle.bench.server.GcPauses}, read through
 *       {@code /gc} around each run outside the {@code /cpu} readings), since a pause stops every request thread.</li>
 *   <li>The generator stays out of what it measures: an exchange allocates nothing ({@code HttpConnection}) and a
 *       sender's recorders are kept from run to run, so the generator's JVM does not collect during a window; a step's
 *       lead-in runs on the same threads and schedule as the step and down the same code (which part a request
 *       belongs to is an index, not a branch, so the JIT has nothing to deoptimise as the window begins); and the
 *       server is read only before the lead-in and after the window, never amid the load. Each of these was found
 *       putting the generator's own pauses into a window's slowest 1 % (docs/design.md, "Measuring a change").</li>
 *   <li>Warm past the JIT on both paths: the closed-loop warm-up and maximum never let a scheduler thread go idle, so
 *       each endpoint then runs open loop at its first step's load, not measured, before that step
 *       ({@code Settings.openWarmupNanos}, 5 s in the report's settings): the schedulers' park, search and wake-up
 *       code is compiled there and not in the first step's window.</li>
 *   <li>Where the server's CPU goes, by a profile: after each endpoint's measured steps, a further run at the
 *       profiled load ({@code Settings.profileLoad}, 50 %, the goal's), not measured for the tables, with JFR's
 *       execution sampler recording in the server ({@link dev.shuttle.bench.server.JavaSampler}, started and stopped
 *       through {@code /profile/start} and {@code /profile/stop}); the server counts the samples by the
 *       {@link dev.shuttle.bench.server.CodeArea} of the topmost frame in one and sends only the counts
 *       ({@link dev.shuttle.bench.server.JavaSamples}). In a run of its own because a stack walk per running thread
 *       every millisecond would cost the measured steps; in the server's process so both schedulers are sampled by
 *       the same code with the same settings.</li>
 *   <li>Rounds ({@code --rounds N}, one by default): one run's p99 on a shared machine moves several-fold between
 *       identical runs, so the comparison can be repeated N times in one session, each server in a new JVM every
 *       round, the JDK default first in odd rounds and Shuttle first in even ones. Every round is loaded at the same
 *       rates, fractions of the JDK default's maxima in round 1, which runs it first so that they are known before
 *       Shuttle's steps. The report gives each cell's median over the rounds and its range, the median of the
 *       per-round Shuttle/JDK ratios and, for a loss, in how many rounds Shuttle was worse.</li>
 * </ul>
 */
package dev.shuttle.bench.server;
