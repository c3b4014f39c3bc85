package dev.shuttle.bench.server;

import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.VirtualTasks;
import dev.shuttle.bench.metrics.ProcessCpu;
import dev.shuttle.bench.metrics.ProcessSwitches;
import dev.shuttle.bench.metrics.ThreadCpu;
import dev.shuttle.bench.metrics.ThreadSwitches;
import dev.shuttle.bench.timer.TickerSleepers;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * One run of {@link PollerTickersBench} in its own JVM: the load of the {@code Tickers} benchmark ({@link
 * TickerSleepers}, virtual threads each sleeping 1 ms in a loop) in a JVM whose network pollers exist, as in any
 * server. The JDK creates its pollers when a virtual thread first blocks on a socket; under the agent with
 * {@code shuttle.netpoll} on, Shuttle then adopts them and its idle carriers, the one sleeping toward the earliest timer
 * among them, sleep in {@code epoll_wait} instead of a park. A JMH fork never touches a socket, so {@code Tickers}
 * measures the park only; this app measures the same load with the pollers there.
 *
 * <p>Before the sleepers start, a virtual thread accepts a loopback connection and reads a byte from it, each call
 * made only once the other side is known to wait (so both block in the poller), and echoes it to a virtual-thread
 * client blocked reading the answer. With {@code idle connections} above 0 that many connections stay open, each with
 * a virtual thread blocked reading it, as in an idle server; they must still be blocked when the measurement ends.
 *
 * <p>Who polls is checked, not assumed, so that a run cannot silently measure the other path: with {@code pollers}
 * {@code shuttle} no {@code MasterPoller} thread may exist and Shuttle's carriers must have slept in the poll
 * ({@code PollsBlocking} above 0); with {@code jdk} the {@code MasterPoller} thread must exist and, on Shuttle, no
 * carrier may have slept in the poll. The scheduler threads' timer slack is checked as in the JMH trials.
 *
 * <p>Prints one line, {@code RESULT name=value ...}, of what grew during the measured window: {@code timersFired}
 * (the sleepers' wake-ups), {@code elapsedNanos}, process {@code cpuNanos} and the carriers' share of it
 * {@code carrierCpuNanos} ({@link ThreadCpu}; on the JDK default its pool's threads, delay scheduler included),
 * {@code allVoluntary} and
 * {@code allInvoluntary} (every thread's context switches, threads that ended meanwhile included,
 * {@link ProcessSwitches}), each {@link ThreadSwitches.Role}'s, the lateness of the sampled wake-ups beyond 1 ms
 * ({@code latenessSamples}, {@code latenessMeanNanos}, {@code latenessP99Nanos}), {@code jdkPollerThreads} and, on
 * Shuttle, the growth of every numeric attribute of its MXBean ({@code mx.<attribute>}).
 *
 * <p>Usage: {@code PollerTickersApp <sleepers> <warm-up seconds> <measured seconds> <idle connections>
 * <pollers: shuttle|jdk>}.
 */
public final class PollerTickersApp {
    static final String USAGE = "usage: PollerTickersApp <sleepers> <warm-up seconds> <measured seconds>"
            + " <idle connections> <pollers: shuttle|jdk>";
    private static final long WAIT_BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** The round trip's server thread: what it blocks in next. */
    private static final int ACCEPTING = 0;
    private static final int READING = 1;
    private static final int IDLE = 2;

    private PollerTickersApp() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5 || !args[4].equals("shuttle") && !args[4].equals("jdk")) {
            throw new IllegalArgumentException(USAGE);
        }
        int sleepers = Integer.parseInt(args[0]);
        int warmupSeconds = Integer.parseInt(args[1]);
        int measuredSeconds = Integer.parseInt(args[2]);
        int idle = Integer.parseInt(args[3]);
        boolean shuttlePolls = args[4].equals("shuttle");
        if (sleepers < 1 || warmupSeconds < 0 || measuredSeconds < 1 || idle < 0) {
            throw new IllegalArgumentException(USAGE + ": " + String.join(" ", args));
        }
        SchedulerSlack.lowerCurrentThread();
        List<AutoCloseable> open = Collections.synchronizedList(new ArrayList<>());
        try (ServerSocket listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress())) {
            List<Thread> idleReaders = new ArrayList<>();
            for (int i = 0; i < Math.max(1, idle); i++) {
                Thread reader = roundTrip(listener, i < idle, open);
                if (reader != null) {
                    idleReaders.add(reader);
                }
            }
            String line = measure(sleepers, warmupSeconds, measuredSeconds);
            for (Thread reader : idleReaders) {
                if (reader.getState() != Thread.State.WAITING) {
                    throw new IllegalStateException("an idle connection's reader is no longer blocked: "
                            + reader.getState());
                }
            }
            requirePollers(shuttlePolls);
            System.out.println(line);
        } finally {
            for (AutoCloseable c : open) {
                c.close();
            }
        }
        System.exit(0);
    }

    /**
     * One loopback round trip between two virtual threads, each blocking call made once the other side waits: a
     * server thread accepts and echoes a byte, a client connects, sends it and reads the echo. With {@code keepOpen}
     * the connection stays open (its sockets added to {@code open}) and the server thread goes on reading it; that
     * thread is returned once it is blocked in the read. Otherwise both ends close and null is returned.
     */
    private static Thread roundTrip(ServerSocket listener, boolean keepOpen, List<AutoCloseable> open)
            throws Exception {
        VirtualTasks tasks = new VirtualTasks(Thread.ofVirtual().factory());
        AtomicInteger stage = new AtomicInteger();
        Thread server = tasks.start(() -> serve(listener, keepOpen, open, stage));
        awaitBlocked(server, stage, ACCEPTING, "the accept");
        Socket[] client = new Socket[1];
        Thread connect = tasks.start(() -> {
            try {
                client[0] = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        tasks.join(connect);
        open.add(client[0]);
        awaitBlocked(server, stage, READING, "the read");
        Thread ask = tasks.start(() -> {
            try {
                client[0].getOutputStream().write(42);
                if (client[0].getInputStream().read() != 42) {
                    throw new IOException("the echo is not the byte sent");
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        tasks.join(ask);
        if (keepOpen) {
            awaitBlocked(server, stage, IDLE, "the idle read");
            tasks.check();
            return server;
        }
        client[0].close();
        tasks.join(server);
        return null;
    }

    /**
     * Accepts one connection, echoes one byte; with {@code keepOpen} then reads until the client closes, else closes.
     * {@code stage} tells the caller which blocking call comes next.
     */
    private static void serve(ServerSocket listener, boolean keepOpen, List<AutoCloseable> open, AtomicInteger stage) {
        try {
            Socket s = listener.accept();
            open.add(s);
            stage.set(READING);
            InputStream in = s.getInputStream();
            int b = in.read();
            s.getOutputStream().write(b);
            stage.set(IDLE);
            if (keepOpen) {
                while (in.read() >= 0) {
                    // an idle server's reader: nothing is sent until the client closes
                }
            } else {
                s.close();
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until virtual thread {@code t} is parked at {@code stage} {@code at}, at most {@link #WAIT_BOUND_NANOS}. */
    private static void awaitBlocked(Thread t, AtomicInteger stage, int at, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_BOUND_NANOS;
        while (stage.get() != at || t.getState() != Thread.State.WAITING) {
            if (!t.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the loopback round trip's server thread did not block in " + what
                        + " (" + t.getState() + ")");
            }
            Thread.sleep(1);
        }
    }

    /** Runs the sleepers through the warm-up and the measured window; returns the {@code RESULT} line. */
    private static String measure(int threads, int warmupSeconds, int measuredSeconds) throws Exception {
        TickerSleepers sleepers = new TickerSleepers(new VirtualTasks(Thread.ofVirtual().factory()), threads);
        Thread.sleep(TimeUnit.SECONDS.toMillis(warmupSeconds));
        long pid = ProcessHandle.current().pid();
        Map<String, Long> mx0 = LowLoadApp.schedulerCounters();
        ProcessSwitches all0 = ProcessSwitches.of(pid);
        ThreadSwitches roles0 = ThreadSwitches.read();
        Map<ThreadSwitches.Role, Long> roleCpu0 = ThreadCpu.read();
        Histogram lateness = sleepers.lateness(null);    // drops the warm-up's samples
        long fired0 = sleepers.wakeups();
        long cpu0 = ProcessCpu.nanos();
        long start = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(measuredSeconds));
        long fired = sleepers.wakeups() - fired0;
        long cpu = ProcessCpu.nanos() - cpu0;
        long elapsed = System.nanoTime() - start;
        Map<ThreadSwitches.Role, Long> roleCpu = ThreadCpu.read();
        lateness = sleepers.lateness(lateness);
        ThreadSwitches roles = ThreadSwitches.read().since(roles0);
        ThreadSwitches.Counts all = ProcessSwitches.of(pid).since(all0);
        Map<String, Long> mx = LowLoadApp.schedulerCounters();
        SchedulerSlack.requireLowered();
        sleepers.stop();
        StringBuilder line = new StringBuilder("RESULT");
        line.append(" timersFired=").append(fired).append(" elapsedNanos=").append(elapsed);
        line.append(" cpuNanos=").append(cpu);
        line.append(" carrierCpuNanos=").append(roleCpu.get(ThreadSwitches.Role.CARRIER)
                - roleCpu0.get(ThreadSwitches.Role.CARRIER));
        line.append(" allVoluntary=").append(all.voluntary()).append(" allInvoluntary=").append(all.involuntary());
        for (ThreadSwitches.Role role : ThreadSwitches.Role.values()) {
            String name = role.name().toLowerCase(Locale.ROOT);
            line.append(' ').append(name).append("Voluntary=").append(roles.of(role).voluntary());
            line.append(' ').append(name).append("Involuntary=").append(roles.of(role).involuntary());
        }
        line.append(" latenessSamples=").append(lateness.getTotalCount());
        line.append(" latenessMeanNanos=").append(Math.round(lateness.getMean()));
        line.append(" latenessP99Nanos=").append(lateness.getValueAtPercentile(99));
        line.append(" jdkPollerThreads=").append(EchoServerApp.jdkPollerThreads());
        mx.forEach((name, value) -> line.append(" mx.").append(name).append('=')
                .append(value - mx0.getOrDefault(name, 0L)));
        return line.toString();
    }

    /**
     * Fails unless the pollers are driven as {@code shuttlePolls} says: by Shuttle's carriers (no {@code MasterPoller}
     * thread, carriers have slept in the poll) or by the JDK's {@code MasterPoller} thread (and no carrier has).
     */
    static void requirePollers(boolean shuttlePolls) throws Exception {
        long masterPollers = EchoServerApp.jdkPollerThreads();
        long pollsBlocking = LowLoadApp.schedulerCounters().getOrDefault("PollsBlocking", 0L);
        if (shuttlePolls && (masterPollers != 0 || pollsBlocking == 0)) {
            throw new IllegalStateException("Shuttle's carriers were to drive the JDK's pollers, but "
                    + masterPollers + " MasterPoller thread(s) exist and the carriers slept in the poll "
                    + pollsBlocking + " times: the run would not measure the poll path");
        }
        if (!shuttlePolls && (masterPollers == 0 || pollsBlocking != 0)) {
            throw new IllegalStateException("the JDK's MasterPoller thread was to drive its pollers, but "
                    + masterPollers + " MasterPoller thread(s) exist and Shuttle's carriers slept in the poll "
                    + pollsBlocking + " times");
        }
    }
}
