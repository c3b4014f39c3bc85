package dev.shuttle.bench.server;

import dev.shuttle.bench.BenchJvm;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A child JVM running one {@link Framework}'s server, on the JDK's default scheduler with the agent measuring its
 * scheduling delay ({@link #jdkMeasuringFlags}) or on Shuttle through the agent, with the same flags and heap
 * otherwise. It ends when closed (its standard input closes), or is killed 5 s later.
 */
final class ServerProcess implements AutoCloseable {
    static final String HEAP = "-Xmx512m";
    private static final String AGENT_PROPERTY = "shuttle.agentJar";

    private final Process process;
    private final BufferedReader out;
    private final int port;
    private final List<String> command;

    private ServerProcess(Process process, BufferedReader out, int port, List<String> command) {
        this.process = process;
        this.out = out;
        this.port = port;
        this.command = command;
    }

    /** The JVM flags both servers get. */
    static List<String> commonFlags() {
        return List.of(HEAP, "-Xms512m", BenchJvm.ADD_OPENS, BenchJvm.UNSAFE_ALLOW, BenchJvm.NATIVE_ACCESS);
    }

    /** The flags that put Shuttle under every virtual thread: the agent and the property that selects Shuttle. */
    static List<String> shuttleFlags() {
        return List.of("-javaagent:" + agentJar(),
                "-Djdk.virtualThreadScheduler.implClass=dev.shuttle.scheduler.ShuttleScheduler");
    }

    /**
     * The flags that measure the JDK default's scheduling delay: the agent in its measuring mode, which records the
     * same histogram as Shuttle's for the JDK's own scheduler and leaves the JDK's pool scheduling as it does, so both
     * servers run an agent and their delays are measured alike.
     *
     * <p>Any agent loaded at startup makes HotSpot report every virtual thread's mount and unmount to JVMTI, a call
     * into the VM at each, which a JVM without an agent skips (docs/operations.md, "Cost"). Both servers run an agent,
     * so both pay it, as Shuttle's users do; the report says so. {@code -XX:-DoJVMTIVirtualThreadTransitions} would keep
     * those calls out, but with it the JDK {@code HttpServer} under the agent hung starting the profiled run's JFR
     * recording, so neither server gets it.
     */
    static List<String> jdkMeasuringFlags() {
        return List.of("-javaagent:" + agentJar(), "-Dshuttle.measure=true");
    }

    static ServerProcess start(Framework framework, boolean shuttle, List<String> extraFlags) throws IOException {
        return start(framework.mainClass(), shuttle, extraFlags);
    }

    /**
     * Starts {@code main} with {@code args} as a server: it must print {@code PORT <n>} once it listens and end when
     * its standard input closes.
     */
    static ServerProcess start(Class<?> main, boolean shuttle, List<String> extraFlags, String... args)
            throws IOException {
        List<String> command = command(main, shuttle, extraFlags, args);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.US_ASCII));
        String line = readPortLineWithin(out, process, TimeUnit.SECONDS.toMillis(30));
        if (line == null) {
            process.destroyForcibly();
            throw new IOException("the server did not start (no PORT line): " + String.join(" ", command));
        }
        return new ServerProcess(process, out, Integer.parseInt(line.substring(5).strip()), command);
    }

    /**
     * The command line of a child JVM running {@code main} with {@code args} on this JVM's class path: the common
     * flags, the agent on Shuttle ({@link #shuttleFlags}) or measuring the JDK default ({@link #jdkMeasuringFlags}),
     * then {@code extraFlags}.
     */
    static List<String> command(Class<?> main, boolean shuttle, List<String> extraFlags, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(commonFlags());
        command.addAll(shuttle ? shuttleFlags() : jdkMeasuringFlags());
        command.addAll(extraFlags);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * The server's {@code PORT} line, or null if it ended or took longer than {@code millis}. Lines before it (a JVM
     * flag such as {@code -XX:StartFlightRecording} prints some) go to this process's standard error.
     */
    private static String readPortLineWithin(BufferedReader out, Process process, long millis) throws IOException {
        Thread killer = Thread.ofPlatform().daemon().start(() -> {
            try {
                if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                // the line arrived; stop watching
            }
        });
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("PORT ")) {
            System.err.println("server: " + line);
        }
        killer.interrupt();
        return line;
    }

    /**
     * The scheduler-core jar to pass to {@code -javaagent}: {@value #AGENT_PROPERTY} when set, else the one the build
     * left in {@code scheduler-core/target} (the newest, if several versions are there). Its classes load from the
     * benchmark jar, which precedes it on the class path and also holds scheduler-timers and JCTools.
     */
    static Path agentJar() {
        String configured = System.getProperty(AGENT_PROPERTY);
        if (configured != null) {
            return Path.of(configured);
        }
        Path target = Path.of("scheduler-core", "target");
        try (Stream<Path> jars = Files.list(target)) {
            // The newest: a version bump leaves the old version's jar beside the new one until a clean.
            return jars.filter(p -> p.getFileName().toString().matches("scheduler-core-[^-]+(-SNAPSHOT)?\\.jar"))
                    .max(java.util.Comparator.comparing(ServerProcess::modified)).orElseThrow(() -> new IllegalStateException("no scheduler-core jar in " + target
                            + "; build first (./shuttle build) or set -D" + AGENT_PROPERTY));
        } catch (IOException e) {
            throw new IllegalStateException("cannot look for the agent jar in " + target.toAbsolutePath()
                    + " (run from the repository root, or set -D" + AGENT_PROPERTY + ")", e);
        }
    }

    private static java.nio.file.attribute.FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Sends {@code request} as a line to the server's standard input and returns the first line it prints that starts
     * with {@code replyPrefix}; lines before it go to this process's standard error.
     *
     * @throws IOException if the server ends first
     */
    String ask(String request, String replyPrefix) throws IOException {
        process.getOutputStream().write((request + "\n").getBytes(StandardCharsets.US_ASCII));
        process.getOutputStream().flush();
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith(replyPrefix)) {
                return line;
            }
            System.err.println("server: " + line);
        }
        throw new IOException("the server ended without answering " + request + ": " + commandLine());
    }

    /** The server JVM's process id, for a profiler to attach to. */
    long pid() {
        return process.pid();
    }

    int port() {
        return port;
    }

    /** The command line, with the class path shortened to its first entry's file name. */
    String commandLine() {
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < command.size(); i++) {
            String arg = command.get(i);
            boolean classPath = i > 0 && command.get(i - 1).equals("-cp");
            shown.add(classPath ? Path.of(arg.split(File.pathSeparator)[0]).getFileName().toString() : arg);
        }
        return String.join(" ", shown);
    }

    @Override
    public void close() throws InterruptedException {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            process.destroy();
        }
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
