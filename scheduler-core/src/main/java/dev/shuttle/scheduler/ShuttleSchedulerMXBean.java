package dev.shuttle.scheduler;

/**
 * The management interface of one {@link ShuttleScheduler}, registered in the platform MBean server as
 * {@code dev.shuttle:type=ShuttleScheduler,name=<name>} from {@link ShuttleScheduler.Builder#build()} until
 * {@link ShuttleScheduler#close()} (the JVM's default scheduler, installed by the agent, is named {@code default}).
 * Readable with jconsole, JMC or any JMX client; docs/operations.md says what each attribute means and what to do
 * about it.
 *
 * <p>Gauges describe the moment of the call. Counters count since the scheduler was built; each is summed over the
 * processors at the call (their holders write them as plain fields), so counters read in one call may disagree with
 * each other by the events of the last microseconds.
 */
public interface ShuttleSchedulerMXBean {

    /**
     * The name given to {@link ShuttleScheduler.Builder#name(String)}, or the one generated for the scheduler.
     *
     * @return the name given to {@link ShuttleScheduler.Builder#name}, or the one generated for the scheduler
     */
    String getName();

    /**
     * Processors: how many virtual threads run at once, blocked carriers aside.
     *
     * @return the number of processors
     */
    int getParallelism();

    /**
     * Carrier threads alive: one per processor plus spares taken on for blocked carriers and not yet ended.
     *
     * @return the number of carrier threads alive
     */
    int getCarrierThreads();

    /**
     * Processors not idle: running a virtual thread, blocked in one, searching for work or between tasks.
     *
     * @return the number of processors not idle
     */
    int getBusyProcessors();

    /**
     * Processors whose carrier sleeps for want of work.
     *
     * @return the number of processors whose carrier sleeps for want of work
     */
    int getIdleProcessors();

    /**
     * Carriers searching other processors' queues for work (a subset of the busy processors).
     *
     * @return the number of carriers searching other processors' queues for work
     */
    int getSearchingProcessors();

    /**
     * Tasks (runnable virtual threads) in the global queue: submitted from outside, yields and local overflow.
     *
     * @return the number of tasks in the global queue
     */
    long getQueuedTasksGlobal();

    /**
     * Tasks in the processors' run queues and runNext slots.
     *
     * @return the number of tasks in the processors' run queues and runNext slots
     */
    long getQueuedTasksLocal();

    /**
     * Virtual threads started on this scheduler and not yet finished.
     *
     * @return the number of virtual threads started on this scheduler and not yet finished
     */
    int getLiveVirtualThreads();

    /**
     * Timers waiting in the carriers' heaps: sleeps, timed waits' timeouts and {@link ShuttleScheduler#schedule}
     * tasks. Cancelled timers (timed waits that ended early) count until they are dropped, which happens once they
     * pass a quarter of a heap; timers armed from outside the carriers count once a carrier takes them in.
     *
     * @return the number of timers waiting in the carriers' heaps
     */
    long getTimersPending();

    /**
     * Virtual-thread runs started: each lasts until the thread parks, yields or ends.
     *
     * @return the number of virtual-thread runs started
     */
    long getTasksRun();

    /**
     * Successful steals of queued work from another processor.
     *
     * @return the number of successful steals of queued work from another processor
     */
    long getSteals();

    /**
     * Times an idle carrier went to sleep.
     *
     * @return the number of times an idle carrier went to sleep
     */
    long getParks();

    /**
     * Times an idle carrier got up to work; parks minus wake-ups is sleeps that ended with nothing to do.
     *
     * @return the number of times an idle carrier got up to work
     */
    long getWakeUps();

    /**
     * Times a carrier woken to search slept again without having run a task: each cost an unpark, a trip onto a core,
     * a search and a park, for nothing. A high share of {@link #getWakeUps()} means wake-ups outrun the work.
     *
     * @return the number of times a carrier woken to search slept again without having run a task
     */
    long getEmptyWakeUps();

    /**
     * Timers armed: timed parks (sleep, timed waits) and {@link ShuttleScheduler#schedule} calls.
     *
     * @return the number of timers armed
     */
    long getTimersArmed();

