package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PollerTickersBenchTest {
    private static final EchoBench.Config JDK = EchoBench.CONFIGS.get(0);
    private static final EchoBench.Config SHUTTLE_ON = EchoBench.CONFIGS.get(2);

    @Test
    void argumentsHaveDefaultsAndAreChecked() {
        assertEquals(new PollerTickersBench.Args(5, List.of(10), 15, 6, 1), PollerTickersBench.Args.parse());
        assertEquals(new PollerTickersBench.Args(2, List.of(10, 10_000), 3, 1, 0), PollerTickersBench.Args.parse(
                "--rounds", "2", "--threads", "10,10000", "--warmup", "3", "--measure", "1",
                "--idle-connections", "0"));
        assertThrows(IllegalArgumentException.class, () -> PollerTickersBench.Args.parse("--measure", "0"));
        assertThrows(IllegalArgumentException.class, () -> PollerTickersBench.Args.parse("--idle-connections", "-1"));
        assertThrows(IllegalArgumentException.class, () -> PollerTickersBench.Args.parse("--threads"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PollerTickersBench.Args.parse("--bogus", "1"));
        assertTrue(e.getMessage().contains("--bogus") && e.getMessage().contains("usage"), e.getMessage());
    }

    private static Map<String, Long> raw(long fired, Long tasksRun) {
        Map<String, Long> raw = new LinkedHashMap<>();
        raw.put("timersFired", fired);
        raw.put("elapsedNanos", 2_000_000_000L);
        raw.put("cpuNanos", 80_000_000L);
        raw.put("carrierCpuNanos", 60_000_000L);
        raw.put("allVoluntary", 30_000L);
        raw.put("allInvoluntary", 400L);
        raw.put("carrierVoluntary", 20_000L);
        raw.put("carrierInvoluntary", 200L);
        raw.put("dispatcherVoluntary", 0L);
        raw.put("dispatcherInvoluntary", 0L);
        raw.put("latenessSamples", fired);
        raw.put("latenessMeanNanos", 55_500L);
        raw.put("latenessP99Nanos", 120_000L);
        raw.put("jdkPollerThreads", 0L);
        if (tasksRun != null) {
            raw.put("mx.TasksRun", tasksRun);
            raw.put("mx.PollsBlocking", 5_000L);
        }
        return raw;
    }

    @Test
    void valuesArePerTimerFiredWithCpuAndLatenessInMicroseconds() {
        Map<String, Double> m = PollerTickersBench.perTimer(SHUTTLE_ON, raw(10_000, 10_000L));
        assertEquals(8.0, m.get("cpuMicros"), 1e-9);
        assertEquals(6.0, m.get("carrierCpuMicros"), 1e-9);
        assertEquals(2.0, m.get("otherCpuMicros"), 1e-9);
        assertEquals(3.0, m.get("allVoluntary"), 1e-9);
        assertEquals(0.04, m.get("allInvoluntary"), 1e-9);
        assertEquals(2.0, m.get("carrierVoluntary"), 1e-9);
        assertEquals(0.5, m.get("mx.PollsBlocking"), 1e-9);
        assertEquals(55.5, m.get("latenessMeanMicros"), 1e-9);
        assertEquals(120.0, m.get("latenessP99Micros"), 1e-9);
        assertEquals(5_000.0, m.get("timersPerSecond"), 1e-6);
        assertEquals(0.0, m.get("jdkPollerThreads"), 1e-9);
        assertTrue(m.keySet().stream().noneMatch(k -> k.startsWith("dispatcher")), m.toString());
    }

    @Test
    void noTimerFiredOrTheWrongSchedulerFailsTheRun() {
        assertThrows(IllegalStateException.class, () -> PollerTickersBench.perTimer(SHUTTLE_ON, raw(0, 10L)));
        assertThrows(IllegalStateException.class, () -> PollerTickersBench.perTimer(SHUTTLE_ON, raw(100, null)));
        assertThrows(IllegalStateException.class, () -> PollerTickersBench.perTimer(JDK, raw(100, 10L)));
        assertEquals(800.0, PollerTickersBench.perTimer(JDK, raw(100, null)).get("cpuMicros"), 1e-9);
    }
}
