package dev.shuttle.bench.server;

import dev.shuttle.bench.metrics.ProcessCpu;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;

/**
 * Drives one endpoint over {@code connections} keep-alive connections, one platform thread each, for a bounded time.
 *
 * <ul>
 *   <li>{@link #openLoop}: a fixed request rate, as wrk2. Connection k sends at {@code start + (k + j * connections)
 *       / rate}; when a response comes back late the next request goes at once, and every latency is measured from
 *       the request's intended start, so time spent queueing behind a slow response counts (no coordinated
 *       omission).</li>
 *   <li>{@link #closedLoop}: each connection sends its next request as soon as the last one is answered; the
 *       completed rate is the server's maximum throughput at that concurrency.</li>
 * </ul>
 * As a load tool does, a run carries on past a bad request instead of stopping: a request that gets a status other
 * than 200 or a broken connection has failed, one not answered within the request timeout of being sent (connecting
 * included) has timed out. Either way its latency is recorded up to then, from its intended start, so a stalled
 * server's wait is not dropped from the histogram; the connection is replaced and the schedule goes on.
 * A connection behind its schedule stops sending {@link #GRACE_NANOS} after the run's end, and what it has not sent
 * by then counts as planned, not completed; every request ends within its timeout, so a run ends by
 * {@link #boundNanos}.
 *
 * <p>An open loop may be led in: it sends at its rate from the start, but only the requests meant to start after
 * the lead-in are measured. The lead-in runs on the same threads and schedule as the window, so nothing changes
 * where the window begins; as a separate run before it, the end of one run's threads, the start of the next one's
 * and a collection in this JVM left a gap, and the window's first requests went out late into the backlog it left
 * (docs/design.md, "Measuring a change").
 *
 * <p>Connections outlive a run: connection k of a run is the one connection k of the run before left open, as a
 * client that keeps a pool of keep-alive connections does. Opened afresh for each run, the 64 connections' opening
 * (and the server's start of their threads and end of the old ones) fell in the run's first 500 ms and held half of
 * its slowest 1 % (docs/design.md, "Measuring a change"), so a step's p99 measured that more than the load. One run at
 * a time; {@link #close} closes them.
 */
final class LoadGenerator implements AutoCloseable {
    static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** Time for a sender's thread to see its last request's timeout and end; not waited for I/O. */
    private static final long JOIN_MARGIN_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long START_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    /** A run's two parts, as a sender indexes what it keeps of its requests. */
    private static final int LEAD_IN = 0;
    private static final int WINDOW = 1;

    /**
     * What one run measured; {@code latency} in nanoseconds, one value for every request sent, whether it completed
     * (status 200), {@code failed} or {@code timedOut}. {@code firstFailure} describes one request that failed or
     * timed out, empty when none did. {@code slowest} splits the latency of the slowest answered requests,
     * {@code slowestServed} the service time of those slowest from their send (open loop only, up to {@link
     * SlowestRequests#MAX_REQUESTS} planned: both hold no requests after a closed loop or a longer run). All of these
     * are the window's; {@code leadInCompleted} counts the requests of the lead-in answered with 200, and
     * {@code generatorCpuNanos} is over the lead-in and the window.
     */
    record Result(long planned, long completed, long failed, long timedOut, long nanos, Histogram latency,
            long leadInCompleted, long generatorCpuNanos, String firstFailure, SlowestRequests.Split slowest,
            SlowestRequests.Split slowestServed) {
        double completedPerSecond() {
            return completed * 1e9 / nanos;
        }

        /** The requests completed over the lead-in and the window, which CPU read around the run is shared by. */
        long completedWithLeadIn() {
            return leadInCompleted + completed;
        }

        /** Requests that failed or timed out. */
        long failures() {
            return failed + timedOut;
        }
    }

    private final int port;
    private final int connections;
    /** By sender: the open connection the last run left, or null. Read and written only by the caller of run. */
    private final HttpConnection[] kept;
    /**
     * By sender and part of a run ({@link #LEAD_IN}, {@link #WINDOW}): the recorders of the last run, reused while
     * large enough, so that a run allocates no recorder. Caller-owned, as {@link #kept}.
     */
    private final SlowestRequests.Recorder[][] recorders;
    private final long requestTimeoutNanos;