    /**
     * Timers fired, by any carrier.
     *
     * @return the number of timers fired, by any carrier
     */
    long getTimersFired();

    /**
     * Of the timers fired, those fired by a carrier other than the one whose processor held them.
     *
     * @return the number of timers fired by a carrier other than the one whose processor held them
     */
    long getTimersStolen();

    /**
     * Processors moved from a stuck carrier thread to another one (by the monitor or a blocking hook).
     *
     * @return the number of processors moved from a stuck carrier thread to another one
     */
    long getHandOffs();

    /**
     * Of the hand-offs, those the monitor made: carriers blocked in the kernel or past the time slice.
     *
     * @return the number of hand-offs the monitor made
     */
    long getMonitorRetakes();

    /**
     * Lost wake-ups and missed timers the monitor found and fixed; should stay 0.
     *
     * @return the number of lost wake-ups and missed timers the monitor found and fixed
     */
    long getMonitorRescues();

    /**
     * Searches in which a carrier out of work spun (paused between two passes over the queues) and then found work:
     * each saved a park, an unpark and a wake-up's latency.
     *
     * @return the number of searches in which a carrier out of work spun and then found work
     */
    long getSpinsFound();

    /**
     * Searches in which a carrier spun and found nothing, then parked: the CPU of each spin was spent for nothing.
     * Far more of these than {@link #getSpinsFound()} is normal for a server fed from outside (its carriers spin once,
     * briefly, before each park); the budget shrinks while they dominate.
     *
     * @return the number of searches in which a carrier spun, found nothing and parked
     */
    long getSpinsWasted();

    /**
     * Times the kernel took a carrier's core while the carrier was still runnable (Linux {@code ru_nivcsw} of each
     * carrier thread, counted as it parks): a carrier fighting for its core with other threads. A carrier that was
     * switched out so since its last park does not spin on its next search. -1 where it cannot be read: systems other
     * than Linux, or native access not enabled for Shuttle ({@code --enable-native-access=ALL-UNNAMED}).
     *
     * @return the number of involuntary switches, or -1 where they cannot be read
     */
    long getInvoluntarySwitches();

    /**
     * Sleeps of an idle carrier in the network poll: with the agent on Linux, one idle carrier at a time sleeps in
     * {@code epoll_wait} on the JDK's pollers instead of the JDK's poller threads (docs/design.md, "The network
     * poller"). 0 where Shuttle does not drive the pollers ({@code -Dshuttle.netpoll=off}, the explicit API).
     *
     * @return the number of sleeps in the network poll
     */
    long getPollsBlocking();

    /**
     * Network polls that did not block, by carriers that ran out of work while nobody slept in the poll.
     *
     * @return the number of non-blocking polls by carriers
     */
    long getPollsNonBlocking();

    /**
     * Network polls by the monitor, when every carrier was busy and nobody had polled for 10 ms.
     *
     * @return the number of polls by the monitor
     */
    long getPollsByMonitor();

    /**
     * Descriptors the network polls found ready: each unparks the virtual thread waiting for it.
     *
     * @return the number of descriptors found ready
     */
    long getPollReadyDescriptors();

    /**
     * Each processor's state now.
     *
     * @return each processor's state now
     */
    ProcessorState[] getProcessors();

    /**
     * One processor at the moment of the call.
     *
     * @param index the processor's number, 0 to parallelism - 1
     * @param phase {@code idle} (its carrier sleeps), {@code scheduling} (its carrier looks for work or fires
     *     timers), {@code running} (a virtual thread runs) or {@code blocking} (that thread is in a call the JDK marks
     *     as blocking)
     * @param carrier the name of the carrier thread holding it
     * @param queued tasks in its run queue and runNext slot
     * @param tick its scheduling tick: standing still while {@code running} means one virtual thread has kept it
     * @param tasksRun virtual-thread runs it started
     */
    record ProcessorState(int index, String phase, String carrier, int queued, int tick, long tasksRun) {
    }
}
