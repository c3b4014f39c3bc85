package dev.shuttle.bench.server;

import dev.shuttle.bench.Schedulers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@link SteadyLoad}'s command line. As {@link ServerBenchArgs}, an unknown flag is refused rather than skipped, and so
 * is a second value for a flag that takes one: a profile taken at the wrong rate or on the wrong scheduler looks like
 * any other.
 *
 * @param rate requests per second, offered open loop
 * @param warmupNanos closed loop before the measured window, for the JIT
 * @param nanos the measured window
 * @param pidFile where the server's process id is written when the measured window starts, for a profiler to attach
 */
record SteadyLoadArgs(Framework framework, String scheduler, Endpoint endpoint, double rate, long warmupNanos,
        long nanos, Optional<Path> pidFile, List<String> serverArgs) {
    /** The suite's finding for its JMH trials: anything shorter measures the JIT. */
    static final int DEFAULT_WARMUP_SECONDS = 15;
    static final int DEFAULT_SECONDS = 10;
    /** Ten minutes bound a run someone forgot; a profile needs seconds. */
    static final int MAX_SECONDS = 600;
    /** Beyond what one generator thread per connection can send on any machine this runs on. */
    static final int MAX_RATE = 1_000_000;

    private static final List<String> FLAGS = List.of("--server", "--scheduler", "--endpoint", "--rate", "--warmup",
            "--seconds", "--pid-file", "--server-arg");

    /**
     * @throws IllegalArgumentException naming the flag, for an unknown flag, a missing, repeated or out-of-range
     *     value, or a missing required flag
     */
    static SteadyLoadArgs parse(String... args) {
        String[] values = new String[FLAGS.size()];
        List<String> serverArgs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            int f = FLAGS.indexOf(flag);
            if (f < 0) {
                throw new IllegalArgumentException("unknown flag " + flag + "; the flags are " + FLAGS);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            if (flag.equals("--server-arg")) {
                serverArgs.add(value);
            } else if (values[f] != null) {
                throw new IllegalArgumentException(flag + " given twice: " + values[f] + " and " + value);
            } else {
                values[f] = value;
            }
        }
        Framework framework = Framework.ofId(required(values, "--server"));
        String scheduler = required(values, "--scheduler");
        if (!scheduler.equals(Schedulers.JDK) && !scheduler.equals(Schedulers.SHUTTLE)) {
            throw new IllegalArgumentException("--scheduler takes " + Schedulers.JDK + " or " + Schedulers.SHUTTLE
                    + ", not " + scheduler);
        }
        Endpoint endpoint = Endpoint.ofPath(required(values, "--endpoint"));
        double rate = rate(required(values, "--rate"));
        long warmup = seconds(values, "--warmup", DEFAULT_WARMUP_SECONDS, 0);
        long window = seconds(values, "--seconds", DEFAULT_SECONDS, 1);
        String pidFile = values[FLAGS.indexOf("--pid-file")];
        return new SteadyLoadArgs(framework, scheduler, endpoint, rate, warmup, window,
                Optional.ofNullable(pidFile).map(Path::of), List.copyOf(serverArgs));
    }

    private static String required(String[] values, String flag) {
        String value = values[FLAGS.indexOf(flag)];
        if (value == null) {
            throw new IllegalArgumentException(flag + " is required (" + usage() + ")");
        }
        return value;
    }

    private static double rate(String value) {
        double rate;
        try {
            rate = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            rate = Double.NaN;
        }
        if (!(rate > 0 && rate <= MAX_RATE)) {
            throw new IllegalArgumentException("--rate takes requests per second, above 0 and at most " + MAX_RATE
                    + ", not " + value);
        }
        return rate;
    }

    private static long seconds(String[] values, String flag, int byDefault, int least) {
        String value = values[FLAGS.indexOf(flag)];
        if (value == null) {
            return TimeUnit.SECONDS.toNanos(byDefault);
        }
        int s;
        try {
            s = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            s = -1;
        }
        if (s < least || s > MAX_SECONDS) {
            throw new IllegalArgumentException(flag + " takes whole seconds from " + least + " to " + MAX_SECONDS
                    + ", not " + value);
        }
        return TimeUnit.SECONDS.toNanos(s);
    }

    static String usage() {
        return "usage: SteadyLoad --server jdk|helidon --scheduler jdk|shuttle --endpoint PATH --rate PER_SECOND"
                + " [--warmup SECONDS (" + DEFAULT_WARMUP_SECONDS + ")] [--seconds SECONDS (" + DEFAULT_SECONDS
                + ")] [--pid-file FILE] [--server-arg JVM_FLAG]...";
    }
}
