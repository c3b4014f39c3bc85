/**
 * Shuttle's API: {@link dev.shuttle.scheduler.ShuttleScheduler}, a carrier scheduler for virtual threads, built with
 * its {@link dev.shuttle.scheduler.ShuttleScheduler.Builder}, and the two MXBean interfaces it registers
 * ({@link dev.shuttle.scheduler.ShuttleSchedulerMXBean}, {@link dev.shuttle.scheduler.SchedulingDelayMXBean}). This is
 * the only package of the {@code dev.shuttle.scheduler} module, besides {@code dev.shuttle.lock}, that it exports.
 *
 * <p>The scheduler itself lives in {@code dev.shuttle.scheduler.core}, not exported: its package-info is the design's
 * front page (Go's G/M/P mapping, the wake rule, the handshake recipes, timers, blocking and the monitor, each
 * invariant with the class that keeps it and the jcstress test that checks it); docs/design.md is the long form and
 * docs/guide.md the user's guide. {@code ShuttleScheduler} owns no scheduling state of its own: it builds a
 * {@code CarrierPool} and registers its MXBeans, and every scheduling decision is made in the core package.
 */
package dev.shuttle.scheduler;
