package dev.shuttle.bench.server;

import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.metrics.ProcessCpu;
import dev.shuttle.bench.metrics.ThreadSwitches;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server of {@link EchoBench} in its own JVM: a TCP echo server on 127.0.0.1, one virtual thread per connection
 * reading a fixed-size message with blocking socket I/O and writing it back, so that every round trip is one read
 * readiness and one answer, and at low load every request reaches a server whose carriers are idle. Which scheduler
 * runs the virtual threads, and who polls for readiness, is decided by the command line alone.
 *
 * <p>Prints {@code PORT <n>} once it listens, then answers commands on standard input, one a line: {@code measure}
 * takes the starting readings and prints {@code MEASURING}; {@code result} prints {@code RESULT name=value ...} with
 * what grew since: {@code echoes}, process {@code cpuNanos}, each {@link ThreadSwitches.Role}'s voluntary and
 * involuntary context switches, {@code jdkPollerThreads} (the JDK's {@code MasterPoller} threads alive) and, on
 * Shuttle, every numeric attribute of its MXBean ({@code mx.<attribute>}). Ends when standard input closes.
 *
 * <p>Usage: {@code EchoServerApp <message bytes>}.
 */
public final class EchoServerApp {
    private static final LongAdder ECHOES = new LongAdder();

    private EchoServerApp() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 || Integer.parseInt(args[0]) < 1) {
            throw new IllegalArgumentException("usage: EchoServerApp <message bytes, at least 1>");
        }
        int size = Integer.parseInt(args[0]);
        SchedulerSlack.lowerCurrentThread();
        ServerSocket server = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("acceptor").start(() -> accept(server, size));
        System.out.println("PORT " + server.getLocalPort());
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        Readings start = null;
        for (String line; (line = in.readLine()) != null; ) {
            switch (line.strip()) {
                case "measure" -> {
                    start = Readings.take();
                    System.out.println("MEASURING");
                }
                case "result" -> {
                    if (start == null) {
                        throw new IllegalStateException("result before measure");
                    }
                    System.out.println(Readings.take().since(start));
                }
                default -> throw new IllegalArgumentException("unknown command " + line);
            }
            System.out.flush();
        }
        server.close();
        System.exit(0);
    }

    private static void accept(ServerSocket server, int size) {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread.ofVirtual().start(() -> echo(s, size));
            } catch (IOException e) {
                if (!server.isClosed()) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** Echoes whole messages until the client closes its end. */
    private static void echo(Socket s, int size) {
        byte[] message = new byte[size];
        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
            s.setTcpNoDelay(true);
            while (in.readNBytes(message, 0, size) == size) {
                ECHOES.increment();       // before the answer, so that the count is whole once the client has it
                out.write(message);
            }
        } catch (IOException e) {
            // the client went away mid-message: the generator counts what it got back
        }
    }

    /** The JDK's {@code MasterPoller} threads alive: one once its pollers exist, none while Shuttle drives them. */
    static long jdkPollerThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("MasterPoller")).count();
    }

    /** The counters a measurement subtracts. */
    private record Readings(long echoes, long cpuNanos, ThreadSwitches switches, long jdkPollerThreads,
            Map<String, Long> scheduler) {
        static Readings take() throws Exception {
            return new Readings(ECHOES.sum(), ProcessCpu.nanos(), ThreadSwitches.read(),
                    EchoServerApp.jdkPollerThreads(), LowLoadApp.schedulerCounters());
        }

        /** The {@code RESULT} line of what grew from {@code start} to this reading. */
        String since(Readings start) {
            StringBuilder line = new StringBuilder("RESULT");
            line.append(" echoes=").append(echoes - start.echoes);
            line.append(" cpuNanos=").append(cpuNanos - start.cpuNanos);
            ThreadSwitches d = switches.since(start.switches);
            for (ThreadSwitches.Role role : ThreadSwitches.Role.values()) {
                String name = role.name().toLowerCase(Locale.ROOT);
                line.append(' ').append(name).append("Voluntary=").append(d.of(role).voluntary());
                line.append(' ').append(name).append("Involuntary=").append(d.of(role).involuntary());
            }
            line.append(" jdkPollerThreads=").append(jdkPollerThreads);
            scheduler.forEach((name, value) -> line.append(" mx.").append(name).append('=')
                    .append(value - start.scheduler.getOrDefault(name, 0L)));
            return line.toString();
        }
    }
}
