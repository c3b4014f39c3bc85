package dev.shuttle.bench;

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

    private BenchJvm() {
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
