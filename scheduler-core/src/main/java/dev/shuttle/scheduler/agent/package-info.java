/**
 * The entry point of Shuttle's Java agent ({@code -javaagent:scheduler-core-<version>-agent.jar}; not API); compiled
 * for Java 11 so that it can refuse a wrong JDK in one line. The work is done in
 * {@code dev.shuttle.scheduler.install.SystemScheduler} and {@code dev.shuttle.scheduler.jdk.ThreadBuildersTransformer};
 * docs/design.md, "The agent", describes the whole.
 */
package dev.shuttle.scheduler.agent;
