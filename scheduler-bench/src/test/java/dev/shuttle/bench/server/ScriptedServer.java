package dev.shuttle.bench.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A JDK {@code HttpServer} on 127.0.0.1 that answers {@code /hello} as a script says for each request, by the order
 * it arrived in (from 0), with the time its handler was entered as the real servers do ({@link
 * ServerHandlers#HANDLED_AT}); {@code /cpu} with 0 and {@code /gc} with one more collection of 3 ms at each call, as
 * the benchmark's control connection expects; and {@code /locks}, {@code /scheduler} and {@code /delay} as scripts of
 * their own say for each call, by its order.
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
    /** The ports {@code /hello} requests came from: one per connection the client opened. */
    private final Set<Integer> clientPorts = ConcurrentHashMap.newKeySet();
    private final AtomicInteger locksCalls = new AtomicInteger();
    private final AtomicInteger schedulerCalls = new AtomicInteger();
    private final AtomicInteger gcCalls = new AtomicInteger();
    private final AtomicInteger delayCalls = new AtomicInteger();

    /** A server whose {@code /locks} has no lock times. */
    ScriptedServer(IntFunction<Answer> script) throws IOException {
        this(script, n -> "");
    }

    /** A server on the JDK default, whose {@code /scheduler} is empty. */
    ScriptedServer(IntFunction<Answer> script, IntFunction<String> locks) throws IOException {
        this(script, locks, n -> "");
    }

    /** A server without a scheduling-delay bean, whose {@code /delay} is empty. */
    ScriptedServer(IntFunction<Answer> script, IntFunction<String> locks, IntFunction<String> scheduler)
            throws IOException {
        this(script, locks, scheduler, n -> "");
    }

    ScriptedServer(IntFunction<Answer> script, IntFunction<String> locks, IntFunction<String> scheduler,
            IntFunction<String> delay) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext(Endpoint.HELLO.path(), exchange -> {
            exchange.getResponseHeaders().add(ServerHandlers.HANDLED_AT, Long.toString(System.nanoTime()));
            clientPorts.add(exchange.getRemoteAddress().getPort());
            Answer answer = script.apply(arrivals.getAndIncrement());
            try {
                Thread.sleep(answer.stallMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(exchange, answer.status(), "hello");
        });
        server.createContext(ServerHandlers.CPU, exchange -> respond(exchange, 200, "0"));
        server.createContext(ServerHandlers.GC, exchange -> {
            int n = gcCalls.getAndIncrement();
            respond(exchange, 200, n + " " + 3 * n);
        });
        server.createContext(ServerHandlers.LOCKS,
                exchange -> respond(exchange, 200, locks.apply(locksCalls.getAndIncrement())));
        server.createContext(ServerHandlers.SCHEDULER,
                exchange -> respond(exchange, 200, scheduler.apply(schedulerCalls.getAndIncrement())));
        server.createContext(ServerHandlers.DELAY,
                exchange -> respond(exchange, 200, delay.apply(delayCalls.getAndIncrement())));
        server.start();
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        // Length 0 would send the body chunked, which HttpConnection does not read; -1 sends Content-Length: 0.
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** How many connections {@code /hello} requests came over. */
    int clients() {
        return clientPorts.size();
    }

    /** How many times {@code /locks} was called. */
    int locksCalls() {
        return locksCalls.get();
    }

    /** How many times {@code /scheduler} was called. */
    int schedulerCalls() {
        return schedulerCalls.get();
    }

    int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
