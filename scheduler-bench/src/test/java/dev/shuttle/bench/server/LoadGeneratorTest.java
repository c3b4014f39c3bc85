package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LoadGeneratorTest {
    private HttpServer server;
    private final AtomicBoolean stallNext = new AtomicBoolean();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext(Endpoint.HELLO.path(), exchange -> {
            if (stallNext.getAndSet(false)) {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] body = "hello".getBytes();
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    /**
     * One 300 ms stall at a fixed 100 requests per second: the ~30 requests meant to start during the stall waited
     * for it, and an open-loop generator must count that wait (wrk2's correction). Measuring only each response's
     * own time would show one slow request.
     */
    @Test
    void countsTheQueueingBehindAStallFromEachIntendedStart() throws InterruptedException {
        stallNext.set(true);
        LoadGenerator.Result r = new LoadGenerator(server.getAddress().getPort(), 1)
                .openLoop(Endpoint.HELLO, 100, TimeUnit.SECONDS.toNanos(1));
        assertEquals(0, r.errors());
        assertEquals(100, r.planned());
        assertEquals(r.planned(), r.completed());
        long slow = r.latency().getCountBetweenValues(TimeUnit.MILLISECONDS.toNanos(100), Long.MAX_VALUE / 2);
        assertTrue(slow >= 15, slow + " requests over 100 ms: the wait behind the stall was not counted");
    }

    @Test
    void closedLoopCompletesRequestsWithinItsBound() throws InterruptedException {
        long start = System.nanoTime();
        LoadGenerator.Result r = new LoadGenerator(server.getAddress().getPort(), 4)
                .closedLoop(Endpoint.HELLO, TimeUnit.MILLISECONDS.toNanos(300));
        long took = System.nanoTime() - start;
        assertEquals(0, r.errors());
        assertEquals("", r.firstError());
        assertTrue(r.completed() > 0);
        assertTrue(took < TimeUnit.MILLISECONDS.toNanos(300) + LoadGenerator.GRACE_NANOS + TimeUnit.SECONDS.toNanos(2),
                "took " + took / 1_000_000 + " ms");
    }
}
