package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EchoBenchTest {
    private static final EchoBench.Config JDK = EchoBench.CONFIGS.get(0);
    private static final EchoBench.Config SHUTTLE_OFF = EchoBench.CONFIGS.get(1);

    @Test
    void threeConfigurationsTheJdkDefaultFirstAndOnlyOneWithNetpollOff() {
        assertEquals(List.of("jdk", "shuttle-off", "shuttle-on"), EchoBench.CONFIGS.stream()
                .map(EchoBench.Config::name).toList());
        assertEquals(List.of(false, true, true), EchoBench.CONFIGS.stream().map(EchoBench.Config::shuttle).toList());
        assertEquals(List.of("-Dshuttle.netpoll=off"), SHUTTLE_OFF.flags());
    }

    @Test
    void argumentsHaveDefaultsAndAreChecked() {
        EchoBench.Args d = EchoBench.Args.parse();
        assertEquals(new EchoBench.Args(5, 20_000, 10_000, List.of(1, 2), 64), d);
        EchoBench.Args a = EchoBench.Args.parse("--rounds", "2", "--clients", "1", "--size", "512",
                "--round-trips", "100", "--warmup", "10");
        assertEquals(new EchoBench.Args(2, 100, 10, List.of(1), 512), a);
        assertThrows(IllegalArgumentException.class, () -> EchoBench.Args.parse("--rounds"));
        assertThrows(IllegalArgumentException.class, () -> EchoBench.Args.parse("--size", "0"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EchoBench.Args.parse("--bogus", "1"));
        assertTrue(e.getMessage().contains("--bogus") && e.getMessage().contains("usage"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> EchoBench.Args.parse("--clients", "4", "--round-trips", "3"));
    }

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = new long[100];
        for (int i = 0; i < 100; i++) {
            sorted[i] = i + 1;
        }
        assertEquals(50, EchoBench.percentile(sorted, 0.50));
        assertEquals(99, EchoBench.percentile(sorted, 0.99));
        assertEquals(100, EchoBench.percentile(sorted, 1.0));
        assertEquals(7, EchoBench.percentile(new long[] {7}, 0.99));
        assertThrows(IllegalArgumentException.class, () -> EchoBench.percentile(new long[0], 0.5));
    }

    private static Map<String, Long> raw(long echoes, Long tasksRun) {
        Map<String, Long> raw = new LinkedHashMap<>();
        raw.put("echoes", echoes);
        raw.put("cpuNanos", 4_000_000L);
        raw.put("carrierVoluntary", 300L);
        raw.put("carrierInvoluntary", 20L);
        raw.put("pollerVoluntary", 100L);
        raw.put("pollerInvoluntary", 0L);
        raw.put("dispatcherVoluntary", 0L);
        raw.put("dispatcherInvoluntary", 0L);
        raw.put("otherVoluntary", 80L);
        raw.put("otherInvoluntary", 0L);
        raw.put("jdkPollerThreads", 1L);
        if (tasksRun != null) {
            raw.put("mx.TasksRun", tasksRun);
        }
        raw.put("roundTrips", 100L);
        raw.put("elapsedNanos", 10_000_000L);
        raw.put("latencyP50Nanos", 40_000L);
        raw.put("latencyP99Nanos", 95_500L);
        return raw;
    }

    @Test
    void valuesArePerRoundTripWithLatencyInMicroseconds() {
        Map<String, Double> m = EchoBench.perRoundTrip(SHUTTLE_OFF, raw(100, 200L));
        assertEquals(40.0, m.get("cpuMicros"), 1e-9);
        assertEquals(3.0, m.get("carrierVoluntary"), 1e-9);
        assertEquals(0.2, m.get("carrierInvoluntary"), 1e-9);
        assertEquals(1.0, m.get("pollerVoluntary"), 1e-9);
        assertEquals(5.0, m.get("switchesAll"), 1e-9);
        assertEquals(2.0, m.get("mx.TasksRun"), 1e-9);
        assertEquals(40.0, m.get("latencyP50Micros"), 1e-9);
        assertEquals(95.5, m.get("latencyP99Micros"), 1e-9);
        assertEquals(10_000.0, m.get("roundTripsPerSecond"), 1e-6);
        assertEquals(1.0, m.get("jdkPollerThreads"), 1e-9);
        assertTrue(m.keySet().stream().noneMatch(k -> k.startsWith("dispatcher")), m.toString());
    }

    @Test
    void aLostOrRepeatedEchoOrTheWrongSchedulerFailsTheRun() {
        assertThrows(IllegalStateException.class, () -> EchoBench.perRoundTrip(SHUTTLE_OFF, raw(99, 200L)));
        assertThrows(IllegalStateException.class, () -> EchoBench.perRoundTrip(SHUTTLE_OFF, raw(101, 200L)));
        assertThrows(IllegalStateException.class, () -> EchoBench.perRoundTrip(SHUTTLE_OFF, raw(100, null)));
        assertThrows(IllegalStateException.class, () -> EchoBench.perRoundTrip(JDK, raw(100, 200L)));
        assertEquals(40.0, EchoBench.perRoundTrip(JDK, raw(100, null)).get("cpuMicros"), 1e-9);
    }
}
