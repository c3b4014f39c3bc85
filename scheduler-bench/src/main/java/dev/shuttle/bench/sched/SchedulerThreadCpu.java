package dev.shuttle.bench.sched;

import dev.shuttle.scheduler.ShuttleScheduler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

/**
 * How much CPU each kind of Shuttle thread uses (the carriers together, the monitor) with {@code threads} virtual
 * threads sleeping 1 ms in a loop, the shape of {@code timer.Tickers}, and then with none at all: issue 16's bounds
 * on the monitor (under 0.5% of a core with 10 sleepers) and on an idle scheduler (under 1%). Per-thread CPU comes
 * from Linux's {@code /proc/self/task/TID/schedstat} (nanoseconds on a CPU), so this runs on Linux only. Not a JMH
 * benchmark: it attributes CPU to threads, which JMH's process-wide metrics cannot.
 *
 * <pre>java --add-opens=java.base/java.lang=ALL-UNNAMED -cp scheduler-bench/target/benchmarks.jar \
 *     dev.shuttle.bench.sched.SchedulerThreadCpu [threads=10] [warm-up seconds=15] [window seconds=10]</pre>
 */
public final class SchedulerThreadCpu {
    private static final Path TASKS = Path.of("/proc/self/task");

    private SchedulerThreadCpu() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        long warmUpMillis = (args.length > 1 ? Long.parseLong(args[1]) : 15) * 1000;
        long windowMillis = (args.length > 2 ? Long.parseLong(args[2]) : 10) * 1000;
        if (threads < 0 || warmUpMillis < 0 || windowMillis <= 0) {
            throw new IllegalArgumentException("threads and warm-up must be >= 0 and the window > 0: "
                    + String.join(" ", args));
        }
        if (!Files.isDirectory(TASKS)) {
            throw new IllegalStateException(TASKS + " not found: per-thread CPU needs Linux");
        }
        try (ShuttleScheduler shuttle = ShuttleScheduler.create()) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> sleepers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                sleepers.add(shuttle.ofVirtual().start(() -> {
                    while (!stop.get()) {
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }));
            }
            Thread.sleep(warmUpMillis);
            for (int w = 1; w <= 3; w++) {
                System.out.println(threads + " sleepers, window " + w + ": " + measure(windowMillis));
            }
            stop.set(true);
            for (Thread t : sleepers) {
                t.join();
            }
            // The sleepers are gone: the carriers and the monitor must settle into sleeping without a timeout.
            Thread.sleep(2000);
            System.out.println("idle scheduler: " + measure(windowMillis));
        }
    }

    /** CPU per kind of Shuttle thread over a window of {@code millis}, as a percentage of one core. */
    private static String measure(long millis) throws InterruptedException {
        Map<String, Long> before = cpuByKind();
        long t0 = System.nanoTime();
        Thread.sleep(millis);
        Map<String, Long> after = cpuByKind();
        long wall = System.nanoTime() - t0;
        StringBuilder out = new StringBuilder();
        after.forEach((kind, ns) -> out.append(String.format(Locale.ROOT, "%s %.3f%% of a core; ", kind,
                100.0 * (ns - before.getOrDefault(kind, 0L)) / wall)));
        return out.toString().trim();
    }

    /** Nanoseconds on a CPU so far, summed per kind: "carriers" (spares included) and "shuttle-monitor". */
    private static Map<String, Long> cpuByKind() {
        Map<String, Long> cpu = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : tasks.toList()) {
                String name;
                long onCpu;
                try {
                    name = Files.readString(task.resolve("comm")).trim();
                    onCpu = Long.parseLong(Files.readString(task.resolve("schedstat")).trim().split(" ")[0]);
                } catch (IOException gone) {
                    continue; // the thread ended between the listing and the read
                }
                if (name.startsWith("shuttle-carrier")) {
                    cpu.merge("carriers", onCpu, Long::sum);
                } else if (name.startsWith("shuttle-monitor")) {
                    cpu.merge("shuttle-monitor", onCpu, Long::sum);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return cpu;
    }
}
