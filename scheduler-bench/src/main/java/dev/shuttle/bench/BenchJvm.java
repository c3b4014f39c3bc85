package dev.shuttle.bench;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** JVM flags every forked benchmark JVM needs; one place so annotations and the Runner-API launchers agree. */
public final class BenchJvm {
    /** Opens java.lang for Shuttle's builder; silences the Unsafe memory-access warning of JMH's dependencies. */
    public static final String ADD_OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";
    public static final String UNSAFE_ALLOW = "--sun-misc-unsafe-memory-access=allow";
    /**
     * Lets Shuttle's carriers lower their Linux timer slack (see {@code TimerSlack} in scheduler-core), and lets the
     * suite give the JDK's scheduler threads the same slack ({@link SchedulerSlack}) and read process CPU
     * ({@code ProcessCpu}).
     */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";

    /** The package whose forks carry Shuttle's agent ({@link #agent}). */
    public static final String AGENT_PACKAGE = "dev.shuttle.bench.juc.";

    private BenchJvm() {
    }

    /**
     * {@code -javaagent:} naming the benchmarks jar these classes run from, by absolute path: the shaded jar is also
     * Shuttle's agent ({@code Premain-Class} in its manifest). A launcher prepends it to the forks of
     * {@value #AGENT_PACKAGE} benchmarks, on both sides of the comparison, so that the JDK's own spin-or-park
     * questions ({@code ForkJoinWorkerThread.hasKnownQueuedWork}) reach Shuttle through whatever the agent rewrites.
     * An annotation cannot hold it: the path is known only at run time. From JMH's command line the equivalent is
     * {@code -jvmArgsPrepend -javaagent:scheduler-bench/target/benchmarks.jar}.
     *
     * @throws IllegalStateException when these classes were not loaded from a jar (an IDE's class directory)
     */
    public static String agent() {
        Path source;
        try {
            source = Path.of(BenchJvm.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot locate the benchmarks jar for -javaagent: " + e, e);
        }
        if (!Files.isRegularFile(source)) {
            throw new IllegalStateException("-javaagent needs the benchmarks jar, but the benchmarks were loaded"
                    + " from " + source + "; build scheduler-bench/target/benchmarks.jar and run from it");
        }
        return "-javaagent:" + source.toAbsolutePath();
    }

    /** Whether {@code benchmark} (a fully qualified method or class name) runs with {@link #agent}. */
    public static boolean wantsAgent(String benchmark) {
        return benchmark.startsWith(AGENT_PACKAGE);
    }

    /**
     * The flags for a fork whose JDK default scheduler runs {@code parallelism} carriers, so that the "jdk" side of a
     * comparison gets the same parallelism as the "shuttle" side (the JDK reads it once, at startup).
     */
    public static String[] withJdkParallelism(int parallelism) {
        return new String[] {ADD_OPENS, UNSAFE_ALLOW, NATIVE_ACCESS,
            "-Djdk.virtualThreadScheduler.parallelism=" + parallelism};
    }
}
