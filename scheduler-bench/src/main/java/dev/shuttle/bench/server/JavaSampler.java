package dev.shuttle.bench.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Samples the server's own Java code with JFR's execution sampler ({@code jdk.ExecutionSample}), for the profiled run
 * the parent starts and stops through {@code ServerHandlers.PROFILE_START} and {@code PROFILE_STOP}, and counts the
 * samples by {@link CodeArea}. In the server's process, so both schedulers are profiled by the same code with the
 * same settings and nothing but the samples leaves it. The sampler sees threads running Java code only: garbage
 * collection, the JIT and time inside system calls are not in the samples. One recording at a time; the methods are
 * synchronized because control requests may arrive on any thread.
 */
final class JavaSampler {
    static final Duration PERIOD = Duration.ofMillis(1);
    private static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";

    private Recording recording;

    /** @throws IllegalStateException if a recording is already running */
    synchronized void start() {
        if (recording != null) {
            throw new IllegalStateException("a profile is already being recorded");
        }
        Recording r = new Recording();
        r.enable(EXECUTION_SAMPLE).withPeriod(PERIOD).withStackTrace();
        r.setToDisk(true);
        r.start();
        recording = r;
    }

    /**
     * Ends the recording and counts its samples.
     *
     * @throws IllegalStateException if no recording is running
     * @throws IOException if the recording cannot be written to or read from a temporary file
     */
    synchronized JavaSamples stop() throws IOException {
        if (recording == null) {
            throw new IllegalStateException("no profile is being recorded");
        }
        Recording r = recording;
        recording = null;
        Path file = Files.createTempFile("shuttle-server-profile", ".jfr");
        try (r) {
            r.stop();
            r.dump(file);
            Map<CodeArea, Long> counts = new EnumMap<>(CodeArea.class);
            try (RecordingFile events = new RecordingFile(file)) {
                while (events.hasMoreEvents()) {
                    RecordedEvent e = events.readEvent();
                    if (e.getEventType().getName().equals(EXECUTION_SAMPLE)) {
                        counts.merge(CodeArea.of(classNames(e.getStackTrace())), 1L, Long::sum);
                    }
                }
            }
            return new JavaSamples(PERIOD.toNanos(), counts);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static List<String> classNames(RecordedStackTrace stack) {
        List<String> names = new ArrayList<>();
        if (stack != null) {
            for (RecordedFrame frame : stack.getFrames()) {
                if (frame.isJavaFrame()) {
                    names.add(frame.getMethod().getType().getName());
                }
            }
        }
        return names;
    }
}
