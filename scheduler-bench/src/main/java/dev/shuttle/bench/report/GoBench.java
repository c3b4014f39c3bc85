package dev.shuttle.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's own benchmarks for the scenarios Shuttle ports, run with {@code go test} inside GOROOT, and a parser for
 * their output lines ({@code BenchmarkName/sub-PROCS  N  value unit  value unit ...}).
 */
public final class GoBench {
    /** One Go benchmark line: name without "Benchmark" and without the -PROCS suffix; metrics by unit. */
    public record Result(String name, int procs, long iterations, Map<String, Double> metrics) {
    }

    /** One {@code go test} invocation: the package directory under GOROOT/src and its arguments. */
    public record Command(String dir, List<String> args) {
    }

    private static final Pattern LINE = Pattern.compile("^Benchmark(\\S+?)(?:-(\\d+))?\\s+(\\d+)\\s+(.*)$");

    private GoBench() {
    }

    /** The invocations FullRun makes: timer latency (fixed iteration counts), timer operations, WakeupParallel. */
    public static List<Command> commands() {
        return List.of(
                new Command("time", List.of("-run", "^$", "-bench", "^Benchmark(ParallelTimerLatency|StaggeredTickerLatency)$",
                        "-benchtime", "300x")),
                new Command("time", List.of("-run", "^$", "-bench", "^Benchmark(Stop|Reset|StartStop1000|Sleep1000)$",
                        "-benchtime", "1s")),
                new Command("runtime", List.of("-run", "^$", "-bench", "^BenchmarkWakeupParallelSpinning$/^(0s|20µs)$",
                        "-cpu", "2,8,32,64", "-benchtime", "1s")));
    }

    /** Parses every benchmark line of {@code go test -bench} output; other lines are ignored. */
    public static List<Result> parse(String output) {
        List<Result> results = new ArrayList<>();
        for (String line : output.split("\\R")) {
            Matcher m = LINE.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            String[] fields = m.group(4).trim().split("\\s+");
            if (fields.length % 2 != 0) {
                continue;
            }
            Map<String, Double> metrics = new LinkedHashMap<>();
            try {
                for (int i = 0; i < fields.length; i += 2) {
                    metrics.put(fields[i + 1], Double.parseDouble(fields[i]));
                }
            } catch (NumberFormatException e) {
                continue; // a log line that merely starts with "Benchmark"
            }
            int procs = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            results.add(new Result(m.group(1), procs, Long.parseLong(m.group(3)), metrics));
        }
        return results;
    }

    /** The {@code go} tool: on PATH or under /usr/local/go; empty when Go is absent. */
    public static Optional<Path> goTool() {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "go");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        Path standard = Path.of("/usr/local/go/bin/go");
        return Files.isExecutable(standard) ? Optional.of(standard) : Optional.empty();
    }

    /** Runs one command in {@code GOROOT/src/<dir>} and returns its combined output. */
    public static String run(Path go, Command command, long timeoutMinutes) throws IOException, InterruptedException {
        Path goroot = Path.of(capture(List.of(go.toString(), "env", "GOROOT"), null, 1).strip());
        List<String> argv = new ArrayList<>(List.of(go.toString(), "test"));
        argv.addAll(command.args());
        return capture(argv, goroot.resolve("src").resolve(command.dir()), timeoutMinutes);
    }

    private static String capture(List<String> argv, Path dir, long timeoutMinutes)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + String.join(" ", argv));
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", argv) + " exited " + p.exitValue() + ":\n" + text);
        }
        return text;
    }
}
