package dev.shuttle.bench;

import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The benchmarks compiled into this jar (JMH's {@code META-INF/BenchmarkList}), so launchers find benchmarks that
 * teammates add (such as {@code dev.shuttle.bench.lock}) without naming them.
 */
public final class BenchmarkCatalog {
    /** Benchmarks of the spin-bit lock, written separately; included when present. */
    public static final String LOCK_PACKAGE = "dev.shuttle.bench.lock.";

    private BenchmarkCatalog() {
    }

    /** Fully qualified benchmark method names matching {@code regex}, sorted. */
    public static List<String> find(String regex) {
        TreeSet<String> names = new TreeSet<>();
        for (BenchmarkListEntry e : BenchmarkList.defaultList().find(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of(regex), List.of())) {
            names.add(e.getUsername());
        }
        return List.copyOf(names);
    }

    /** An include regex matching exactly one benchmark method. */
    public static String exactly(String benchmark) {
        return "^" + Pattern.quote(benchmark) + "$";
    }
}
