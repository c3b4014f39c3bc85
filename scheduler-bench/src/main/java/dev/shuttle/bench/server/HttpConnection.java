package dev.shuttle.bench.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection to the server under load, used by one generator thread: a request is written
 * whole and its response read whole before the next. Only what {@code com.sun.net.httpserver} answers is parsed:
 * a status line, headers and a {@code Content-Length} body.
 */
final class HttpConnection implements Closeable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    /** Connects to 127.0.0.1:{@code port}; a read waits at most {@code timeoutMillis}. */
    HttpConnection(int port, int timeoutMillis) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(timeoutMillis);
        in = new BufferedInputStream(socket.getInputStream(), 8192);
        out = socket.getOutputStream();
    }

    /** The bytes of a GET of {@code path}, prepared once per generator thread. */
    static byte[] request(String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** Sends {@code request} and reads the response; returns its status code. */
    int exchange(byte[] request) throws IOException {
        out.write(request);
        out.flush();
        return readResponse(null);
    }

    /** GETs {@code path} and returns the body, failing on a status other than 200. */
    String get(String path) throws IOException {
        out.write(request(path));
        out.flush();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int status = readResponse(body);
        if (status != 200) {
            throw new IOException("GET " + path + ": status " + status);
        }
        return body.toString(StandardCharsets.US_ASCII);
    }

    private int readResponse(ByteArrayOutputStream body) throws IOException {
        String statusLine = readLine();
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = 0;
        String line;
        while (!(line = readLine()).isEmpty()) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(line.substring(15).strip());
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
        return status;
    }

    private String readLine() throws IOException {
        StringBuilder sb = new StringBuilder(64);
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new EOFException("connection closed by the server");
            }
            if (b != '\r') {
                sb.append((char) b);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
