package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.install.SystemScheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad values of the carrier options (maxCarriers, timeSlice, keepAlive), on the builder and as system properties. */
class CarrierOptionsTest {
    static final String DURATION = "expected a duration such as 10ms or 1s (at least 1ms), or off";

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 32_768, Integer.MIN_VALUE})
    void maxCarriersOutOfRange(int bad) {
        assertEquals("maxCarriers must be between 1 and 32767, was " + bad, assertThrows(
                IllegalArgumentException.class, () -> ShuttleScheduler.builder().maxCarriers(bad)).getMessage());
    }

    @Test
    void maxCarriersBelowParallelismIsRefusedByBuild() {
        ShuttleScheduler.Builder builder = ShuttleScheduler.builder().parallelism(3).maxCarriers(2);
        assertEquals("maxCarriers (2) must be at least parallelism (3)",
                assertThrows(IllegalArgumentException.class, builder::build).getMessage());
        try (ShuttleScheduler s = ShuttleScheduler.builder().parallelism(3).maxCarriers(3).build()) {
            assertEquals(3, SchedulerAccess.poolOf(s).handOff.maxCarriers());
        }
    }

    @Test
    void maxCarriersDefaultsToTheJdksPoolSizeOrParallelism() {
        try (ShuttleScheduler s = ShuttleScheduler.builder().parallelism(2).build()) {
            assertEquals(ShuttleScheduler.Builder.DEFAULT_MAX_CARRIERS, SchedulerAccess.poolOf(s).handOff.maxCarriers());
        }
        try (ShuttleScheduler s = ShuttleScheduler.builder().parallelism(300).build()) {
            assertEquals(300, SchedulerAccess.poolOf(s).handOff.maxCarriers());
        }
    }

    @Test
    void timeSliceShorterThanOneMillisecond() {
        for (Duration bad : new Duration[] {Duration.ofNanos(999_999), Duration.ZERO, Duration.ofMillis(-5)}) {
            assertEquals("timeSlice must be at least PT0.001S, was " + bad, assertThrows(
                    IllegalArgumentException.class, () -> ShuttleScheduler.builder().timeSlice(bad)).getMessage());
        }
        ShuttleScheduler.builder().timeSlice(ShuttleScheduler.Builder.MIN_TIME_SLICE).timeSlice(null);
    }

    @Test
    void keepAliveMustBePositive() {
        for (Duration bad : new Duration[] {Duration.ZERO, Duration.ofNanos(-1), Duration.ofSeconds(-30)}) {
            assertEquals("keepAlive must be positive, was " + bad, assertThrows(
                    IllegalArgumentException.class, () -> ShuttleScheduler.builder().keepAlive(bad)).getMessage());
        }
        assertEquals("keepAlive", assertThrows(NullPointerException.class,
                () -> ShuttleScheduler.builder().keepAlive(null)).getMessage());
        ShuttleScheduler.builder().keepAlive(Duration.ofNanos(1));
    }

    @Test
    void maxCarriersProperty() {
        assertEquals(2, SystemScheduler.parseMaxCarriers("2", 2));
        assertEquals(32767, SystemScheduler.parseMaxCarriers("32767", 2));
        String range = "an integer from the parallelism (4) to 32767";
        for (String bad : new String[] {"3", "0", "-1", "32768", "99999999999"}) {
            assertEquals("out of range; expected " + range, assertThrows(IllegalArgumentException.class,
                    () -> SystemScheduler.parseMaxCarriers(bad, 4)).getMessage(), bad);
        }
        for (String bad : new String[] {"", "four", "4.0", "0x10", "999999999999999999999"}) {
            assertEquals("not a number; expected " + range, assertThrows(IllegalArgumentException.class,
                    () -> SystemScheduler.parseMaxCarriers(bad, 4)).getMessage(), bad);
        }
    }

    @Test
    void timeSliceProperty() {
        assertNull(SystemScheduler.parseTimeSlice("off"));
        assertEquals(Duration.ofMillis(1), SystemScheduler.parseTimeSlice("1ms"));
        assertEquals(Duration.ofMillis(10), SystemScheduler.parseTimeSlice("10ms"));
        assertEquals(Duration.ofSeconds(2), SystemScheduler.parseTimeSlice("2s"));
        for (String bad : new String[] {"0ms", "0s", "-5ms"}) {
            assertEquals("too short; " + DURATION, assertThrows(IllegalArgumentException.class,
                    () -> SystemScheduler.parseTimeSlice(bad)).getMessage(), bad);
        }
        for (String bad : new String[] {"10", "", "ms", "s", "fast"}) {
            assertEquals("no unit; " + DURATION, assertThrows(IllegalArgumentException.class,
                    () -> SystemScheduler.parseTimeSlice(bad)).getMessage(), bad);
        }
        for (String bad : new String[] {"500us", "1.5s", "tenms", "10 ms"}) {
            assertEquals("not a number; " + DURATION, assertThrows(IllegalArgumentException.class,
                    () -> SystemScheduler.parseTimeSlice(bad)).getMessage(), bad);
        }
    }
}
