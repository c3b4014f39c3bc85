package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SteadyLoadArgsTest {
    private static final String[] REQUIRED = {"--server", "jdk", "--scheduler", "shuttle", "--endpoint",
        "/lock/spinbit", "--rate", "15700"};

    private static String[] with(String... more) {
        String[] all = new String[REQUIRED.length + more.length];
        System.arraycopy(REQUIRED, 0, all, 0, REQUIRED.length);
        System.arraycopy(more, 0, all, REQUIRED.length, more.length);
        return all;
    }

    private static String refusal(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> SteadyLoadArgs.parse(args)).getMessage();
    }

    @Test
    void theRequiredFlagsAloneTakeTheDefaults() {
        SteadyLoadArgs a = SteadyLoadArgs.parse(REQUIRED);
        assertEquals(Framework.JDK, a.framework());
        assertEquals("shuttle", a.scheduler());
        assertEquals(Endpoint.LOCK_SPINBIT, a.endpoint());
        assertEquals(15700.0, a.rate());
        assertEquals(TimeUnit.SECONDS.toNanos(SteadyLoadArgs.DEFAULT_WARMUP_SECONDS), a.warmupNanos());
        assertEquals(TimeUnit.SECONDS.toNanos(SteadyLoadArgs.DEFAULT_SECONDS), a.nanos());
        assertEquals(Optional.empty(), a.pidFile());
        assertEquals(List.of(), a.serverArgs());
    }

    @Test
    void theOptionalFlagsInAnyOrderAndServerArgsInTheirs() {
        SteadyLoadArgs a = SteadyLoadArgs.parse("--server-arg", "-XX:+PreserveFramePointer", "--seconds", "3",
                "--rate", "250.5", "--endpoint", "/hello", "--warmup", "0", "--scheduler", "jdk", "--pid-file",
                "/tmp/p", "--server", "helidon", "--server-arg", "-Xlog:gc");
        assertEquals(Framework.HELIDON, a.framework());
        assertEquals("jdk", a.scheduler());
        assertEquals(Endpoint.HELLO, a.endpoint());
        assertEquals(250.5, a.rate());
        assertEquals(0, a.warmupNanos());
        assertEquals(TimeUnit.SECONDS.toNanos(3), a.nanos());
        assertEquals(Optional.of(Path.of("/tmp/p")), a.pidFile());
        assertEquals(List.of("-XX:+PreserveFramePointer", "-Xlog:gc"), a.serverArgs());
    }

    @ParameterizedTest
    @ValueSource(strings = {"--server", "--scheduler", "--endpoint", "--rate"})
    void eachRequiredFlagMissingIsNamed(String flag) {
        List<String> args = new java.util.ArrayList<>(List.of(REQUIRED));
        int i = args.indexOf(flag);
        args.remove(i + 1);
        args.remove(i);
        String m = refusal(args.toArray(String[]::new));
        assertTrue(m.startsWith(flag + " is required"), m);
    }

    @Test
    void anUnknownFlagARepeatedOneAndAMissingValueAreRefused() {
        assertTrue(refusal(with("--rat", "5")).startsWith("unknown flag --rat"));
        assertEquals("--scheduler given twice: shuttle and jdk", refusal(with("--scheduler", "jdk")));
        assertEquals("--seconds needs a value", refusal(with("--seconds")));
    }

    @Test
    void anUnknownSchedulerServerOrEndpointIsRefused() {
        assertEquals("--scheduler takes jdk or shuttle, not go",
                refusal("--server", "jdk", "--scheduler", "go", "--endpoint", "/hello", "--rate", "1"));
        assertTrue(refusal("--server", "netty", "--scheduler", "jdk", "--endpoint", "/hello", "--rate", "1")
                .startsWith("no server netty"));
        assertTrue(refusal("--server", "jdk", "--scheduler", "jdk", "--endpoint", "/lock", "--rate", "1")
                .startsWith("no endpoint /lock"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "abc", "1000001", "NaN", "Infinity"})
    void refusesARateOutOfRange(String rate) {
        String m = refusal("--server", "jdk", "--scheduler", "jdk", "--endpoint", "/hello", "--rate", rate);
        assertEquals("--rate takes requests per second, above 0 and at most 1000000, not " + rate, m);
    }

    @Test
    void refusesAWindowOfNoTimeAndSecondsOutOfRange() {
        assertEquals("--seconds takes whole seconds from 1 to 600, not 0", refusal(with("--seconds", "0")));
        assertEquals("--warmup takes whole seconds from 0 to 600, not 601", refusal(with("--warmup", "601")));
        assertEquals("--warmup takes whole seconds from 0 to 600, not 1.5", refusal(with("--warmup", "1.5")));
    }
}
