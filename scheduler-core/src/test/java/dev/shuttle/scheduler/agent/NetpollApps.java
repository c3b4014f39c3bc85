package dev.shuttle.scheduler.agent;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.shuttle.scheduler.ShuttleScheduler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Blocking network I/O from virtual threads, run by {@link NetpollIT} in a child JVM under the agent: on the JDK's
 * default scheduler, on Shuttle with {@code shuttle.netpoll=off} (the JDK's poller threads deliver readiness) and on
 * Shuttle with netpoll on (carriers poll). Like {@link AgentApps}, it prints one {@code ok <check>: <detail>} or
 * {@code FAIL <check>: <detail>} line per check, {@code info <what>: <value>} lines for what it measured but cannot
 * bound, and exits 0 only if every check passed.
 *
 * <p>Usage: {@code NetpollApps io <connections>} (every blocking operation, readiness, timeouts, interrupt and close
 * while blocked, a {@code Selector}, then {@code connections} request/response connections, all while a virtual
 * thread ticks every millisecond) or {@code NetpollApps compute <wakes>} (two virtual threads spin while a reader is
 * woken by readiness {@code wakes} times). System properties read: {@code shuttle.netpoll} (on a Shuttle scheduler, whether
 * Shuttle's carriers must have taken over the JDK's pollers).
 *
 * <p>Bounds on time are margins a loaded 2-core machine cannot break (a tick gap of 1 s, a wake within 2 s); what the
 * scheduler should achieve (a tick every millisecond, a wake within the monitor's 10 ms) is printed as {@code info}.
 */
public final class NetpollApps {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final long BLOCKED_WITHIN_MILLIS = 10_000;
    private static final long END_WITHIN_MILLIS = 10_000;
    private static final long TICK_GAP_BOUND_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long WAKE_BOUND_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** A small send buffer, so that a writer fills it with little data and blocks for POLLOUT. */
    private static final int BUFFER = 16 * 1024;
    /**
     * The peer's receive buffer: small, so the writer blocks after little data, but above loopback's 64 KiB segment
     * size, else the receiver advertises no window until the sender's persist timer probes (seconds per MiB).
     */
    private static final int RECEIVE_BUFFER = 256 * 1024;

    private final List<String> failures = new ArrayList<>();

    private NetpollApps() {
    }

    /** An operation that blocks, run in a virtual thread. */
    interface Blocking {
        void run() throws Exception;
    }

    public static void main(String[] args) throws Exception {
        System.out.println("main started");
        NetpollApps app = new NetpollApps();
        switch (args[0]) {
            case "io" -> app.io(Integer.parseInt(args[1]));
            case "compute" -> app.compute(Integer.parseInt(args[1]));
            default -> throw new IllegalArgumentException(args[0]);
        }
        app.pollers();
        app.noRescues();
        System.out.flush();
        System.exit(app.failures.isEmpty() ? 0 : 3);
    }

    private void io(int connections) throws Exception {
        Ticker ticker = Ticker.start();
        timed("sockets", this::sockets);
        timed("channels", this::channels);
        timed("selector", this::selector);
        timed("connections", () -> manyConnections(connections));
        ticker.stop();
        check("a virtual thread sleeping 1 ms kept ticking during all of it (gap bound 1 s)",
                ticker.maxGapNanos() < TICK_GAP_BOUND_NANOS && ticker.ticks() > 100, ticker);
        info("ticker", ticker);
    }

    // ---------------------------------------------------------------------------------------------------- sockets

    private void sockets() throws Exception {
        try (ServerSocket listener = listen(50)) {
            // accept, without and with a timeout
            Socket[] accepted = new Socket[1];
            Thread acceptor = Thread.ofVirtual().start(() -> accepted[0] = call(listener::accept));
            awaitBlocked(acceptor);
            try (Socket client = new Socket(LOOPBACK, listener.getLocalPort())) {
                join(acceptor);
                check("ServerSocket.accept wakes for a connection", accepted[0] != null, accepted[0]);
                accepted[0].close();
            }
            listener.setSoTimeout(100);
            expectTimeout("ServerSocket.accept with SO_TIMEOUT", () -> listener.accept().close());
            listener.setSoTimeout(0);

            // read, without and with a timeout
            try (Socket a = new Socket(LOOPBACK, listener.getLocalPort()); Socket b = listener.accept()) {
                int[] got = {-2};
                Thread reader = Thread.ofVirtual().start(() -> got[0] = call(() -> a.getInputStream().read()));
                awaitBlocked(reader);
                b.getOutputStream().write(42);
                join(reader);
                check("Socket read wakes for data", got[0] == 42, got[0]);
                a.setSoTimeout(100);
                expectTimeout("Socket read with SO_TIMEOUT", () -> a.getInputStream().read());
                b.getOutputStream().write(43);
                inVirtual("the socket reads after a timeout", () -> check("the socket reads after a timeout",
                        a.getInputStream().read() == 43, "read 43"));
            }

            // write that fills the send buffer, then a slow reader drains it
            try (Socket a = new Socket(); Socket b = connectedPair(listener, a)) {
                fillThenDrain("Socket write", a.getOutputStream()::write, b.getInputStream());
            }
            // connect, without and with a timeout
            connect();

            // interrupt and close while blocked: read, write, accept
            for (boolean interrupt : new boolean[] {true, false}) {
                String how = interrupt ? "interrupt" : "close";
                Socket a = new Socket(LOOPBACK, listener.getLocalPort());
                try (Socket b = listener.accept()) {
                    blockedThen(how, "Socket read", () -> a.getInputStream().read(), a, interrupt,
                            SocketException.class);
                }
                Socket w = new Socket();
                try (Socket peer = connectedPair(listener, w)) {
                    OutputStream out = w.getOutputStream();
                    blockedThen(how, "Socket write (full send buffer)", () -> {
                        byte[] chunk = new byte[BUFFER];
                        while (true) {
                            out.write(chunk);
                        }
                    }, w, interrupt, SocketException.class);
                }
                ServerSocket other = listen(50);
                blockedThen(how, "ServerSocket.accept", other::accept, other, interrupt, SocketException.class);
            }
        }
    }

    /**
     * Connect without a timeout to a listener; with a timeout to a listener whose accept queue is full, where Linux
     * drops the SYN and the connect waits; and interrupt and close while a connect waits there.
     */
    private void connect() throws Exception {
        try (ServerSocket open = listen(50)) {
            Socket[] client = new Socket[1];
            inVirtual("Socket connect", () -> client[0] = new Socket(LOOPBACK, open.getLocalPort()));
            check("Socket connect", client[0] != null && client[0].isConnected(), client[0]);
            client[0].close();
        }
        try (ServerSocket full = listen(0)) {
            List<Socket> queued = fillAcceptQueue(full);
            try {
                long start = System.nanoTime();
                expectTimeout("Socket connect with a timeout (accept queue full)",
                        () -> new Socket().connect(full.getLocalSocketAddress(), 200));
                info("connect timeout of 200 ms took ms", (System.nanoTime() - start) / 1_000_000);
                for (boolean interrupt : new boolean[] {true, false}) {
                    String how = interrupt ? "interrupt" : "close";
                    Socket s = new Socket();
                    blockedThen(how, "Socket connect", () -> s.connect(full.getLocalSocketAddress()), s, interrupt,
                            SocketException.class);
                    SocketChannel ch = SocketChannel.open();
                    blockedThen(how, "SocketChannel.connect", () -> ch.connect(full.getLocalSocketAddress()), ch,
                            interrupt, interrupt ? ClosedByInterruptException.class : AsynchronousCloseException.class);
                }
            } finally {
                for (Socket s : queued) {
                    s.close();
                }
            }
        }
    }

    /** Connects sockets to {@code full} until one does not complete within 300 ms; returns the ones that did. */
    private static List<Socket> fillAcceptQueue(ServerSocket full) throws IOException {
        List<Socket> queued = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            Socket s = new Socket();
            try {
                s.connect(full.getLocalSocketAddress(), 300);
                queued.add(s);
            } catch (SocketTimeoutException e) {
                s.close();
                return queued;
            }
        }
        throw new IllegalStateException("64 connects to a listener that never accepts all completed");
    }

    // --------------------------------------------------------------------------------------------------- channels

    private void channels() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(LOOPBACK, 0), 50);
            SocketAddress address = listener.getLocalAddress();
            SocketChannel[] accepted = new SocketChannel[1];
            Thread acceptor = Thread.ofVirtual().start(() -> accepted[0] = call(listener::accept));
            awaitBlocked(acceptor);
            try (SocketChannel a = SocketChannel.open(address)) {
                join(acceptor);
                check("ServerSocketChannel.accept wakes for a connection", accepted[0] != null, accepted[0]);
                try (SocketChannel b = accepted[0]) {
                    ByteBuffer one = ByteBuffer.allocate(1);
                    Thread reader = Thread.ofVirtual().start(() -> call(() -> a.read(one)));
                    awaitBlocked(reader);
                    b.write(ByteBuffer.wrap(new byte[] {42}));
                    join(reader);
                    check("SocketChannel read wakes for data", one.get(0) == 42, one);
                }
            }
            try (SocketChannel a = SocketChannel.open(); SocketChannel b = connectedPair(listener, a)) {
                fillThenDrain("SocketChannel write", (buf, off, len) -> {
                    ByteBuffer bb = ByteBuffer.wrap(buf, off, len);
                    while (bb.hasRemaining()) {
                        a.write(bb);
                    }
                }, b.socket().getInputStream());
            }
            for (boolean interrupt : new boolean[] {true, false}) {
                String how = interrupt ? "interrupt" : "close";
                Class<? extends Exception> expected = interrupt ? ClosedByInterruptException.class
                        : AsynchronousCloseException.class;
                SocketChannel a = SocketChannel.open(address);
                try (SocketChannel b = listener.accept()) {
                    blockedThen(how, "SocketChannel read", () -> a.read(ByteBuffer.allocate(1)), a, interrupt,
                            expected);
                }
                SocketChannel w = SocketChannel.open();
                try (SocketChannel peer = connectedPair(listener, w)) {
                    blockedThen(how, "SocketChannel write (full send buffer)", () -> {
                        while (true) {
                            w.write(ByteBuffer.allocate(BUFFER));
                        }
                    }, w, interrupt, expected);
                }
                ServerSocketChannel other = ServerSocketChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
                blockedThen(how, "ServerSocketChannel.accept", other::accept, other, interrupt, expected);
            }
        }
        datagrams();
        pipes();
    }

    private void datagrams() throws Exception {
        try (DatagramChannel receiver = DatagramChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
             DatagramChannel sender = DatagramChannel.open()) {
            ByteBuffer got = ByteBuffer.allocate(16);
            Thread reader = Thread.ofVirtual().start(() -> call(() -> receiver.receive(got)));
            awaitBlocked(reader);
            sender.send(ByteBuffer.wrap(new byte[] {7, 8}), receiver.getLocalAddress());
            join(reader);
            check("DatagramChannel receive wakes for a datagram", got.position() == 2 && got.get(1) == 8, got);
        }
        for (boolean interrupt : new boolean[] {true, false}) {
            DatagramChannel ch = DatagramChannel.open().bind(new InetSocketAddress(LOOPBACK, 0));
            blockedThen(interrupt ? "interrupt" : "close", "DatagramChannel receive",
                    () -> ch.receive(ByteBuffer.allocate(16)), ch, interrupt,
                    interrupt ? ClosedByInterruptException.class : AsynchronousCloseException.class);
        }
    }

    private void pipes() throws Exception {
        Pipe pipe = Pipe.open();
        try (Pipe.SourceChannel source = pipe.source(); Pipe.SinkChannel sink = pipe.sink()) {
            ByteBuffer got = ByteBuffer.allocate(1);
            Thread reader = Thread.ofVirtual().start(() -> call(() -> source.read(got)));
            awaitBlocked(reader);
            sink.write(ByteBuffer.wrap(new byte[] {9}));
            join(reader);
            check("Pipe source read wakes for data", got.get(0) == 9, got);
            fillThenDrain("Pipe sink write", (buf, off, len) -> {
                ByteBuffer bb = ByteBuffer.wrap(buf, off, len);
                while (bb.hasRemaining()) {
                    sink.write(bb);
                }
            }, java.nio.channels.Channels.newInputStream(source));
        }
        for (boolean interrupt : new boolean[] {true, false}) {
            String how = interrupt ? "interrupt" : "close";
            Class<? extends Exception> expected = interrupt ? ClosedByInterruptException.class
                    : AsynchronousCloseException.class;
            Pipe p = Pipe.open();
            blockedThen(how, "Pipe source read", () -> p.source().read(ByteBuffer.allocate(1)), p.source(),
                    interrupt, expected);
            p.sink().close();
            Pipe q = Pipe.open();
            blockedThen(how, "Pipe sink write (full pipe)", () -> {
                while (true) {
                    q.sink().write(ByteBuffer.allocate(BUFFER));
                }
            }, q.sink(), interrupt, expected);
            q.source().close();
        }
    }

    // --------------------------------------------------------------------------------------------------- selector

    /** A virtual thread in {@code Selector.select()}: woken by readiness, by {@code wakeup()}, by an interrupt. */
    private void selector() throws Exception {
        Pipe pipe = Pipe.open();
        try (Selector selector = Selector.open(); Pipe.SourceChannel source = pipe.source();
             Pipe.SinkChannel sink = pipe.sink()) {
            source.configureBlocking(false);
            source.register(selector, SelectionKey.OP_READ);
            int[] selected = {-1};
            Thread t = Thread.ofVirtual().start(() -> selected[0] = call(selector::select));
            awaitBlocked(t);
            sink.write(ByteBuffer.wrap(new byte[] {1}));
            join(t);
            check("Selector.select in a virtual thread wakes for readiness", selected[0] == 1, selected[0]);
            source.read(ByteBuffer.allocate(16));
            selector.selectedKeys().clear();

            selected[0] = -1;
            t = Thread.ofVirtual().start(() -> selected[0] = call(selector::select));
            awaitBlocked(t);
            selector.wakeup();
            join(t);
            check("Selector.select in a virtual thread wakes for wakeup()", selected[0] == 0, selected[0]);

            boolean[] interrupted = {false};
            t = Thread.ofVirtual().start(() -> {
                selected[0] = call(selector::select);
                interrupted[0] = Thread.currentThread().isInterrupted();
            });
            awaitBlocked(t);
            t.interrupt();
            join(t);
            check("Selector.select in a virtual thread returns on interrupt with the status set",
                    selected[0] == 0 && interrupted[0], selected[0] + ", interrupted " + interrupted[0]);

            long start = System.nanoTime();
            inVirtual("Selector.select(100)", () -> selected[0] = selector.select(100));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            check("Selector.select(100) in a virtual thread times out", selected[0] == 0 && tookMillis >= 99,
                    tookMillis + " ms");
        }
    }

    // ------------------------------------------------------------------------------------------ many connections

    /**
     * {@code n} connections, each one request and its answer, against a server whose handlers are virtual threads;
     * at most 256 clients in flight, so the accept queue never overflows (a dropped SYN costs a 1 s retransmit). The
     * server closes first, so the TIME_WAITs are the server's and use no client ports.
     */
    private void manyConnections(int n) throws Exception {
        AtomicInteger answered = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (ServerSocket server = listen(1024)) {
            Thread acceptor = Thread.ofVirtual().name("acceptor").start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        Thread.ofVirtual().start(() -> {
                            try (s) {
                                byte[] request = s.getInputStream().readNBytes(8);
                                s.getOutputStream().write(request);
                            } catch (IOException e) {
                                failure.compareAndSet(null, e);
                            }
                        });
                    } catch (IOException e) {
                        if (!server.isClosed()) {
                            failure.compareAndSet(null, e);
                        }
                    }
                }
            });
            Semaphore inFlight = new Semaphore(256);
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                inFlight.acquire();
                long id = i;
                Thread.ofVirtual().start(() -> {
                    try (Socket s = new Socket(LOOPBACK, server.getLocalPort())) {
                        s.setSoTimeout(30_000);
                        byte[] request = ByteBuffer.allocate(8).putLong(id).array();
                        s.getOutputStream().write(request);
                        byte[] answer = s.getInputStream().readAllBytes();
                        if (Arrays.equals(request, answer)) {
                            answered.incrementAndGet();
                        } else {
                            failure.compareAndSet(null, new IOException("answer " + Arrays.toString(answer)));
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    } finally {
                        inFlight.release();
                        done.countDown();
                    }
                });
            }
            boolean ended = done.await(60, TimeUnit.SECONDS);
            server.close();
            join(acceptor);
            check(n + " connections each answered once", ended && answered.get() == n && failure.get() == null,
                    answered.get() + " answered, failure " + failure.get());
        }
    }

    // ---------------------------------------------------------------------------------------------------- compute

    /**
     * Two virtual threads spin on the carriers while a reader waits for data {@code wakes} times: readiness must
     * still reach it. Every scheduler needs a way to run it beside the spinners ({@code shuttle.timeSlice} on
     * Shuttle): the JDK cannot preempt a virtual thread.
     */
    private void compute(int wakes) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch spinning = new CountDownLatch(2);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            spinners.add(Thread.ofVirtual().name("spinner-" + i).start(() -> {
                spinning.countDown();
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        check("two virtual threads spin", spinning.await(10, TimeUnit.SECONDS), spinning.getCount() + " not started");
        long[] latencies = new long[wakes];
        try (ServerSocket listener = listen(50); Socket a = new Socket(LOOPBACK, listener.getLocalPort());
             Socket b = listener.accept()) {
            for (int i = 0; i < wakes; i++) {
                long[] woke = new long[1];
                Thread reader = Thread.ofVirtual().start(() -> {
                    call(() -> a.getInputStream().read());
                    woke[0] = System.nanoTime();
                });
                awaitBlocked(reader);
                long sent = System.nanoTime();
                b.getOutputStream().write(1);
                join(reader);
                latencies[i] = woke[0] - sent;
            }
        } finally {
            stop.set(true);
            for (Thread t : spinners) {
                join(t);
            }
        }
        Arrays.sort(latencies);
        check("a reader beside two spinning virtual threads wakes for data within 2 s, " + wakes + " times",
                latencies[wakes - 1] < WAKE_BOUND_NANOS, latencies[wakes - 1] / 1000 + " µs at most");
        info("wake latency beside two spinners, µs p50 / max", latencies[wakes / 2] / 1000 + " / "
                + latencies[wakes - 1] / 1000);
    }

    // ----------------------------------------------------------------------------------- who delivers readiness

    /**
     * The JDK's poller threads: present on the JDK's scheduler and with {@code shuttle.netpoll=off}; absent, and
     * Shuttle's poll counters moving, on Shuttle with {@code shuttle.netpoll} on.
     */
    private void pollers() throws Exception {
        boolean masterPoller = Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("MasterPoller"));
        Path dump = Files.createTempFile("threads", ".json");
        Files.delete(dump);
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpThreads(dump.toString(),
                HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        boolean subPollers = Files.readString(dump).contains("\"SubPoller-");
        Files.delete(dump);
        Optional<ShuttleScheduler> shuttle = ShuttleScheduler.systemDefault();
        boolean netpollOn = shuttle.isPresent() && !"off".equals(System.getProperty("shuttle.netpoll", "on"));
        info("threads", "MasterPoller " + masterPoller + ", SubPoller virtual threads " + subPollers);
        long[] counters = shuttle.isPresent() ? netpollCounters(shuttle.get()) : null;
        String shown = counters == null ? "no Shuttle scheduler" : String.format(
                "PollsBlocking=%d PollsNonBlocking=%d PollsByMonitor=%d PollReadyDescriptors=%d",
                counters[0], counters[1], counters[2], counters[3]);
        if (shuttle.isPresent()) {
            info("netpoll counters", shown);
        }
        if (!netpollOn) {
            check("the JDK's MasterPoller thread and SubPoller virtual threads deliver readiness",
                    masterPoller && subPollers, "MasterPoller " + masterPoller + ", SubPoller " + subPollers);
        } else {
            check("no MasterPoller thread and no SubPoller virtual thread once Shuttle's carriers poll",
                    !masterPoller && !subPollers, "MasterPoller " + masterPoller + ", SubPoller " + subPollers);
            check("Shuttle's carriers polled and found ready descriptors", counters != null
                    && counters[0] + counters[1] + counters[2] > 0 && counters[3] > 0, shown);
        }
    }

    private static final List<String> POLL_COUNTERS = List.of("PollsBlocking", "PollsNonBlocking", "PollsByMonitor",
            "PollReadyDescriptors");

    /** Shuttle's poll counters, read through its MXBean by attribute name, in {@link #POLL_COUNTERS}' order. */
    private static long[] netpollCounters(ShuttleScheduler scheduler) throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("dev.shuttle:type=ShuttleScheduler,name=" + scheduler.name());
        long[] values = new long[POLL_COUNTERS.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = (Long) server.getAttribute(name, POLL_COUNTERS.get(i));
        }
        return values;
    }

    /** Shuttle's monitor must have rescued no lost wake-up: one would only have made a check slower. */
    private void noRescues() throws Exception {
        Optional<ShuttleScheduler> system = ShuttleScheduler.systemDefault();
        if (system.isPresent()) {
            long rescues = (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(
                    new ObjectName("dev.shuttle:type=ShuttleScheduler,name=" + system.get().name()), "MonitorRescues");
            check("the monitor rescued no lost wake-up", rescues == 0, rescues);
        }
    }

    // ---------------------------------------------------------------------------------------------------- helpers

    /**
     * Runs {@code op} in a virtual thread, waits until it blocks, then interrupts it or closes {@code resource} from
     * this thread; the operation must end with {@code expected} (exactly that class), and with the interrupt status
     * set after an interrupt (a socket's stream closes the socket and throws {@code SocketException}, a channel
     * throws {@code ClosedByInterruptException}, JDK 25).
     */
    private void blockedThen(String how, String what, Blocking op, AutoCloseable resource, boolean interrupt,
            Class<? extends Exception> expected) throws Exception {
        Outcome outcome = new Outcome();
        Thread t = outcome.start(op);
        awaitBlocked(t);
        if (interrupt) {
            t.interrupt();
        } else {
            resource.close();
        }
        join(t);
        resource.close();
        boolean ok = outcome.thrown != null && outcome.thrown.getClass() == expected && outcome.interrupted == interrupt;
        check(how + " while blocked in " + what + " throws " + expected.getSimpleName()
                + (interrupt ? " with the interrupt status set" : ""), ok, outcome);
    }

    /** Runs {@code op} in a virtual thread; it must throw {@code SocketTimeoutException}. */
    private void expectTimeout(String what, Blocking op) throws Exception {
        Outcome outcome = new Outcome();
        join(outcome.start(op));
        check(what + " throws SocketTimeoutException", outcome.thrown instanceof SocketTimeoutException, outcome);
    }

    interface Writer {
        void write(byte[] b, int off, int len) throws IOException;
    }

    /**
     * A virtual thread writes 2 MiB; the reader does not read until the writer has blocked (the buffers are full),
     * then reads at most 64 KiB a millisecond. The writer must have blocked and every byte must arrive in order.
     */
    private void fillThenDrain(String what, Writer writer, InputStream reader) throws Exception {
        byte[] data = new byte[2 << 20];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 251);
        }
        Thread t = Thread.ofVirtual().start(() -> call(() -> {
            for (int off = 0; off < data.length; off += BUFFER) {
                writer.write(data, off, BUFFER);
            }
            return null;
        }));
        boolean blocked = isBlockedWithin(t, BLOCKED_WITHIN_MILLIS);
        byte[] got = new byte[data.length];
        int n = 0;
        for (int r; n < got.length && (r = reader.read(got, n, Math.min(65536, got.length - n))) > 0; n += r) {
            Thread.sleep(1);
        }
        join(t);
        check(what + " blocks on a full buffer and wakes as a slow reader drains it",
                blocked && n == data.length && Arrays.equals(data, got), "blocked " + blocked + ", read " + n);
    }

    private static ServerSocket listen(int backlog) throws IOException {
        return new ServerSocket(0, backlog, LOOPBACK);
    }

    /** Connects {@code client}, with small buffers, to {@code listener}; returns the accepted end. */
    private static Socket connectedPair(ServerSocket listener, Socket client) throws IOException {
        client.setSendBufferSize(BUFFER);
        client.connect(listener.getLocalSocketAddress());
        Socket accepted = listener.accept();
        accepted.setReceiveBufferSize(RECEIVE_BUFFER);
        return accepted;
    }

    private static SocketChannel connectedPair(ServerSocketChannel listener, SocketChannel client)
            throws IOException {
        client.socket().setSendBufferSize(BUFFER);
        client.connect(listener.getLocalAddress());
        SocketChannel accepted = listener.accept();
        accepted.socket().setReceiveBufferSize(RECEIVE_BUFFER);
        return accepted;
    }

    /** Waits until {@code t} waits (parked for readiness): fails the run if it never does. */
    private static void awaitBlocked(Thread t) throws InterruptedException {
        if (!isBlockedWithin(t, BLOCKED_WITHIN_MILLIS)) {
            throw new IllegalStateException(t + " did not block within " + BLOCKED_WITHIN_MILLIS + " ms: "
                    + t.getState() + " " + Arrays.toString(t.getStackTrace()));
        }
    }

    private static boolean isBlockedWithin(Thread t, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline && t.isAlive()) {
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING) {
                return true;
            }
            Thread.sleep(1);
        }
        return false;
    }

    private static void join(Thread t) throws InterruptedException {
        if (!t.join(java.time.Duration.ofMillis(END_WITHIN_MILLIS))) {
            throw new IllegalStateException(t + " did not end within " + END_WITHIN_MILLIS + " ms: "
                    + Arrays.toString(t.getStackTrace()));
        }
    }

    /** Runs {@code op} in a virtual thread and waits for it; an exception fails the check named {@code what}. */
    private void inVirtual(String what, Blocking op) throws InterruptedException {
        Outcome outcome = new Outcome();
        join(outcome.start(op));
        if (outcome.thrown != null) {
            check(what, false, outcome);
        }
    }

    /** How an operation run in a virtual thread ended: what it threw, and its thread's interrupt status after. */
    private static final class Outcome {
        private volatile Throwable thrown;
        private volatile boolean interrupted;

        Thread start(Blocking op) {
            return Thread.ofVirtual().start(() -> {
                try {
                    op.run();
                } catch (Throwable e) {
                    thrown = e;
                }
                interrupted = Thread.currentThread().isInterrupted();
            });
        }

        @Override
        public String toString() {
            return thrown + ", interrupted " + interrupted;
        }
    }

    interface Call<T> {
        T call() throws Exception;
    }

    /** Calls {@code c}, failing the virtual thread on an exception (the joiner then sees the missing result). */
    private static <T> T call(Call<T> c) {
        try {
            return c.call();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void check(String name, boolean ok, Object detail) {
        System.out.println((ok ? "ok " : "FAIL ") + name + ": " + detail);
        if (!ok) {
            failures.add(name);
        }
    }

    private static void timed(String section, Blocking body) throws Exception {
        long start = System.nanoTime();
        body.run();
        info(section + " took ms", (System.nanoTime() - start) / 1_000_000);
    }

    private static void info(String what, Object value) {
        System.out.println("info " + what + ": " + value);
    }

    /** A virtual thread that sleeps 1 ms in a loop and keeps the longest gap between two of its wake-ups. */
    private static final class Ticker {
        private final AtomicBoolean stop = new AtomicBoolean();
        private volatile long maxGap;
        private volatile long ticks;
        private Thread thread;

        static Ticker start() {
            Ticker t = new Ticker();
            t.thread = Thread.ofVirtual().name("ticker").start(t::loop);
            return t;
        }

        private void loop() {
            long last = System.nanoTime();
            while (!stop.get()) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.nanoTime();
                maxGap = Math.max(maxGap, now - last);
                ticks++;
                last = now;
            }
        }

        void stop() throws InterruptedException {
            stop.set(true);
            join(thread);
        }

        long maxGapNanos() {
            return maxGap;
        }

        long ticks() {
            return ticks;
        }

        @Override
        public String toString() {
            return ticks + " ticks, longest gap " + maxGap / 1000 + " µs";
        }
    }
}
