package dev.shuttle.bench.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.shuttle.bench.metrics.Spin;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JavaSamplesTest {
    @Test
    void theTextFormRoundTripsAndAddsUp() {
        JavaSamples a = new JavaSamples(1_000_000, Map.of(CodeArea.SCHEDULER, 5L, CodeArea.LOCK, 2L));
        assertEquals(a, JavaSamples.parse(a.format()));
        JavaSamples sum = a.plus(new JavaSamples(1_000_000, Map.of(CodeArea.LOCK, 3L, CodeArea.OTHER, 1L)));
        assertEquals(5, sum.count(CodeArea.SCHEDULER));
        assertEquals(5, sum.count(CodeArea.LOCK));
        assertEquals(0, sum.count(CodeArea.IO));
        assertEquals(11, sum.total());
        assertThrows(IllegalArgumentException.class, () -> a.plus(new JavaSamples(10_000_000, Map.of())));
    }

    @Test
    void malformedTextIsRefusedQuotingIt() {
        for (String text : List.of("SCHEDULER 5\n", "period 1000000\nNOWHERE 5\n", "period 1000000\nLOCK 1\nLOCK 2\n",
                "period 1000000\nLOCK -1\n", "period x\n", "period 1000000 LOCK 1\n")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JavaSamples.parse(text),
                    text);
            assertTrue(e.getMessage().contains("malformed CPU samples") && e.getMessage().contains(text.strip()),
                    e.getMessage());
        }
    }

    @Test
    void aSampleGoesToTheTopmostFrameInAnArea() {
        assertEquals(CodeArea.HANDLER_SPIN, CodeArea.of(List.of("java.lang.System", "dev.shuttle.bench.metrics.Spin",
                "dev.shuttle.bench.server.TimedLock", "java.lang.VirtualThread")));
        assertEquals(CodeArea.LOCK, CodeArea.of(List.of("jdk.internal.misc.Unsafe", "dev.shuttle.lock.SpinBitLock",
                "dev.shuttle.bench.server.TimedLock")));
        assertEquals(CodeArea.SCHEDULER, CodeArea.of(List.of("java.util.concurrent.locks.LockSupport",
                "java.util.concurrent.locks.AbstractQueuedSynchronizer")), "parking is the scheduler's work");
        assertEquals(CodeArea.HTTP_SERVER, CodeArea.of(List.of("java.util.HashMap", "io.helidon.http.Headers")));
        assertEquals(CodeArea.OTHER, CodeArea.of(List.of("java.util.HashMap", "java.lang.String")));
        assertEquals(CodeArea.OTHER, CodeArea.of(List.of()));
    }

    @Test
    void theSamplerCountsThisThreadsSpin() throws Exception {
        JavaSampler sampler = new JavaSampler();
        assertThrows(IllegalStateException.class, sampler::stop, "nothing started");
        sampler.start();
        assertThrows(IllegalStateException.class, sampler::start, "already started");
        // 300 samples' worth of spinning: a loaded machine may take many from this thread, not all.
        Spin.forNanos(300 * JavaSampler.PERIOD.toNanos());
        JavaSamples samples = sampler.stop();
        assertEquals(JavaSampler.PERIOD.toNanos(), samples.periodNanos());
        assertTrue(samples.count(CodeArea.HANDLER_SPIN) > 0, samples.format());
    }
}
