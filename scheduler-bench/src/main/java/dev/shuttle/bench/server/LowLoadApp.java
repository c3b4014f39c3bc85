package dev.shuttle.bench.server;

import com.sun.net.httpserver.HttpServer;
import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.metrics.ProcessCpu;
import dev.shuttle.bench.metrics.ThreadSwitches;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * One run of {@link LowLoadBench} in its own JVM: the JDK's {@code HttpServer} on 127.0.0.1, its platform dispatcher
 * thread handing each request to a new virtual thread, and {@code clients} virtual threads of this same JVM each
 * sending requests one after another over a connection of its own, so that at most {@code clients} requests are in
 * flight: the low load at which a server's carriers go idle between requests and wait for work that the JDK's own
 * platform threads (the master poller, the dispatcher) feed them. Which scheduler runs the virtual threads is decided
 * by the command line alone (the agent or not).
 *
 * <p>The handler's tail: after {@code close()} has sent the answer, the handler counts the request as finished; the
 * client, once it has read the answer, looks whether its request's count is there yet. A carrier that keeps its core
 * runs that statement within nanoseconds of the close; one that lost its core to the dispatcher the close woke does
 * not, so the share of answers that arrive before their handler finished says how often a carrier was descheduled
 * mid-task.
 *
 * <p>Where a tail was late: the handler notes its carrier before and after {@code close()} and how long the close took,
 * so a late tail is told apart as the thread unmounting in the close (another carrier after it) or its carrier losing
 * the core (the same carrier, a slow close).
 *
 * <p>Prints one line, {@code RESULT name=value ...}: the measured requests, their elapsed and process CPU time, the
 * context switches of each {@link ThreadSwitches.Role}, the answers that beat their handler's tail, the closes that
 * moved or were slow and, on Shuttle,
 * the growth of every numeric attribute of the JVM-wide scheduler's MXBean ({@code mx.<attribute>}).
 *
 * <p>Usage: {@code LowLoadApp <clients> <warm-up requests> <measured requests>}.
 */
public final class LowLoadApp {
    private static final ObjectName SCHEDULER = objectName("dev.shuttle:type=ShuttleScheduler,name=default");
    private static final byte[] ANSWER = "ok".getBytes(StandardCharsets.US_ASCII);
    private static final int TIMEOUT_MILLIS = 10_000;
    /** A close that takes longer than this lost its core or its carrier meanwhile: it writes a few bytes. */
    private static final long SLOW_CLOSE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final MethodHandle CURRENT_CARRIER;