    /** {@code requestTimeoutNanos} at least 1 ms: a socket's timeout is in milliseconds, and 0 would wait forever. */
    LoadGenerator(int port, int connections, long requestTimeoutNanos) {
        if (requestTimeoutNanos < TimeUnit.MILLISECONDS.toNanos(1)) {
            throw new IllegalArgumentException("request timeout " + requestTimeoutNanos + " ns: under 1 ms");
        }
        this.port = port;
        this.connections = connections;
        this.requestTimeoutNanos = requestTimeoutNanos;
        this.kept = new HttpConnection[connections];
        this.recorders = new SlowestRequests.Recorder[connections][2];
    }

    /** Between one sender's requests, open loop; 0 for a closed loop ({@code rate} 0). */
    private long period(double rate) {
        return rate == 0 ? 0 : (long) (connections * 1e9 / rate);
    }

    /**
     * What runs on the caller's thread as a run's measured window starts, amid the load: something quick and local,
     * such as telling a profiler to attach. Reading the server there disturbed the window (ServerBench#measure).
     */
    interface WindowStart {
        WindowStart NOTHING = () -> {
        };

        void run() throws IOException;
    }

    /** Open loop at {@code rate}, all of it measured. */
    Result openLoop(Endpoint endpoint, double rate, long durationNanos) throws InterruptedException, IOException {
        return run(endpoint, rate, 0, durationNanos, WindowStart.NOTHING);
    }

    /**
     * Open loop at {@code rate} for {@code leadInNanos} and then {@code durationNanos}, on the same threads and
     * schedule; only the second part is measured, and {@code atStart} runs between the two.
     *
     * @throws IOException what {@code atStart} threw; the senders are stopped first
     */
    Result openLoop(Endpoint endpoint, double rate, long leadInNanos, long durationNanos, WindowStart atStart)
            throws InterruptedException, IOException {
        return run(endpoint, rate, leadInNanos, durationNanos, atStart);
    }

    Result closedLoop(Endpoint endpoint, long durationNanos) throws InterruptedException, IOException {
        return run(endpoint, 0, 0, durationNanos, WindowStart.NOTHING);
    }

    /** The longest a run of {@code leadInNanos} and {@code durationNanos} takes, from the call to its return. */
    long boundNanos(long leadInNanos, long durationNanos) {
        return START_DELAY_NANOS + leadInNanos + durationNanos + GRACE_NANOS + requestTimeoutNanos
                + JOIN_MARGIN_NANOS;
    }

