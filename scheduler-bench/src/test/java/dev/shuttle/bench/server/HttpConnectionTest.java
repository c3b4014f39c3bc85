package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HttpConnectionTest {
    private static final byte[] REQUEST = HttpConnection.request(Endpoint.HELLO.path());

    /** What the real servers send, moments included, and some headers the parse must pass over. */
    private static final String TYPICAL = "HTTP/1.1 200 OK\r\nDate: Sat, 28 Nov 2026 08:00:00 GMT\r\n"
            + "Content-Type: text/plain\r\nContent-Length: 5\r\nX-Handled-At: -9007199254740993\r\n"
            + "X-Dispatched-At: -9007199254741000 -9007199254740999\r\nConnection: keep-alive\r\n\r\nhello";

    @Test
    void anExchangeAllocatesNothingOnceWarm() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (CannedServer server = new CannedServer(TYPICAL); HttpConnection c = connect(server)) {
            int n = 5_000;
            exchange(c, n);
            long before = threads.getCurrentThreadAllocatedBytes();
            exchange(c, n);
            long perExchange = (threads.getCurrentThreadAllocatedBytes() - before) / n;
            // A String per header line alone was over a hundred bytes; a few stray bytes per exchange are not garbage
            // that makes a collector run.
            assertTrue(perExchange < 16, perExchange + " bytes allocated per exchange");
            assertEquals(-9007199254740993L, c.handledAt());
            assertEquals(-9007199254741000L, c.dispatchedAt());
            assertEquals(-9007199254740999L, c.startedAt());
        }
    }

    private static HttpConnection connect(CannedServer server) throws IOException {
        return new HttpConnection(server.port(), 10_000);
    }

    private static void exchange(HttpConnection c, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            int status = c.exchange(REQUEST, System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
            if (status != 200) {
                throw new AssertionError("status " + status);
            }
        }
    }

    @Test
    void headerNamesAreMatchedIgnoringCaseAndValuesIgnoringSpaceAround() throws Exception {
        String head = "HTTP/1.1 503 Service Unavailable\r\ncontent-length:\t2 \r\nx-handled-at:12\r\n"
                + "x-DISPATCHED-at:   3   4 \r\n\r\nno";
        try (CannedServer server = new CannedServer(head); HttpConnection c = connect(server)) {
            assertEquals(503, c.exchange(REQUEST, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)));
            assertEquals(12, c.handledAt());
            assertEquals(3, c.dispatchedAt());
            assertEquals(4, c.startedAt());
            // The body was read whole: the next response starts where this one ended.
            assertEquals(503, c.exchange(REQUEST, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)));
        }
    }

    @Test
    void aResponseWithoutTheMomentsHasNone() throws Exception {
        try (CannedServer server = new CannedServer("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
                HttpConnection c = connect(server)) {
            assertEquals(200, c.exchange(REQUEST, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)));
            assertEquals(HttpConnection.NOT_HANDLED, c.handledAt());
            assertEquals(HttpConnection.NOT_HANDLED, c.dispatchedAt());
            assertEquals(HttpConnection.NOT_HANDLED, c.startedAt());
        }
    }

    /** A response head that must be refused, and the message that says why. */
    static List<Arguments> malformedResponses() {
        String longLine = "X-Padding: " + "x".repeat(HttpConnection.MAX_LINE);
        return List.of(
                Arguments.of("SPDY 200\r\n\r\n", "malformed status line `SPDY 200`"),
                Arguments.of("HTTP/1.1 2x0 OK\r\n\r\n", "malformed `HTTP/1.1 2x0 OK`: not a number at 9-12"),
                Arguments.of("HTTP/1.1 200 OK\r\nContent-Length: five\r\n\r\n",
                        "malformed `Content-Length: five`: not a number at 16-20"),
                Arguments.of("HTTP/1.1 200 OK\r\nX-Dispatched-At: 1\r\n\r\n",
                        "malformed `X-Dispatched-At: 1`: not two moments"),
                Arguments.of("HTTP/1.1 200 OK\r\nX-Dispatched-At: 1 2 3\r\n\r\n",
                        "malformed `X-Dispatched-At: 1 2 3`: not two moments"),
                Arguments.of("HTTP/1.1 200 OK\r\n" + longLine + "\r\n\r\n",
                        "response header line longer than " + HttpConnection.MAX_LINE + " bytes: `"
                                + longLine.substring(0, HttpConnection.MAX_LINE) + "...`"));
    }

    @ParameterizedTest
    @MethodSource("malformedResponses")
    void aMalformedResponseIsRefusedQuotingIt(String response, String message) throws Exception {
        try (CannedServer server = new CannedServer(response); HttpConnection c = connect(server)) {
            IOException e = assertThrows(IOException.class,
                    () -> c.exchange(REQUEST, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)));
            assertEquals(message, e.getMessage());
        }
    }

    /** Answers every request on one connection with the same bytes. */
    private static final class CannedServer implements AutoCloseable {
        private final ServerSocket socket;
        private final Thread thread;

        CannedServer(String response) throws IOException {
            socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            byte[] bytes = response.getBytes(StandardCharsets.ISO_8859_1);
            thread = Thread.ofPlatform().daemon().start(() -> serve(bytes));
        }

        private void serve(byte[] response) {
            try (Socket s = socket.accept(); InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream()) {
                s.setTcpNoDelay(true);
                int matched = 0;
                int b;
                while ((b = in.read()) >= 0) {
                    // A request ends at its empty line: CR LF CR LF.
                    matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : b == '\r' ? 1 : 0;
                    if (matched == 4) {
                        out.write(response);
                        out.flush();
                        matched = 0;
                    }
                }
            } catch (IOException e) {
                // the test closed the server
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws Exception {
            socket.close();
            thread.join(10_000);
        }
    }
}
