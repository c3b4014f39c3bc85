package dev.shuttle.scheduler.observe;

import dev.shuttle.scheduler.SchedulingDelayMXBean;
import dev.shuttle.scheduler.ShuttleSchedulerMXBean;
import dev.shuttle.scheduler.core.CarrierPool;
import dev.shuttle.scheduler.core.CarrierThread;
import dev.shuttle.scheduler.core.DelayHistogram;
import dev.shuttle.scheduler.core.InvoluntarySwitches;
import dev.shuttle.scheduler.core.Processor;
import dev.shuttle.scheduler.core.SchedulingDelays;

import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * A scheduler's {@link ShuttleSchedulerMXBean}, and the set of live schedulers that the periodic JFR statistics event
 * walks. Reads only: every attribute is a racy read of state the carriers own, so a JMX client polling costs the
 * carriers nothing but the cache lines it reads.
 */
public final class SchedulerMXBeanImpl implements ShuttleSchedulerMXBean {
    static final String DOMAIN_AND_TYPE = "dev.shuttle:type=ShuttleScheduler";
    private static final AtomicInteger GENERATED = new AtomicInteger();
    private static final Set<SchedulerMXBeanImpl> LIVE = new CopyOnWriteArraySet<>();

    static {
        SchedulerStatisticsEvent.registerEvents();
    }

    private final String name;
    final CarrierPool pool;
    private final ObjectName objectName;
    /** Owned by the JFR periodic hook (one thread at a time): the reading its last statistics event ended at. */
    SchedulerCounters lastEmitted = SchedulerCounters.ZERO;
    /** The scheduler's {@link SchedulingDelayMXBean}, registered and unregistered with this bean. */
    final SchedulingDelayView delays;
    /** Owned by the JFR periodic hook, as {@code lastEmitted}: the delays its last statistics event ended at. */
    DelayHistogram.Snapshot lastEmittedDelays = new DelayHistogram.Snapshot();

    private SchedulerMXBeanImpl(String name, CarrierPool pool) {
        this.name = name;
        this.pool = pool;
        this.objectName = objectName(name);
        this.delays = new SchedulingDelayView(name, () -> SchedulingDelays.snapshot(pool.state));
    }

    /** A name no other scheduler in this JVM generated. */
    public static String generatedName() {
        return "shuttle-" + GENERATED.incrementAndGet();
    }

    public static ObjectName objectName(String name) {
        String value = name.matches("[^,=:*?\"\\\\\\n]+") ? name : ObjectName.quote(name);
        try {
            return new ObjectName(DOMAIN_AND_TYPE + ",name=" + value);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("scheduler name " + name + " makes no valid JMX object name", e);
        }
    }

    /**
     * Registers {@code pool}'s MXBean under {@code name}.
     *
     * @throws IllegalArgumentException if a scheduler of that name is registered already
     */
    public static SchedulerMXBeanImpl register(String name, CarrierPool pool) {
        SchedulerMXBeanImpl bean = new SchedulerMXBeanImpl(name, pool);
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(bean, bean.objectName);
        } catch (InstanceAlreadyExistsException e) {
            throw new IllegalArgumentException("a scheduler named \"" + name + "\" is already registered as "
                    + bean.objectName + "; give each scheduler its own name, or close the other one first", e);
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + bean.objectName, e);
        }
        try {
            bean.delays.register();
        } catch (RuntimeException e) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(bean.objectName);
            } catch (JMException ignored) {
                // Not there any more: nothing to undo.
            }
            throw e;
        }
        LIVE.add(bean);
        return bean;
    }

    public void unregister() {
        LIVE.remove(this);
        delays.unregister();
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(objectName);
        } catch (JMException e) {
            // Unregistered by someone else through the MBean server: nothing left to undo.
        }
    }

    static Set<SchedulerMXBeanImpl> live() {
        return LIVE;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public int getParallelism() {
        return pool.state.processors.length;
    }

    @Override
    public int getCarrierThreads() {
        return pool.handOff.carrierThreads();
    }

    @Override
    public int getBusyProcessors() {
        return pool.state.busy();
    }

    @Override
    public int getIdleProcessors() {
        return pool.state.idle.count();
    }

    @Override
    public int getSearchingProcessors() {
        return pool.state.searching.get();
    }

    @Override
    public long getQueuedTasksGlobal() {
        return pool.state.global.size();
    }

    @Override
    public long getQueuedTasksLocal() {
        return sumOverProcessors(p -> p.runQueue.size());
    }

    @Override
    public long getTimersPending() {
        return sumOverProcessors(p -> p.timers.entries());
    }

    /** A gauge summed over the current processors, each read once, racing with their holders. */
    private long sumOverProcessors(ToLongFunction<Processor> gauge) {
        long n = 0;
        for (Processor p : pool.state.processors) {
            n += gauge.applyAsLong(p);
        }
        return n;
    }

    @Override
    public int getLiveVirtualThreads() {
        return pool.state.threads.liveCount();
    }

    @Override
    public long getTasksRun() {
        return counters().tasksRun();
    }

    @Override
    public long getSteals() {
        return counters().steals();
    }

    @Override
    public long getParks() {
        return counters().parks();
    }

    @Override
    public long getWakeUps() {
        return counters().wakeUps();
    }

    @Override
    public long getEmptyWakeUps() {
        return counters().emptyWakeUps();
    }

    @Override
    public long getTimersArmed() {
        return counters().timersArmed();
    }

    @Override
    public long getTimersFired() {
        return counters().timersFired();
    }

    @Override
    public long getTimersStolen() {
        return counters().timersStolen();
    }

    @Override
    public long getHandOffs() {
        return pool.handOff.handOffs.get();
    }

    @Override
    public long getMonitorRetakes() {
        return pool.monitor.retakes();
    }

    @Override
    public long getMonitorRescues() {
        return pool.monitor.rescues();
    }

    @Override
    public long getSpinsFound() {
        return counters().spinsFound();
    }

    @Override
    public long getSpinsWasted() {
        return counters().spinsWasted();
    }

    @Override
    public long getInvoluntarySwitches() {
        return InvoluntarySwitches.AVAILABLE ? counters().involuntarySwitches() : InvoluntarySwitches.UNAVAILABLE;
    }

    @Override
    public long getPollsBlocking() {
        return counters().pollsBlocking();
    }

    @Override
    public long getPollsNonBlocking() {
        return counters().pollsNonBlocking();
    }

    @Override
    public long getPollsByMonitor() {
        return counters().pollsByMonitor();
    }

    @Override
    public long getPollReadyDescriptors() {
        return counters().polledDescriptors();
    }

    SchedulerCounters counters() {
        return SchedulerCounters.of(pool);
    }

    @Override
    public ProcessorState[] getProcessors() {
        Processor[] all = pool.state.processors;
        ProcessorState[] states = new ProcessorState[all.length];
        for (int i = 0; i < all.length; i++) {
            Processor p = all[i];
            CarrierThread holder = p.holder();
            states[i] = new ProcessorState(i, phaseName(p), holder == null ? "" : holder.getName(),
                    p.runQueue.size(), p.tick(), p.tasksRun);
        }
        return states;
    }

    private String phaseName(Processor p) {
        return switch (Processor.phaseOf(p.state())) {
            case Processor.TASK -> "running";
            case Processor.BLOCKING -> "blocking";
            default -> pool.state.idle.contains(p.index) ? "idle" : "scheduling";
        };
    }
}
