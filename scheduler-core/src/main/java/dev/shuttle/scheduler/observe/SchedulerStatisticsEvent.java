package dev.shuttle.scheduler.observe;

import dev.shuttle.scheduler.SchedulingDelayMXBean;
import dev.shuttle.scheduler.core.CarrierBlockedEvent;
import dev.shuttle.scheduler.core.DelayHistogram;
import dev.shuttle.scheduler.core.InvoluntarySwitches;
import dev.shuttle.scheduler.core.LongTaskEvent;
import dev.shuttle.scheduler.core.SchedulingDelayEvent;
import dev.shuttle.scheduler.core.TimerLateEvent;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * Every second while enabled, one event per live scheduler: its gauges now and what its counters counted since its
 * previous event (since it was built, for the first), with the scheduling delay sampled in that period
 * ({@link SchedulingDelayMXBean}); and one for the JDK's own scheduler in the agent's measuring mode, carrying only
 * the scheduling delay. JFR calls the hook on its periodic thread only while a
 * recording enables the event, so nothing runs without one.
 */
@Name("dev.shuttle.SchedulerStatistics")
@Label("Scheduler Statistics")
@Category("Shuttle")
@Description("A Shuttle scheduler's gauges, and its counters since the previous event")
@Period("1 s")
@StackTrace(false)
public final class SchedulerStatisticsEvent extends jdk.jfr.Event {
    @Label("Scheduler") String scheduler;
    @Label("Parallelism") int parallelism;
    @Label("Carrier Threads") int carrierThreads;
    @Label("Busy Processors") int busy;
    @Label("Idle Processors") int idle;
    @Label("Searching Processors") int searching;
    @Label("Queued Global") long queuedGlobal;
    @Label("Queued Local") long queuedLocal;
    @Label("Live Virtual Threads") int liveVirtualThreads;
    @Label("Timers Pending") long timersPending;
    @Label("Tasks Run") long tasksRun;
    @Label("Steals") long steals;
    @Label("Parks") long parks;
    @Label("Wake-ups") long wakeUps;
    @Label("Empty Wake-ups") long emptyWakeUps;
    @Label("Timers Armed") long timersArmed;
    @Label("Timers Fired") long timersFired;
    @Label("Timers Stolen") long timersStolen;
    @Label("Hand-offs") long handOffs;
    @Label("Monitor Retakes") long monitorRetakes;
    @Label("Monitor Rescues") long monitorRescues;
    @Label("Spins Found") @Description("Searches that spun and then found work") long spinsFound;
    @Label("Spins Wasted") @Description("Searches that spun, found nothing and parked") long spinsWasted;
    @Label("Involuntary Switches")
    @Description("Times a carrier's core was taken while it was runnable; -1 where it cannot be read")
    long involuntarySwitches;
    @Label("Polls Blocking") @Description("Sleeps of an idle carrier in the network poll") long pollsBlocking;
    @Label("Polls Non-blocking") @Description("Network polls by carriers that did not block") long pollsNonBlocking;
    @Label("Polls by Monitor") long pollsByMonitor;
    @Label("Poll Ready Descriptors") @Description("Descriptors the polls found ready") long pollReadyDescriptors;
    @Label("Scheduling Delay Samples") long delaySamples;
    @Label("Scheduling Delay p50") @Timespan(Timespan.NANOSECONDS) long delayP50;
    @Label("Scheduling Delay p99") @Timespan(Timespan.NANOSECONDS) long delayP99;
    @Label("Scheduling Delay Max")
    @Description("The upper bound of the highest bucket the period's sampled waits reached")
    @Timespan(Timespan.NANOSECONDS) long delayMax;

    private static final Runnable HOOK = SchedulerStatisticsEvent::emitAll;
    private static boolean registered;
    /** Owned by the JFR periodic hook: the JDK default's delay histogram its last event ended at. */
    private static DelayHistogram.Snapshot lastJdkDelays = new DelayHistogram.Snapshot();

