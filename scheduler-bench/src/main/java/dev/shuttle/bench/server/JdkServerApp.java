package dev.shuttle.bench.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The second server under load, without dependencies: the JDK's {@code com.sun.net.httpserver} with one virtual
 * thread per request ({@link Executors#newVirtualThreadPerTaskExecutor()}), on 127.0.0.1 only, answering what
 * {@link ServerHandlers} answers. Which scheduler runs those threads is decided by the command line alone (the agent
 * or not). Prints {@code PORT <n>} once it listens, and stops when standard input closes.
 *
 * <p>Each request's thread knows when the server's dispatcher thread handed it over and when it began to run, and
 * answers both ({@link ServerHandlers#DISPATCHED_AT}): the one place in a request's path where the scheduler's wait
 * can be timed from outside it, the same way on both schedulers. The timing costs each request a few small objects on
 * either.
 */
public final class JdkServerApp {
    /** The request thread's own moments; each request has a thread of its own, so nothing is ever removed. */
    private static final ThreadLocal<Dispatch> DISPATCH = new ThreadLocal<>();

    private record Dispatch(long dispatchedAt, long startedAt) {
    }

    private JdkServerApp() {
    }

    public static void main(String[] args) throws Exception {
        ServerHandlers handlers = ServerHandlers.prepare();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(exchange -> {
            long dispatched = System.nanoTime();
            executor.execute(() -> {
                DISPATCH.set(new Dispatch(dispatched, System.nanoTime()));
                exchange.run();
            });
        });
        for (Endpoint e : Endpoint.values()) {
            server.createContext(e.path(), exchange -> handle(handlers, e, exchange));
        }
        for (String path : ServerHandlers.CONTROL_PATHS) {
            server.createContext(path, exchange -> respond(exchange, handlers.control(path)));
        }
        server.start();
        ServerHandlers.announceAndWait(server.getAddress().getPort());
        server.stop(0);
        executor.shutdownNow();
        System.exit(0);
    }

    private static void handle(ServerHandlers handlers, Endpoint endpoint, HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().add(ServerHandlers.HANDLED_AT, Long.toString(System.nanoTime()));
        Dispatch d = DISPATCH.get();
        exchange.getResponseHeaders().add(ServerHandlers.DISPATCHED_AT, d.dispatchedAt() + " " + d.startedAt());
        String body;
        try {
            body = handlers.answer(endpoint);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
            return;
        }
        respond(exchange, body);
    }

    private static void respond(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        // Length 0 would send the body chunked, which HttpConnection does not read; -1 sends Content-Length: 0.
        exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
