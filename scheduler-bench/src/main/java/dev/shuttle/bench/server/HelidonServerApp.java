package dev.shuttle.bench.server;

import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The main server under load: Helidon SE 4's web server, on 127.0.0.1 only, answering what {@link ServerHandlers}
 * answers. Helidon reads each connection on a virtual thread of its own, created with plain
 * {@code Thread.ofVirtual()}, and runs that connection's HTTP/1.1 requests on it in turn; so which scheduler runs the
 * requests is decided by the command line alone (the agent or not), and {@code /info} says which one did. Prints
 * {@code PORT <n>} once it listens, and stops when standard input closes.
 */
public final class HelidonServerApp {
    private HelidonServerApp() {
    }

    public static void main(String[] args) throws Exception {
        ServerHandlers handlers = ServerHandlers.prepare();
        // Helidon logs its features and each start and stop at INFO on standard error: noise in every report run.
        Logger.getLogger("").setLevel(Level.WARNING);
        HttpRouting.Builder routing = HttpRouting.builder();
        for (Endpoint e : Endpoint.values()) {
            routing.get(e.path(), (req, res) -> {
                res.header(ServerHandlers.HANDLED_AT, Long.toString(System.nanoTime()));
                String body;
                try {
                    body = handlers.answer(e);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    res.status(Status.SERVICE_UNAVAILABLE_503).send();
                    return;
                }
                send(res, body);
            });
        }
        for (String path : ServerHandlers.CONTROL_PATHS) {
            routing.get(path, (req, res) -> send(res, handlers.control(path)));
        }
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .backlog(4096)
                // The parent's closing of standard input is the only way this server ends.
                .shutdownHook(false)
                .routing(routing)
                .build()
                .start();
        ServerHandlers.announceAndWait(server.port());
        server.stop();
        System.exit(0);
    }

    private static void send(ServerResponse res, String body) {
        res.send(body.getBytes(StandardCharsets.US_ASCII));
    }
}
