package dev.shuttle.bench.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A JDK {@code HttpServer} on 127.0.0.1 that answers {@code /hello} as a script says for each request, by the order
 * it arrived in (from 0), {@code /cpu} with 0, as the benchmark's control connection expects, and {@code /locks} as a
 * second script says for each call, by its order.
 */
final class ScriptedServer implements AutoCloseable {
    /** What to do with one request: wait {@code stallMillis}, then answer {@code status}. */
    record Answer(long stallMillis, int status) {
        static final Answer OK = new Answer(0, 200);

        static Answer stall(long millis) {
            return new Answer(millis, 200);
        }

        static Answer status(int status) {
            return new Answer(0, status);
        }
    }

    private final HttpServer server;
    private final AtomicInteger arrivals = new AtomicInteger();
    private final AtomicInteger locksCalls = new AtomicInteger();

    /** A server whose {@code /locks} has no lock times. */
    ScriptedServer(IntFunction<Answer> script) throws IOException {
        this(script, n -> "");
    }

    ScriptedServer(IntFunction<Answer> script, IntFunction<String> locks) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext(Endpoint.HELLO.path(), exchange -> {
            Answer answer = script.apply(arrivals.getAndIncrement());
            try {
                Thread.sleep(answer.stallMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(exchange, answer.status(), "hello");
        });
        server.createContext(ServerHandlers.CPU, exchange -> respond(exchange, 200, "0"));
        server.createContext(ServerHandlers.LOCKS,
                exchange -> respond(exchange, 200, locks.apply(locksCalls.getAndIncrement())));
        server.start();
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** How many times {@code /locks} was called. */
    int locksCalls() {
        return locksCalls.get();
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