    static {
        try {
            CURRENT_CARRIER = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup())
                    .findStatic(Thread.class, "currentCarrierThread", MethodType.methodType(Thread.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private LowLoadApp() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: LowLoadApp <clients> <warm-up requests> <measured requests>");
        }
        int clients = Integer.parseInt(args[0]);
        int warmup = Integer.parseInt(args[1]);
        int requests = Integer.parseInt(args[2]);
        if (clients < 1 || warmup < 0 || requests < clients) {
            throw new IllegalArgumentException("need clients >= 1, warm-up >= 0, measured >= clients: "
                    + String.join(" ", args));
        }
        SchedulerSlack.lowerCurrentThread();
        AtomicLongArray finished = new AtomicLongArray(clients);
        LongAdder movedInClose = new LongAdder();
        LongAdder slowClose = new LongAdder();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        for (int c = 0; c < clients; c++) {
            int client = c;
            server.createContext("/c" + c, exchange -> {
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(200, ANSWER.length);
                Thread carrier = currentCarrier();
                long closing = System.nanoTime();
                try (OutputStream body = exchange.getResponseBody()) {
                    body.write(ANSWER);               // sent as the stream closes: the client may have it from here
                }
                exchange.close();
                finished.incrementAndGet(client);     // the tail: runs after the client may already have its answer
                if (currentCarrier() != carrier) {
                    movedInClose.increment();
                }
                if (System.nanoTime() - closing > SLOW_CLOSE_NANOS) {
                    slowClose.increment();
                }
            });
        }
        server.start();
        int port = server.getAddress().getPort();
        try {
            load(port, clients, warmup, finished);
            movedInClose.reset();
            slowClose.reset();
            Map<String, Long> mxBefore = schedulerCounters();
            ThreadSwitches before = ThreadSwitches.read();
            long cpu = ProcessCpu.nanos();
            long start = System.nanoTime();
            long early = load(port, clients, requests, finished);
            long elapsed = System.nanoTime() - start;
            cpu = ProcessCpu.nanos() - cpu;
            ThreadSwitches switches = ThreadSwitches.read().since(before);
            Map<String, Long> mx = schedulerCounters();
            StringBuilder line = new StringBuilder("RESULT");
            line.append(" requests=").append(requests / clients * clients);
            line.append(" elapsedNanos=").append(elapsed).append(" cpuNanos=").append(cpu);
            line.append(" tailUnfinished=").append(early);
            line.append(" movedInClose=").append(movedInClose.sum()).append(" slowClose=").append(slowClose.sum());
            for (ThreadSwitches.Role role : ThreadSwitches.Role.values()) {
                ThreadSwitches.Counts c = switches.of(role);
                String name = role.name().toLowerCase(java.util.Locale.ROOT);
                line.append(' ').append(name).append("Voluntary=").append(c.voluntary());
                line.append(' ').append(name).append("Involuntary=").append(c.involuntary());
            }
            mx.forEach((name, value) -> line.append(" mx.").append(name).append('=')
                    .append(value - mxBefore.getOrDefault(name, 0L)));
            System.out.println(line);
        } finally {
            server.stop(0);
            executor.shutdownNow();
        }
        System.exit(0);
    }

    /** The carrier thread under the calling virtual thread ({@code Thread.currentCarrierThread}, opened to us). */
    private static Thread currentCarrier() {
        try {
            return (Thread) CURRENT_CARRIER.invokeExact();
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code total} requests spread over {@code clients} virtual threads, each sending its share one after another;
     * returns how many answers arrived before their handler's tail had run.
     */
    private static long load(int port, int clients, int total, AtomicLongArray finished) throws Exception {
        long[] early = new long[clients];
        List<Thread> threads = new ArrayList<>();
        Throwable[] failure = new Throwable[clients];
        for (int c = 0; c < clients; c++) {
            int client = c;
            threads.add(Thread.ofVirtual().start(() -> {
                byte[] request = HttpConnection.request("/c" + client);
                try (HttpConnection conn = new HttpConnection(port, TIMEOUT_MILLIS)) {
                    long done = finished.get(client);
                    for (int i = 0; i < total / clients; i++) {
                        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS);
                        int status = conn.exchange(request, deadline);
                        if (status != 200) {
                            throw new IOException("status " + status);
                        }
                        done++;
                        if (finished.get(client) < done) {
                            early[client]++;
                        }
                    }
                } catch (Throwable e) {
                    failure[client] = e;
                }
            }));
        }
        long sum = 0;
        for (int c = 0; c < clients; c++) {
            threads.get(c).join();
            if (failure[c] != null) {
                throw new IllegalStateException("client " + c + " failed", failure[c]);
            }
            sum += early[c];
        }
        return sum;
    }

    /** Every numeric attribute of Shuttle's JVM-wide scheduler MXBean; empty on the JDK default. */
    static Map<String, Long> schedulerCounters() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, Long> values = new LinkedHashMap<>();
        if (!server.isRegistered(SCHEDULER)) {
            return values;
        }
        for (MBeanAttributeInfo a : server.getMBeanInfo(SCHEDULER).getAttributes()) {
            if (a.getType().equals("long")) {
                values.put(a.getName(), (Long) server.getAttribute(SCHEDULER, a.getName()));
            }
        }
        return values;
    }

    private static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
