package dev.shuttle.bench.server;

import dev.shuttle.bench.metrics.ProcessCpu;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
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
 * Every run ends by {@code duration + GRACE}: reads time out, and a connection still busy then is closed and its
 * unsent requests counted as not completed.
 */
final class LoadGenerator {
    static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(2);

    /**
     * What one run measured; {@code latency} in nanoseconds. {@code firstError} describes one failed request (a
     * status other than 200, or what the connection threw), empty when none failed.
     */
    record Result(long planned, long completed, long errors, long nanos, Histogram latency, long generatorCpuNanos,
            String firstError) {
        double completedPerSecond() {
            return completed * 1e9 / nanos;
        }
    }

    private final int port;
    private final int connections;

    LoadGenerator(int port, int connections) {
        this.port = port;
        this.connections = connections;
    }

    Result openLoop(Endpoint endpoint, double rate, long durationNanos) throws InterruptedException {
        return run(endpoint, rate, durationNanos);
    }

    Result closedLoop(Endpoint endpoint, long durationNanos) throws InterruptedException {
        return run(endpoint, 0, durationNanos);
    }

    /** {@code rate} 0 means closed loop. */
    private Result run(Endpoint endpoint, double rate, long durationNanos) throws InterruptedException {
        long cpu0 = ProcessCpu.nanos();
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(20);
        long end = start + durationNanos;
        List<Sender> senders = new ArrayList<>();
        for (int k = 0; k < connections; k++) {
            Sender s = new Sender(endpoint, rate == 0 ? -1 : (long) (k * 1e9 / rate),
                    rate == 0 ? 0 : (long) (connections * 1e9 / rate), start, end);
            s.thread = Thread.ofPlatform().name("load-" + k).daemon().start(s);
            senders.add(s);
        }
        long hardEnd = end + GRACE_NANOS;
        for (Sender s : senders) {
            long left = hardEnd - System.nanoTime();
            if (left <= 0 || !s.thread.join(java.time.Duration.ofNanos(left))) {
                s.abort();
            }
        }
        Histogram all = new Histogram(3);
        long planned = 0;
        long completed = 0;
        long errors = 0;
        String firstError = "";
        for (Sender s : senders) {
            s.thread.join();
            all.add(s.latency);
            planned += s.planned;
            completed += s.completed;
            errors += s.errors;
            if (firstError.isEmpty() && s.firstError != null) {
                firstError = s.thread.getName() + ": " + s.firstError;
            }
        }
        long wall = Math.max(1, Math.min(System.nanoTime(), hardEnd) - start);
        long measured = rate == 0 ? durationNanos : Math.max(durationNanos, wall);
        return new Result(planned, completed, errors, measured, all, ProcessCpu.nanos() - cpu0, firstError);
    }

    private final class Sender implements Runnable {
        final Histogram latency = new Histogram(3);
        final byte[] request;
        final long offset;
        final long period;
        final long start;
        final long end;
        long planned;
        long completed;
        long errors;
        String firstError;
        Thread thread;
        private volatile HttpConnection connection;
        private volatile boolean aborted;

        Sender(Endpoint endpoint, long offset, long period, long start, long end) {
            this.request = HttpConnection.request(endpoint.path());
            this.offset = offset;
            this.period = period;
            this.start = start;
            this.end = end;
        }

        @Override
        public void run() {
            boolean open = offset >= 0;
            long intended = start + Math.max(0, offset);
            boolean inFlight = false;
            try {
                connection = new HttpConnection(port, (int) TimeUnit.NANOSECONDS.toMillis(GRACE_NANOS));
                waitUntil(start);
                while (!aborted) {
                    if (open) {
                        if (intended >= end) {
                            break;
                        }
                        planned++;
                        inFlight = true;
                        waitUntil(intended);
                    } else {
                        intended = System.nanoTime();
                        if (intended >= end) {
                            break;
                        }
                        planned++;
                    }
                    int status = connection.exchange(request);
                    if (status == 200) {
                        completed++;
                        latency.recordValue(Math.max(0, System.nanoTime() - intended));
                    } else {
                        errors++;
                        firstError = firstError != null ? firstError : "status " + status + " after " + completed
                                + " requests";
                    }
                    intended += period;
                    inFlight = false;
                }
            } catch (IOException | RuntimeException e) {
                if (!aborted) {
                    errors++;
                    firstError = firstError != null ? firstError : e + " after " + completed + " requests";
                }
                if (inFlight) {
                    intended += period;
                }
            } finally {
                closeQuietly();
            }
            if (open) {
                // Requests this connection never got to send before the end still count as planned.
                for (; intended < end; intended += period) {
                    planned++;
                }
            }
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

        private void waitUntil(long deadline) {
            long left;
            while ((left = deadline - System.nanoTime()) > 0 && !aborted) {
                LockSupport.parkNanos(left);
            }
        }
    }
}
