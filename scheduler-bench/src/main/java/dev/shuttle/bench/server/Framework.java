package dev.shuttle.bench.server;

import java.util.Locale;

/** The HTTP server frameworks the benchmark runs, each a main class answering {@link ServerHandlers}' paths. */
public enum Framework {
    /** What users run first, so the report starts with it. */
    HELIDON("Helidon SE (helidon-webserver " + io.helidon.common.Version.VERSION + "), one virtual thread per"
            + " connection",
            HelidonServerApp.class),
    JDK("com.sun.net.httpserver, one virtual thread per request", JdkServerApp.class);

    private final String title;
    private final Class<?> main;

    Framework(String title, Class<?> main) {
        this.title = title;
        this.main = main;
    }

    /** The name {@code --server} takes and plot files carry. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What the report's headings call it. */
    public String title() {
        return title;
    }

    Class<?> mainClass() {
        return main;
    }

    /**
     * The framework named {@code id}.
     *
     * @throws IllegalArgumentException naming the known ones if there is none
     */
    public static Framework ofId(String id) {
        for (Framework f : values()) {
            if (f.id().equals(id)) {
                return f;
            }
        }
        throw new IllegalArgumentException("no server " + id + "; known: helidon, jdk");
    }
}
