/**
 * What an operator sees of a running scheduler: the implementations of the exported MXBean interfaces
 * ({@code SchedulerMXBeanImpl}, {@code SchedulingDelayView}), the counters they report ({@code SchedulerCounters}, one
 * snapshot of the processors' and the pool's own counters), the periodic JFR statistics event
 * ({@code SchedulerStatisticsEvent}), and the measuring of the JDK's own scheduler when the agent is asked for it
 * ({@code JdkSchedulingDelays} with its {@code StampTable}). Not exported.
 *
 * <p>Ownership: nothing here decides anything about scheduling. The counters it reports are written by their owners
 * in {@code dev.shuttle.scheduler.core} (a processor's by its holder, as plain fields) and read here racily, once per
 * report, so a report is not a consistent cut but never slows a carrier. The JFR events the carriers and the monitor
 * emit stay in the core package beside their emitters, as do the per-carrier delay stamps and histograms, because
 * this package reads the core and the core must not read it back. The one writer here is
 * {@code JdkSchedulingDelays}, which the agent's rewrite of the JDK's scheduler calls on hand-offs when measuring is
 * on; its histograms are one per JDK carrier thread, written by that thread only (its class comment has the rest).
 */
package dev.shuttle.scheduler.observe;
