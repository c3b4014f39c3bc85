package dev.shuttle.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GoBenchTest {
    static final String OUTPUT = """
            goos: linux
            goarch: amd64
            pkg: time
            cpu: AMD EPYC
            BenchmarkParallelTimerLatency-2   	     300	    137081 avg-late-ns	    512000 max-late-ns
            BenchmarkStaggeredTickerLatency/work-dur=300µs/tickers-per-P=1-2         	     300	         0 ns/op	    252400 avg-late-ns	   1129000 max-late-ns
            BenchmarkStop/impl=func-2   	 9875432	       121.3 ns/op
            BenchmarkWakeupParallelSpinning/20µs-8   	   20000	     55012 ns/op
            Benchmark log line without numbers
            PASS
            ok  	time	12.057s
            """;

    @Test
    void parsesNamesProcsAndMetrics() {
        List<GoBench.Result> results = GoBench.parse(OUTPUT);
        assertEquals(4, results.size());
        GoBench.Result ptl = results.get(0);
        assertEquals("ParallelTimerLatency", ptl.name());
        assertEquals(2, ptl.procs());
        assertEquals(300, ptl.iterations());
        assertEquals(Map.of("avg-late-ns", 137081.0, "max-late-ns", 512000.0), ptl.metrics());
        assertEquals("StaggeredTickerLatency/work-dur=300µs/tickers-per-P=1", results.get(1).name());
        assertEquals(121.3, results.get(2).metrics().get("ns/op"));
        assertEquals(8, results.get(3).procs());
    }

    @Test
    void referenceMapsJavaRowsToGoMetricsInTheRowUnit() {
        GoReference ref = new GoReference(GoBench.parse(OUTPUT), 2);
        assertEquals(137.081, ref.valueFor("timer.ParallelTimerLatency.round", "", "mean_us").orElseThrow(), 1e-9);
        assertEquals(512.0, ref.valueFor("timer.ParallelTimerLatency.round", "", "max_us").orElseThrow(), 1e-9);
        assertEquals(252.4, ref.valueFor("timer.StaggeredTickerLatency.tick", "load=300us/1", "mean_us")
                .orElseThrow(), 1e-9);
        assertEquals(121.3, ref.valueFor("timer.TimerStop.armAndCancel", "impl=stpe jmh.threads=2", "score")
                .orElseThrow(), 1e-9);
        assertEquals(55012.0, ref.valueFor("sched.Wakeup.pair", "delayUs=20 parallelism=8", "score")
                .orElseThrow(), 1e-9);
        assertTrue(ref.valueFor("sched.Wakeup.pair", "delayUs=20 parallelism=2", "score").isEmpty());
        assertEquals("-", ref.cell("sched.Skynet.tree", "size=1000000", "score"));
    }
}