    /** Closes the connections the last run left open. */
    @Override
    public void close() {
        for (int k = 0; k < connections; k++) {
            HttpConnection c = kept[k];
            kept[k] = null;
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // the generator is done with it either way
                }
            }
        }
    }

    /**
     * {@code rate} 0 means closed loop. The senders start at {@code begin}; the window measured is from {@code start},
     * the lead-in later, to {@code end}.
     */
    private Result run(Endpoint endpoint, double rate, long leadInNanos, long durationNanos, WindowStart atStart)
            throws InterruptedException, IOException {
        // Seven longs a request: a run longer than the bound (a long SteadyLoad) goes without the split.
        boolean splits = rate > 0 && (leadInNanos + durationNanos) * rate / 1e9 <= SlowestRequests.MAX_REQUESTS;
        for (int k = 0; k < connections; k++) {
            recorders[k][LEAD_IN] = recorderFor(recorders[k][LEAD_IN], splits, leadInNanos, rate);
            recorders[k][WINDOW] = recorderFor(recorders[k][WINDOW], splits, durationNanos, rate);
        }
        long cpu0 = ProcessCpu.nanos();
        long begin = System.nanoTime() + START_DELAY_NANOS;
        long start = begin + leadInNanos;
        long end = start + durationNanos;
        List<Sender> senders = new ArrayList<>();
        for (int k = 0; k < connections; k++) {
            long offset = rate == 0 ? -1 : (long) (k * 1e9 / rate);
            Sender s = new Sender(endpoint, offset, period(rate), begin, start, end, recorders[k], kept[k]);
            s.thread = Thread.ofPlatform().name("load-" + k).daemon().start(s);
            senders.add(s);
        }
        long hardEnd = end + GRACE_NANOS + requestTimeoutNanos + JOIN_MARGIN_NANOS;
        try {
            waitUntil(start, () -> false);
            atStart.run();
        } catch (IOException | RuntimeException e) {
            for (Sender s : senders) {
                s.abort();
            }
            for (Sender s : senders) {
                s.thread.join();
            }
            throw e;
        }
        for (Sender s : senders) {
            long left = hardEnd - System.nanoTime();
            if (left <= 0 || !s.thread.join(java.time.Duration.ofNanos(left))) {
                s.abort();
            }
        }
        Histogram all = new Histogram(3);
        long planned = 0;
        long completed = 0;
        long leadInCompleted = 0;
        long failed = 0;
        long timedOut = 0;
        String firstFailure = "";
        List<SlowestRequests.Recorder> windowRecorders = new ArrayList<>();
        for (int k = 0; k < connections; k++) {
            Sender s = senders.get(k);
            s.thread.join();
            // An aborted sender's connection is closed; a replaced one's is null.
            kept[k] = s.aborted ? null : s.connection;
            all.add(s.latency[WINDOW]);
            planned += s.planned[WINDOW];
            completed += s.completed[WINDOW];
            leadInCompleted += s.completed[LEAD_IN];
            failed += s.failed[WINDOW];
            timedOut += s.timedOut[WINDOW];
            windowRecorders.add(recorders[k][WINDOW]);
            if (firstFailure.isEmpty() && s.firstFailure[WINDOW] != null) {
                firstFailure = s.thread.getName() + ": " + s.firstFailure[WINDOW];
            }
        }
        long wall = Math.max(1, Math.min(System.nanoTime(), hardEnd) - start);
        long measured = rate == 0 ? durationNanos : Math.max(durationNanos, wall);
        return new Result(planned, completed, failed, timedOut, measured, all, leadInCompleted,
                ProcessCpu.nanos() - cpu0,
                firstFailure, splits ? SlowestRequests.of(windowRecorders, SlowestRequests.From.INTENDED_START)
                        : SlowestRequests.Split.EMPTY,
                splits ? SlowestRequests.of(windowRecorders, SlowestRequests.From.SEND) : SlowestRequests.Split.EMPTY);
    }

    /**
     * {@code old}, emptied, if it can hold the requests an open-loop sender sends at {@code rate} in {@code nanos}
     * (one per period), else a new one that can; one that holds a single request, which every request then
     * overwrites, if {@code splits} is false.
     */
    private SlowestRequests.Recorder recorderFor(SlowestRequests.Recorder old, boolean splits, long nanos,
            double rate) {
        int capacity = !splits ? 1 : (int) Math.ceilDiv(nanos, Math.max(1, period(rate))) + 1;
        if (old == null || old.capacity() < capacity) {
            return new SlowestRequests.Recorder(capacity);
        }
        old.clear();
        return old;
    }

    /**
     * One connection's requests. Those meant to start before the window's {@code start} are the lead-in: sent on the
     * same schedule, so that the window begins in the steady state of its rate and not in the change to it (from the
     * run before, or from idle while threads start), and kept apart from the window's.
     *
     * <p>Kept apart by index, {@link #LEAD_IN} or {@link #WINDOW}, not by a branch: a request of either part runs the
     * same code, counts, histogram and recorder included. Code the JIT compiled while only the lead-in ran had no path
     * for the window's first request, and each of the 64 senders stopped there to deoptimise as the window began.
     */
    private final class Sender implements Runnable {
        /** By part: the latency of every request sent, and what became of them. */
        final Histogram[] latency = {new Histogram(3), new Histogram(3)};
        final long[] planned = new long[2];
        final long[] completed = new long[2];
        final long[] failed = new long[2];
        final long[] timedOut = new long[2];
        final String[] firstFailure = new String[2];
        final SlowestRequests.Recorder[] recorder;
        final byte[] request;
        final long offset;
        final long period;
        final long begin;
        final long start;
        final long end;
        Thread thread;
        /** When this sender's last request ended (answered, failed or timed out); the run's begin before it has. */
        private long lastReceived;
        private volatile HttpConnection connection;
        private volatile boolean aborted;
        /** Made once: a sender waits before every request. */
        private final BooleanSupplier isAborted = () -> aborted;

        Sender(Endpoint endpoint, long offset, long period, long begin, long start, long end,
                SlowestRequests.Recorder[] recorder, HttpConnection connection) {
            this.recorder = recorder;
            this.connection = connection;
            this.request = HttpConnection.request(endpoint.path());
            this.offset = offset;
            this.period = period;
            this.begin = begin;
            this.start = start;
            this.end = end;
            this.lastReceived = begin;
        }

        /** {@link #WINDOW} for a request meant to start at or after {@code start}, else {@link #LEAD_IN}; no branch. */
        private int part(long intended) {
            return (int) (~(intended - start) >>> 63);
        }

        @Override
        public void run() {
            boolean open = offset >= 0;
            long intended = begin + Math.max(0, offset);
            waitUntil(begin, isAborted);
            while (!aborted) {
                if (open) {
                    if (intended >= end || System.nanoTime() - end >= GRACE_NANOS) {
                        break;
                    }
                    waitUntil(intended, isAborted);
                } else {
                    intended = System.nanoTime();
                    if (intended >= end) {
                        break;
                    }
                }
                int part = part(intended);
                planned[part]++;
                send(intended, part);
                intended += period;
            }
            if (open) {
                // Requests this connection never got to send before the end still count as planned.
                for (; intended < end; intended += period) {
                    planned[part(intended)]++;
                }
            }
        }

        /** One request, on a new connection if there is none yet or the last one broke or timed out. */
        private void send(long intended, int part) {
            long deadline = System.nanoTime() + requestTimeoutNanos;
            try {
                HttpConnection c = connection;
                if (c == null) {
                    c = new HttpConnection(port, (int) TimeUnit.NANOSECONDS.toMillis(requestTimeoutNanos));
                    connection = c;
                    if (aborted) {
                        closeQuietly();
                        return;
                    }
                }
                long previous = lastReceived;
                long sent = System.nanoTime();
                int status = c.exchange(request, deadline);
                long received = ended(intended, part);
                if (status == 200) {
                    completed[part]++;
                    if (c.handledAt() != HttpConnection.NOT_HANDLED) {
                        recorder[part].record(intended, previous, sent, c.dispatchedAt(), c.startedAt(),
                                c.handledAt(), received);
                    }
                } else {
                    failed[part]++;
                    noteFailure(part, "status " + status);
                }
            } catch (SocketTimeoutException e) {
                ended(intended, part);
                timedOut[part]++;
                noteFailure(part, "no answer within " + TimeUnit.NANOSECONDS.toMillis(requestTimeoutNanos) + " ms");
                replaceConnection();
            } catch (IOException | RuntimeException e) {
                if (aborted) {
                    return;
                }
                ended(intended, part);
                failed[part]++;
                noteFailure(part, e.toString());
                replaceConnection();
            }
        }

        /** Returns the {@link System#nanoTime} it took as the request's end, which frees the connection. */
        private long ended(long intended, int part) {
            long now = System.nanoTime();
            latency[part].recordValue(Math.max(0, now - intended));
            lastReceived = now;
            return now;
        }

        private void noteFailure(int part, String what) {
            if (firstFailure[part] == null) {
                firstFailure[part] = what + " after " + completed[part] + " completed requests";
            }
        }

        /** The old connection may still deliver the late response, which the next request would take for its own. */
        private void replaceConnection() {
            closeQuietly();
            connection = null;
        }

        void abort() {
            aborted = true;
            closeQuietly();
        }

        private void closeQuietly() {
            HttpConnection c = connection;
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // closing to end the run; nothing more to do
                }
            }
        }
    }

    private static void waitUntil(long deadline, BooleanSupplier stop) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0 && !stop.getAsBoolean()) {
            LockSupport.parkNanos(left);
        }
    }
}
