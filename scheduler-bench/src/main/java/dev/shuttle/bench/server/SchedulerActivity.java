package dev.shuttle.bench.server;

import dev.shuttle.scheduler.ShuttleSchedulerMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * What Shuttle's scheduler did over one run, from the cumulative counters of its MXBean, and the line in which the
 * server's {@link ServerHandlers#SCHEDULER} sends them. Server CPU per request alone does not say whether Shuttle's
 * CPU went to the requests or to carriers waking, searching and parking again; these counters per request do. The
 * line is one {@code name=value} pair per component, named as the component, separated by single spaces:
 *
 * <pre>tasksRun=5100 steals=40 parks=2600 wakeUps=2590 emptyWakeUps=900 handOffs=3 monitorRetakes=1 ...</pre>
 *
 * @param carrierThreads a gauge among counters: the carriers alive at the reading, in a difference the later one's
 */
record SchedulerActivity(long tasksRun, long steals, long parks, long wakeUps, long emptyWakeUps, long handOffs,
        long monitorRetakes, long monitorRescues, long carrierThreads) {
    private static final List<String> NAMES = List.of("tasksRun", "steals", "parks", "wakeUps", "emptyWakeUps",
            "handOffs", "monitorRetakes", "monitorRescues", "carrierThreads");
    private static final int CARRIER_THREADS = NAMES.indexOf("carrierThreads");

    /** Read getter by getter, so the values may disagree by the events of the microseconds the reading takes. */
    static SchedulerActivity of(ShuttleSchedulerMXBean bean) {
        return new SchedulerActivity(bean.getTasksRun(), bean.getSteals(), bean.getParks(), bean.getWakeUps(),
                bean.getEmptyWakeUps(), bean.getHandOffs(), bean.getMonitorRetakes(), bean.getMonitorRescues(),
                bean.getCarrierThreads());
    }

    private static SchedulerActivity of(long[] v) {
        return new SchedulerActivity(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
    }

    private long[] values() {
        return new long[] {tasksRun, steals, parks, wakeUps, emptyWakeUps, handOffs, monitorRetakes, monitorRescues,
            carrierThreads};
    }

    String format() {
        long[] v = values();
        List<String> pairs = new ArrayList<>();
        for (int i = 0; i < v.length; i++) {
            pairs.add(NAMES.get(i) + "=" + v[i]);
        }
        return String.join(" ", pairs);
    }

    /**
     * @throws IllegalArgumentException quoting the line and saying what is wrong, if it is not every name once, each
     *     {@code =} a whole number of 0 or more, separated by single spaces
     */
    static SchedulerActivity parse(String line) {
        long[] v = new long[NAMES.size()];
        boolean[] seen = new boolean[NAMES.size()];
        for (String pair : line.split(" ", -1)) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            int i = NAMES.indexOf(name);
            if (eq < 0 || i < 0) {
                throw malformed(line, "`" + pair + "` is not name=value with a name of " + NAMES);
            }
            if (seen[i]) {
                throw malformed(line, name + " twice");
            }
            seen[i] = true;
            String value = pair.substring(eq + 1);
            try {
                v[i] = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw malformed(line, name + " is not a whole number: " + value);
            }
            if (v[i] < 0) {
                throw malformed(line, name + " is negative: " + value);
            }
        }
        for (int i = 0; i < seen.length; i++) {
            if (!seen[i]) {
                throw malformed(line, "no " + NAMES.get(i));
            }
        }
        return of(v);
    }

    private static IllegalArgumentException malformed(String line, String why) {
        return new IllegalArgumentException("malformed scheduler activity `" + line + "`: " + why);
    }

    /**
     * The counters' growth since {@code earlier}, with this reading's carrier threads.
     *
     * @throws IllegalArgumentException naming the counter, if one went down: {@code earlier} was not an earlier
     *     reading of the same scheduler
     */
    SchedulerActivity since(SchedulerActivity earlier) {
        long[] now = values();
        long[] then = earlier.values();
        for (int i = 0; i < now.length; i++) {
            if (i == CARRIER_THREADS) {
                continue;
            }
            if (now[i] < then[i]) {
                throw new IllegalArgumentException(NAMES.get(i) + " went down from " + then[i] + " to " + now[i]
                        + ": not an earlier reading of the same scheduler");
            }
            now[i] -= then[i];
        }
        return of(now);
    }

    double wakeUpsPerRequest(long requests) {
        return perRequest(wakeUps, requests);
    }

    double emptyWakeUpsPerRequest(long requests) {
        return perRequest(emptyWakeUps, requests);
    }

    double stealsPerRequest(long requests) {
        return perRequest(steals, requests);
    }

    double parksPerRequest(long requests) {
        return perRequest(parks, requests);
    }

    /** The share of wake-ups that were empty, in percent; NaN without a wake-up. */
    double emptyWakeUpPercent() {
        return wakeUps == 0 ? Double.NaN : 100.0 * emptyWakeUps / wakeUps;
    }

    /** NaN without a request, as the report's other per-request values. */
    private static double perRequest(long count, long requests) {
        return requests == 0 ? Double.NaN : (double) count / requests;
    }
}
