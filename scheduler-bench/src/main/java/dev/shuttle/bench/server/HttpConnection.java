package dev.shuttle.bench.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * One keep-alive HTTP/1.1 connection to the server under load, used by one generator thread: a request is written
 * whole and its response read whole before the next. Only what {@code com.sun.net.httpserver} answers is parsed:
 * a status line, headers and a {@code Content-Length} body. Every exchange ends by a deadline, however the server
 * trickles its bytes: a read timeout alone bounds each read, not the response.
 *
 * <p>An exchange allocates nothing (the response is parsed in place, {@link AsciiLine}): garbage would make the
 * generator's JVM collect under load, and its pause stops every sender while requests fall due, which the latency
 * from the intended start then charges to the server under test (docs/design.md, "Measuring a change").
 */
final class HttpConnection implements Closeable {
    private static final String HANDLED_AT_PREFIX = ServerHandlers.HANDLED_AT + ":";
    private static final String DISPATCHED_AT_PREFIX = ServerHandlers.DISPATCHED_AT + ":";
    private static final String CONTENT_LENGTH = "Content-Length:";
    /** Far beyond any header line either server sends; a longer one is refused rather than grown into. */
    static final int MAX_LINE = 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final int timeoutMillis;
    /** {@link System#nanoTime} by which the exchange under way must have read its whole response. */
    private long deadline;
    private long handledAt = NOT_HANDLED;
    private long dispatchedAt = NOT_HANDLED;
    private long startedAt = NOT_HANDLED;
    /** The line being parsed, reused: a response is read into it without allocating. */
    private final AsciiLine line = new AsciiLine(MAX_LINE);
    /** The socket's read timeout as last set, so that an unchanged one costs no call. */
    private int soTimeoutMillis = -1;

    /** What {@link #handledAt} returns when the last response carried no {@link ServerHandlers#HANDLED_AT}. */
    static final long NOT_HANDLED = Long.MIN_VALUE;

    /**
     * Connects to 127.0.0.1:{@code port} within {@code timeoutMillis}; a {@link #get} must be answered within as long.
     *
     * @throws SocketTimeoutException if the server did not accept the connection in time
     */
    HttpConnection(int port, int timeoutMillis) throws IOException {
        this.timeoutMillis = timeoutMillis;
        socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeoutMillis);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        in = new BufferedInputStream(new DeadlineInput(socket.getInputStream()), 8192);
        out = socket.getOutputStream();
    }

    /** The bytes of a GET of {@code path}, prepared once per generator thread. */
    static byte[] request(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Sends {@code request} and reads the response; returns its status code.
     *
     * @throws SocketTimeoutException if the whole response has not come by {@code deadlineNanos} ({@link
     *     System#nanoTime}); the connection is then out of step with its responses and must be closed
     */
    int exchange(byte[] request, long deadlineNanos) throws IOException {
        deadline = deadlineNanos;
        out.write(request);
        out.flush();
        return readResponse(null);
    }

    /** GETs {@code path} and returns the body, failing on a status other than 200. */
    String get(String path) throws IOException {
        deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        out.write(request(path));
        out.flush();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int status = readResponse(body);
        if (status != 200) {
            throw new IOException("GET " + path + ": status " + status);
        }
        return body.toString(StandardCharsets.US_ASCII);
    }

    /**
     * The {@link ServerHandlers#HANDLED_AT} of the last response read whole, or {@link #NOT_HANDLED} if it had none or
     * the last exchange failed.
     */
    long handledAt() {
        return handledAt;
    }

    /**
     * The first moment of the last response's {@link ServerHandlers#DISPATCHED_AT}, or {@link #NOT_HANDLED} if it
     * had none or the last exchange failed.
     */
    long dispatchedAt() {
        return dispatchedAt;
    }

    /** The second moment of {@link ServerHandlers#DISPATCHED_AT}, as {@link #dispatchedAt}. */
    long startedAt() {
        return startedAt;
    }

    private int readResponse(ByteArrayOutputStream body) throws IOException {
        handledAt = NOT_HANDLED;
        dispatchedAt = NOT_HANDLED;
        startedAt = NOT_HANDLED;
        readLine();
        int status = line.statusCode();
        long length = 0;
        long handled = NOT_HANDLED;
        long dispatched = NOT_HANDLED;
        long started = NOT_HANDLED;
        while (readLine() > 0) {
            if (line.startsWithIgnoringCase(CONTENT_LENGTH)) {
                length = line.parseLong(CONTENT_LENGTH.length(), line.length());
            } else if (line.startsWithIgnoringCase(HANDLED_AT_PREFIX)) {
                handled = line.parseLong(HANDLED_AT_PREFIX.length(), line.length());
            } else if (line.startsWithIgnoringCase(DISPATCHED_AT_PREFIX)) {
                int first = line.skipSpaces(DISPATCHED_AT_PREFIX.length());
                int space = line.indexOf(' ', first);
                int second = space < 0 ? line.length() : line.skipSpaces(space);
                int after = line.indexOf(' ', second);
                if (second == line.length() || after >= 0 && line.skipSpaces(after) < line.length()) {
                    throw new IOException("malformed `" + line + "`: not two moments");
                }
                dispatched = line.parseLong(first, space);
                started = line.parseLong(second, line.length());
            }
        }
        for (long i = 0; i < length; i++) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("response body cut short");
            }
            if (body != null) {
                body.write(b);
            }
        }
        handledAt = handled;
        dispatchedAt = dispatched;
        startedAt = started;
        return status;
    }

    /** Reads one line, without its CR LF, into {@link #line}; returns its length. */
    private int readLine() throws IOException {
        line.clear();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new EOFException("connection closed by the server");
            }
            if (b != '\r') {
                line.append(b);
            }
        }
        return line.length();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** Sets the socket's read timeout to what is left of the deadline before each read that may block. */
    private final class DeadlineInput extends FilterInputStream {
        DeadlineInput(InputStream socketIn) {
            super(socketIn);
        }

        @Override
        public int read() throws IOException {
            setTimeout();
            return super.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            setTimeout();
            return super.read(b, off, len);
        }

        /** The socket boxes the value it is given: set only when it changed, which is seldom within a deadline. */
        private void setTimeout() throws IOException {
            int millis = millisLeft();
            if (millis != soTimeoutMillis) {
                socket.setSoTimeout(millis);
                soTimeoutMillis = millis;
            }
        }

        /** At least 1: a read timeout of 0 would wait forever. */
        private int millisLeft() throws SocketTimeoutException {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("no whole response by the deadline");
            }
            return (int) Math.min(Integer.MAX_VALUE, Math.ceilDiv(left, 1_000_000L));
        }
    }
}