    /**
     * Registers Shuttle's events and the periodic hook; called once, when the first scheduler is built. Registering
     * explicitly matters: an event class first loaded before any recording started (a late timer in a JVM that
     * started JFR later) otherwise stayed unregistered, and a later recording that enabled it by name got nothing.
     */
    public static synchronized void registerEvents() {
        if (registered) {
            return;
        }
        registered = true;
        FlightRecorder.register(SchedulingDelayEvent.class);
        FlightRecorder.register(CarrierBlockedEvent.class);
        FlightRecorder.register(LongTaskEvent.class);
        FlightRecorder.register(TimerLateEvent.class);
        FlightRecorder.addPeriodicEvent(SchedulerStatisticsEvent.class, HOOK);
    }

    private static void emitAll() {
        for (SchedulerMXBeanImpl bean : SchedulerMXBeanImpl.live()) {
            SchedulerCounters now = bean.counters();
            SchedulerCounters d = now.minus(bean.lastEmitted);
            bean.lastEmitted = now;
            SchedulerStatisticsEvent e = new SchedulerStatisticsEvent();
            e.scheduler = bean.getName();
            e.parallelism = bean.getParallelism();
            e.carrierThreads = bean.getCarrierThreads();
            e.busy = bean.getBusyProcessors();
            e.idle = bean.getIdleProcessors();
            e.searching = bean.getSearchingProcessors();
            e.queuedGlobal = bean.getQueuedTasksGlobal();
            e.queuedLocal = bean.getQueuedTasksLocal();
            e.liveVirtualThreads = bean.getLiveVirtualThreads();
            e.timersPending = bean.getTimersPending();
            e.tasksRun = d.tasksRun();
            e.steals = d.steals();
            e.parks = d.parks();
            e.wakeUps = d.wakeUps();
            e.emptyWakeUps = d.emptyWakeUps();
            e.timersArmed = d.timersArmed();
            e.timersFired = d.timersFired();
            e.timersStolen = d.timersStolen();
            e.handOffs = d.handOffs();
            e.monitorRetakes = d.retakes();
            e.monitorRescues = d.rescues();
            e.spinsFound = d.spinsFound();
            e.spinsWasted = d.spinsWasted();
            e.involuntarySwitches = InvoluntarySwitches.AVAILABLE ? d.involuntarySwitches()
                    : InvoluntarySwitches.UNAVAILABLE;
            e.pollsBlocking = d.pollsBlocking();
            e.pollsNonBlocking = d.pollsNonBlocking();
            e.pollsByMonitor = d.pollsByMonitor();
            e.pollReadyDescriptors = d.polledDescriptors();
            DelayHistogram.Snapshot delays = bean.delays.snapshot();
            e.setDelays(delays.minus(bean.lastEmittedDelays));
            bean.lastEmittedDelays = delays;
            e.commit();
        }
        SchedulingDelayView jdk = JdkSchedulingDelays.installed;
        if (jdk != null) {
            // The JDK default in the measuring mode: only its name and the scheduling delay; Shuttle's gauges and
            // counters do not apply to it and stay 0.
            DelayHistogram.Snapshot delays = jdk.snapshot();
            SchedulerStatisticsEvent e = new SchedulerStatisticsEvent();
            e.scheduler = jdk.getName();
            e.setDelays(delays.minus(lastJdkDelays));
            lastJdkDelays = delays;
            e.commit();
        }
    }

    /** The period's sampled waits: {@code period} is the difference of two readings. */
    private void setDelays(DelayHistogram.Snapshot period) {
        long[] all = period.allKinds();
        delaySamples = DelayHistogram.Snapshot.total(all);
        delayP50 = DelayHistogram.Snapshot.quantile(all, 0.50, 0);
        delayP99 = DelayHistogram.Snapshot.quantile(all, 0.99, 0);
        delayMax = DelayHistogram.Snapshot.quantile(all, 1.0, 0);
    }
}
