package dev.shuttle.bench.server;

import java.util.Arrays;
import java.util.List;

/**
 * Where a run's slowest requests spent their time. Each answered request's latency, from its intended start to the
 * generator's reading of the whole response, is cut at three moments into four parts:
 * <ul>
 *   <li><b>behind the previous answer</b>: from the intended start to the reading of the connection's previous
 *       response, when that came after the intended start (the queueing an open-loop generator counts);</li>
 *   <li><b>waiting to send</b>: from then (or from the intended start) to the generator's write of the request: the
 *       generator's thread woke late from its wait for the intended start, or waited for a processor;</li>
 *   <li><b>to the handler</b>: from that write to the server's handler being entered ({@link
 *       ServerHandlers#HANDLED_AT}): the bytes in the kernel, the server noticing them (its poller), the connection's
 *       or request's thread waiting to run, and the framework reading and parsing the request;</li>
 *   <li><b>back</b>: from the handler's entry to the generator having read the response: the handler's work, the
 *       response's write, and the generator's thread waking to read it.</li>
 * </ul>
 * A server that hands each request to an executor ({@link JdkServerApp}) also answers when it did
 * ({@link ServerHandlers#DISPATCHED_AT}) and when the request's thread began to run, and then <b>to the handler</b> is
 * cut once more: <b>to the dispatch</b> (the bytes in the kernel and the server's dispatcher thread noticing them),
 * <b>waiting to run</b> (from the hand-off to the executor until the new virtual thread ran: the scheduler's part)
 * and <b>reading</b> (the thread reading and parsing the request until its handler is entered).
 *
 * <p>The parts add up to the latency, so their means over the slowest requests (at or above the run's 99th percentile)
 * say which part a loss in the p99 column comes from. Time behind the previous answer was spent in that answer's
 * own parts; so the same means are also taken over the slowest service times ({@link From#SEND}: from the send to
 * the answer, the last two parts), the requests that made others wait. Only requests answered with the header
 * count, failed and timed-out ones have no handler time; the run's latency histogram still counts those. The
 * moments come from two processes: {@code System.nanoTime} is {@code CLOCK_MONOTONIC} on Linux, one clock for the
 * machine.
 *
 * <p>A {@link Recorder} belongs to one generator thread and fills arrays sized before the run, so recording allocates
 * nothing while the load runs; a generator keeps its recorders from run to run ({@link Recorder#clear}), so that a
 * run allocates none either (LoadGenerator).
 */
final class SlowestRequests {
    /** The most requests a run records, 280 MB of moments: a report step holds under 400,000. */
    static final long MAX_REQUESTS = 5_000_000;
    /** The share of a run's requests, from the slowest, that {@link #of} describes. */
    static final double TAIL = 0.01;

    /** Where a request's time is counted from. */
    enum From {
        /** The request's intended start: its latency, all four parts. */
        INTENDED_START,
        /** The generator's write of the request: its service time, the last two parts; the first two are 0. */
        SEND
    }

    /**
     * Means in nanoseconds over {@code requests} requests; the four parts add up to {@code latency}. {@code
     * toDispatch}, {@code waitingToRun} and {@code reading} add up to {@code toHandler} over the requests whose
     * server sent its dispatch; NaN if none did.
     */
    record Split(int requests, double latency, double behindPrevious, double waitingToSend, double toHandler,
            double back, double toDispatch, double waitingToRun, double reading) {

        static final Split EMPTY = new Split(0, 0, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN);
    }

    private SlowestRequests() {
    }

    /**
     * One generator thread's requests in one run, at most as many as it was sized for (at least one): once full,
     * each later one takes the last place.
     */
    static final class Recorder {
        private final long[] intended;
        private final long[] previous;
        private final long[] sent;
        private final long[] dispatched;
        private final long[] started;
        private final long[] handled;
        private final long[] received;
        private int count;

        /** @throws IllegalArgumentException if {@code capacity} is under 1 */
        Recorder(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("capacity " + capacity + ": a recorder holds at least one request");
            }
            intended = new long[capacity];
            previous = new long[capacity];
            sent = new long[capacity];
            dispatched = new long[capacity];
            started = new long[capacity];
            handled = new long[capacity];
            received = new long[capacity];
        }

        int capacity() {
            return intended.length;
        }

        /** Forgets the requests recorded, for the next run. */
        void clear() {
            count = 0;
        }

        /**
         * One answered request's moments, each a {@link System#nanoTime}; {@code previousAt} is when the connection's
         * previous response was read (any time before {@code intendedAt} for the connection's first request);
         * {@code dispatchedAt} and {@code startedAt} are {@link HttpConnection#NOT_HANDLED} if the server did not
         * send them.
         */
        void record(long intendedAt, long previousAt, long sentAt, long dispatchedAt, long startedAt, long handledAt,
                long receivedAt) {
            // No branch for a full recorder: the JIT would compile the branch a recorder too small to keep anything
            // takes every time (a closed loop's) and trap when a recorder has room; it overwrites its last one.
            int i = Math.min(count, intended.length - 1);
            intended[i] = intendedAt;
            previous[i] = previousAt;
            sent[i] = sentAt;
            dispatched[i] = dispatchedAt;
            started[i] = startedAt;
            handled[i] = handledAt;
            received[i] = receivedAt;
            count = i + 1;
        }

        private long begin(int k, From from) {
            return from == From.SEND ? sent[k] : intended[k];
        }
    }

    /**
     * The split of the slowest {@link #TAIL} of the requests {@code recorders} hold, their time counted {@code from}
     * (at least one request when any was recorded); {@code requests} 0 when none was.
     */
    static Split of(List<Recorder> recorders, From from) {
        int n = 0;
        for (Recorder r : recorders) {
            n += r.count;
        }
        if (n == 0) {
            return Split.EMPTY;
        }
        long[] latencies = new long[n];
        int i = 0;
        for (Recorder r : recorders) {
            for (int k = 0; k < r.count; k++) {
                latencies[i++] = r.received[k] - r.begin(k, from);
            }
        }
        Arrays.sort(latencies);
        long threshold = latencies[Math.max(0, n - Math.max(1, (int) Math.round(n * TAIL)))];
        int slow = 0;
        double latency = 0;
        double behind = 0;
        double waiting = 0;
        double toHandler = 0;
        double back = 0;
        int dispatchedSlow = 0;
        double toDispatch = 0;
        double waitingToRun = 0;
        double reading = 0;
        for (Recorder r : recorders) {
            for (int k = 0; k < r.count; k++) {
                long begin = r.begin(k, from);
                if (r.received[k] - begin < threshold) {
                    continue;
                }
                slow++;
                latency += r.received[k] - begin;
                long free = from == From.SEND ? begin : Math.max(begin, r.previous[k]);
                behind += free - begin;
                waiting += r.sent[k] - free;
                toHandler += r.handled[k] - r.sent[k];
                back += r.received[k] - r.handled[k];
                if (r.dispatched[k] != HttpConnection.NOT_HANDLED) {
                    dispatchedSlow++;
                    toDispatch += r.dispatched[k] - r.sent[k];
                    waitingToRun += r.started[k] - r.dispatched[k];
                    reading += r.handled[k] - r.started[k];
                }
            }
        }
        double d = dispatchedSlow == 0 ? Double.NaN : dispatchedSlow;
        return new Split(slow, latency / slow, behind / slow, waiting / slow, toHandler / slow, back / slow,
                toDispatch / d, waitingToRun / d, reading / d);
    }
}
