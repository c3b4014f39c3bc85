package dev.shuttle.scheduler.observe;

import dev.shuttle.scheduler.core.CarrierPool;
import dev.shuttle.scheduler.core.Processor;

/**
 * One reading of a scheduler's event counters, summed over its processors (whose holders write them as plain fields,
 * see {@link Processor}) and the few counters kept elsewhere. A reading is not a consistent cut: each counter is read
 * once, racing with its writer, so two counters read together may disagree by the events of the last microseconds.
 */
public record SchedulerCounters(long tasksRun, long steals, long parks, long wakeUps, long emptyWakeUps, long timersArmed,
        long timersFired, long timersStolen, long handOffs, long retakes, long rescues, long spinsFound,
        long spinsWasted, long involuntarySwitches, long pollsBlocking, long pollsNonBlocking, long pollsByMonitor,
        long polledDescriptors) {

    static final SchedulerCounters ZERO = new SchedulerCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    public static SchedulerCounters of(CarrierPool pool) {
        long run = 0;
        long steals = 0;
        long parks = 0;
        long wakeUps = 0;
        long emptyWakeUps = 0;
        long armed = pool.timers.externalArms.sum();
        long fired = 0;
        long stolen = 0;
        long spinsFound = 0;
        long spinsWasted = 0;
        long switches = 0;
        long pollsBlocking = 0;
        long pollsNonBlocking = 0;
        long polled = pool.netpoll.monitorDescriptors;
        // Retired processors too: what they counted happened, and a carrier finishing its last task there may count on.
        for (Processor p : pool.state.everCreated()) {
            run += p.tasksRun;
            steals += p.steals;
            parks += p.parks;
            wakeUps += p.wakeUps;
            emptyWakeUps += p.emptyWakeUps;
            armed += p.timersArmed;
            fired += p.timersFiredOwn + p.timersStolen;
            stolen += p.timersStolen;
            spinsFound += p.spinsFound;
            spinsWasted += p.spinsWasted;
            switches += p.involuntarySwitches;
            pollsBlocking += p.pollsBlocking;
            pollsNonBlocking += p.pollsNonBlocking;
            polled += p.polledDescriptors;
        }
        return new SchedulerCounters(run, steals, parks, wakeUps, emptyWakeUps, armed, fired, stolen,
                pool.handOff.handOffs.get(), pool.monitor.retakes(), pool.monitor.rescues(), spinsFound, spinsWasted,
                switches, pollsBlocking, pollsNonBlocking, pool.netpoll.monitorPolls, polled);
    }

    /** What happened between {@code earlier} and this reading. */
    public SchedulerCounters minus(SchedulerCounters earlier) {
        return new SchedulerCounters(tasksRun - earlier.tasksRun, steals - earlier.steals, parks - earlier.parks,
                wakeUps - earlier.wakeUps, emptyWakeUps - earlier.emptyWakeUps, timersArmed - earlier.timersArmed,
                timersFired - earlier.timersFired, timersStolen - earlier.timersStolen, handOffs - earlier.handOffs,
                retakes - earlier.retakes, rescues - earlier.rescues, spinsFound - earlier.spinsFound,
                spinsWasted - earlier.spinsWasted, involuntarySwitches - earlier.involuntarySwitches,
                pollsBlocking - earlier.pollsBlocking, pollsNonBlocking - earlier.pollsNonBlocking,
                pollsByMonitor - earlier.pollsByMonitor, polledDescriptors - earlier.polledDescriptors);
    }
}
