package dev.shuttle.bench;

import dev.shuttle.scheduler.ShuttleScheduler;

/**
 * The scheduler under test, by the name a benchmark's {@code scheduler} parameter gives: {@code jdk} is the JDK's
 * default virtual-thread scheduler ({@link Thread#ofVirtual()}), {@code shuttle} a fresh {@link ShuttleScheduler}.
 * Close it in the benchmark's {@code @TearDown} so the carriers of one trial never leak into the next.
 */
public final class Schedulers implements AutoCloseable {
    public static final String JDK = "jdk";
    public static final String SHUTTLE = "shuttle";
    private static final String JDK_PARALLELISM = "jdk.virtualThreadScheduler.parallelism";

    private final ShuttleScheduler shuttle;

    private Schedulers(ShuttleScheduler shuttle) {
        this.shuttle = shuttle;
    }

    /**
     * Opens the named scheduler with {@code parallelism} carriers; 0 means one per available processor, the JDK's
     * own default.
     *
     * @throws IllegalArgumentException for an unknown name
     * @throws IllegalStateException if the JDK side was asked for a parallelism its JVM was not started with: the
     *     default scheduler reads {@value #JDK_PARALLELISM} once, so the fork must carry that property
     */
    public static Schedulers open(String name, int parallelism) {
        return switch (name) {
            case JDK -> {
                int wanted = parallelism == 0 ? Runtime.getRuntime().availableProcessors() : parallelism;
                int actual = jdkParallelism();
                if (wanted != actual) {
                    throw new IllegalStateException("scheduler=jdk asked for parallelism " + wanted + " but this JVM's"
                            + " default scheduler has " + actual + "; fork with -D" + JDK_PARALLELISM + "=" + wanted
                            + " (dev.shuttle.bench.report.FullRun does this for the parallelism sweep)");
                }
                yield new Schedulers(null);
            }
            case SHUTTLE -> new Schedulers(parallelism == 0
                    ? ShuttleScheduler.create()
                    : ShuttleScheduler.builder().parallelism(parallelism).build());
            default -> throw new IllegalArgumentException("unknown scheduler '" + name + "': use jdk or shuttle");
        };
    }

    /** The parallelism the JDK's default scheduler runs with in this JVM. */
    public static int jdkParallelism() {
        String property = System.getProperty(JDK_PARALLELISM);
        return property == null ? Runtime.getRuntime().availableProcessors() : Integer.parseInt(property.trim());
    }

    /** A new builder of virtual threads on this scheduler. */
    public Thread.Builder.OfVirtual ofVirtual() {
        return shuttle == null ? Thread.ofVirtual() : shuttle.ofVirtual();
    }

    /** The number of carriers: the JDK default scheduler's parallelism or Shuttle's. */
    public int parallelism() {
        return shuttle == null ? jdkParallelism() : shuttle.parallelism();
    }

    @Override
    public void close() {
        if (shuttle != null) {
            shuttle.close();
        }
    }
}
