package dev.shuttle.bench.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.metrics.ProcessCpu;
import dev.shuttle.bench.metrics.Spin;
import dev.shuttle.lock.SpinBitLock;
import dev.shuttle.scheduler.ShuttleScheduler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The server under load, run in a child JVM: the JDK's {@code com.sun.net.httpserver} with one virtual thread per
 * request ({@link Executors#newVirtualThreadPerTaskExecutor()}), on 127.0.0.1 only. Which scheduler runs those
 * threads is decided by the command line alone (the agent or not); {@code /info} says which one did. Endpoints are
 * {@link Endpoint}s; {@code /cpu} answers the process's CPU time in nanoseconds so the load generator can charge CPU
 * per request, and {@code /slack} the scheduler threads whose timer slack differs from the one both sides get.
 * Prints {@code PORT <n>} once it listens, and stops when standard input closes.
 */
public final class ServerApp {
    static final long CRITICAL_SECTION_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    static final int FAN_OUT = 8;
    static final int FILE_BYTES = 256 * 1024;

    private final Lock reentrant = new ReentrantLock();
    private final Lock spinBit = new SpinBitLock();
    private final Path file;

    private ServerApp(Path file) {
        this.file = file;
    }

    public static void main(String[] args) throws Exception {
        // Before the JDK creates any thread for virtual threads, so its scheduler threads inherit the slack that
        // Shuttle's carriers set for themselves.
        SchedulerSlack.lowerCurrentThread();
        Path file = Files.createTempFile("shuttle-server-bench", ".bin");
        file.toFile().deleteOnExit();
        Files.write(file, new byte[FILE_BYTES]);
        ServerApp app = new ServerApp(file);
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        for (Endpoint e : Endpoint.values()) {
            server.createContext(e.path(), exchange -> app.handle(e, exchange));
        }
        server.createContext("/cpu", text(() -> Long.toString(ProcessCpu.nanos())));
        server.createContext("/slack", text(() -> String.join(", ", SchedulerSlack.schedulerThreadsWithOtherSlack())));
        server.createContext("/info", text(() -> ShuttleScheduler.systemDefault().isPresent() ? "shuttle" : "jdk"));
        server.start();
        System.out.println("PORT " + server.getAddress().getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // the parent holds our standard input open while it wants us
        }
        server.stop(0);
        executor.shutdownNow();
        System.exit(0);
    }

    private void handle(Endpoint endpoint, HttpExchange exchange) throws IOException {
        String body;
        try {
            body = switch (endpoint) {
                case HELLO -> "hello";
                case SLEEP -> {
                    Thread.sleep(1);
                    yield "slept";
                }
                case LOCK_REENTRANT -> underLock(reentrant);
                case LOCK_SPINBIT -> underLock(spinBit);
                case FAN_OUT -> fanOut();
                case FILE -> Integer.toString(Files.readAllBytes(file).length);
            };
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
            return;
        }
        respond(exchange, body);
    }

    private static String underLock(Lock lock) {
        lock.lock();
        try {
            Spin.forNanos(CRITICAL_SECTION_NANOS);
        } finally {
            lock.unlock();
        }
        return "locked";
    }

    private static String fanOut() throws InterruptedException {
        Thread[] children = new Thread[FAN_OUT];
        for (int i = 0; i < FAN_OUT; i++) {
            children[i] = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        for (Thread child : children) {
            child.join();
        }
        return "joined";
    }

    private static HttpHandler text(java.util.function.Supplier<String> body) {
        return exchange -> respond(exchange, body.get());
    }

    private static void respond(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
