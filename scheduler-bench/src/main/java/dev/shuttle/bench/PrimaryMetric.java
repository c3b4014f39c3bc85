package dev.shuttle.bench;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the secondary result that is a benchmark's headline, for benchmarks whose JMH score is only the length of
 * an observation window (a constant on both schedulers). Reports drop that score and list this metric first.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface PrimaryMetric {
    /** The secondary result's name, e.g. {@code p99_us}. */
    String value();
}
