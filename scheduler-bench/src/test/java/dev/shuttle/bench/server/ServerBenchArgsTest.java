package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ServerBenchArgsTest {
    @Test
    void theRequestTimeoutChangesOnlyTheTimeoutOfTheSettingsChosen() {
        ServerBenchArgs a = ServerBenchArgs.parse("--request-timeout", "500", "--smoke", "--server", "jdk");
        assertEquals(TimeUnit.MILLISECONDS.toNanos(500), a.settings().requestTimeoutNanos());
        assertEquals(ServerBench.SMOKE.stepNanos(), a.settings().stepNanos());
        assertEquals(List.of(Framework.JDK), a.frameworks());
        assertEquals(ServerBench.REQUEST_TIMEOUT_NANOS, ServerBenchArgs.parse().settings().requestTimeoutNanos());
    }

    @ParameterizedTest
    @ValueSource(strings = {"9", "60001", "0", "-5", "2s", "1.5"})
    void refusesATimeoutOutOfRange(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerBenchArgs.parse("--request-timeout", value));
        assertTrue(e.getMessage().startsWith("--request-timeout takes whole milliseconds from 10 to 60000"),
                e.getMessage());
    }

    @Test
    void roundsAreOneUnlessAskedForWhateverTheSettings() {
        assertEquals(1, ServerBenchArgs.parse().settings().rounds());
        assertEquals(1, ServerBenchArgs.parse("--smoke").settings().rounds());
        ServerBenchArgs a = ServerBenchArgs.parse("--rounds", "3", "--smoke", "--request-timeout", "500");
        assertEquals(3, a.settings().rounds());
        assertEquals(ServerBench.SMOKE.stepNanos(), a.settings().stepNanos());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(500), a.settings().requestTimeoutNanos());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-2", "two", "1.5", "", "3000000000"})
    void refusesRoundsThatAreNotAPositiveWholeNumber(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerBenchArgs.parse("--rounds", value));
        assertEquals("--rounds takes a whole number of rounds, 1 or more, not " + value, e.getMessage());
    }

    @Test
    void refusesAnUnknownFlagAndAMissingValue() {
        assertThrows(IllegalArgumentException.class, () -> ServerBenchArgs.parse("--request-timout", "500"));
        assertThrows(IllegalArgumentException.class, () -> ServerBenchArgs.parse("--plots"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerBenchArgs.parse("--smoke", "--rounds"));
        assertEquals("--rounds needs a value", e.getMessage());
    }

    @Test
    void linksThePlotsFromTheReportsFolder() {
        assertEquals("benchmarks", ServerBenchArgs.parse("--out", "docs/server.md", "--plots", "docs/benchmarks")
                .plotLink());
        assertEquals(Path.of("target/plots").toString(), ServerBenchArgs.parse("--plots", "target/plots").plotLink());
    }

    @Test
    void loadsReplaceOnlyTheOpenLoopFractions() {
        ServerBench.Settings settings = ServerBenchArgs.parse("--loads", "0.25", "--rounds", "5").settings();
        assertArrayEquals(new double[] {0.25}, settings.loads());
        assertEquals(5, settings.rounds());
        assertEquals(ServerBench.FULL.stepNanos(), settings.stepNanos());
        assertArrayEquals(new double[] {0.25, 0.5, 0.75}, ServerBenchArgs.parse().settings().loads());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-0.25", "1.5", "half", "0.25,", ",0.5", ""})
    void refusesLoadsThatAreNotFractionsOfTheMaximum(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ServerBenchArgs.parse("--loads", value));
        assertTrue(e.getMessage().contains("--loads"), e.getMessage());
    }
}
