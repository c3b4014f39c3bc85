/**
 * The agent's installation of Shuttle as the JVM's default virtual-thread scheduler ({@code SystemScheduler}): it
 * checks {@code -Djdk.virtualThreadScheduler.implClass} and the {@code shuttle.*} properties, installs the JDK class
 * rewrites of {@code dev.shuttle.scheduler.jdk} in order, builds the default {@code ShuttleScheduler}, records it in
 * {@code dev.shuttle.scheduler.core.SchedulerAccess} (so that {@code ShuttleScheduler.systemDefault()} finds it without
 * loading this package, which names {@code java.lang.instrument} types), and hands its pool to the JDK. Not exported;
 * {@code dev.shuttle.scheduler.agent}'s {@code Premain-Class} calls it by reflection, once, before {@code main}.
 * Ownership: everything here runs on the agent's thread during premain; nothing in the scheduler names this package.
 */
package dev.shuttle.scheduler.install;
