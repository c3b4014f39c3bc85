package dev.shuttle.scheduler.observe;

import dev.shuttle.scheduler.SchedulingDelayMXBean;
import dev.shuttle.scheduler.core.DelayHistogram;
import dev.shuttle.scheduler.core.HandOffStamps;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * A {@link SchedulingDelayMXBean} over a source of merged histograms: a Shuttle scheduler's processors or the JDK
 * scheduler's carriers. Each attribute read merges the owners' histograms once; reads only, racing with the owners.
 */
public final class SchedulingDelayView implements SchedulingDelayMXBean {
    static final String DOMAIN_AND_TYPE = "dev.shuttle:type=SchedulingDelay";
    private static final long[] BOUNDS = new long[DelayHistogram.COUNTS];

    static {
        for (int i = 0; i < BOUNDS.length; i++) {
            BOUNDS[i] = DelayHistogram.lowerBound(i);
        }
    }

    private final String name;
    private final Supplier<DelayHistogram.Snapshot> source;
    private final ObjectName objectName;

    public SchedulingDelayView(String name, Supplier<DelayHistogram.Snapshot> source) {
        this.name = name;
        this.source = source;
        String value = name.matches("[^,=:*?\"\\\\\\n]+") ? name : ObjectName.quote(name);
        try {
            this.objectName = new ObjectName(DOMAIN_AND_TYPE + ",name=" + value);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("scheduler name " + name + " makes no valid JMX object name", e);
        }
    }

    /**
     * Registers this view in the platform MBean server.
     *
     * @throws IllegalArgumentException if a view of that name is registered already
     */
    public SchedulingDelayView register() {
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(this, objectName);
        } catch (InstanceAlreadyExistsException e) {
            throw new IllegalArgumentException("a scheduling-delay bean named \"" + name
                    + "\" is already registered as " + objectName + "; give each scheduler its own name, or close the other one first", e);
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + objectName, e);
        }
        return this;
    }

    void unregister() {
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(objectName);
        } catch (JMException e) {
            // Unregistered by someone else through the MBean server: nothing left to undo.
        }
    }

    DelayHistogram.Snapshot snapshot() {
        return source.get();
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public long getSchedulingDelaySamples() {
        return DelayHistogram.Snapshot.total(snapshot().allKinds());
    }

    @Override
    public long getSchedulingDelayP50Nanos() {
        return schedulingDelayPercentileNanos("all", 50);
    }

    @Override
    public long getSchedulingDelayP90Nanos() {
        return schedulingDelayPercentileNanos("all", 90);
    }

    @Override
    public long getSchedulingDelayP99Nanos() {
        return schedulingDelayPercentileNanos("all", 99);
    }

    @Override
    public long getSchedulingDelayP999Nanos() {
        return schedulingDelayPercentileNanos("all", 99.9);
    }

    @Override
    public long getSchedulingDelayMaxNanos() {
        return snapshot().maxAllKinds();
    }

    @Override
    public long[] getSchedulingDelayBucketBoundsNanos() {
        return BOUNDS.clone();
    }

    @Override
    public long[] getSchedulingDelayBucketCounts() {
        return snapshot().allKinds();
    }

    @Override
    public String[] getSchedulingDelayKinds() {
        return HandOffStamps.KIND_NAMES.clone();
    }

    @Override
    public long[] schedulingDelayBucketCountsOf(String kind) {
        return snapshot().counts[kindIndex(kind)].clone();
    }

    @Override
    public long schedulingDelayPercentileNanos(String kind, double percentile) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile " + percentile + ": expected above 0, at most 100");
        }
        DelayHistogram.Snapshot s = snapshot();
        if ("all".equals(kind)) {
            return DelayHistogram.Snapshot.quantile(s.allKinds(), percentile / 100, s.maxAllKinds());
        }
        int k = kindIndex(kind);
        return DelayHistogram.Snapshot.quantile(s.counts[k], percentile / 100, s.max[k]);
    }

    private static int kindIndex(String kind) {
        int k = Arrays.asList(HandOffStamps.KIND_NAMES).indexOf(kind);
        if (k < 0) {
            throw new IllegalArgumentException("kind " + kind + ": expected one of "
                    + List.of(HandOffStamps.KIND_NAMES) + " (or all, for a percentile)");
        }
        return k;
    }
}
