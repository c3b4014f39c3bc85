/**
 * Shuttle's bridge to JDK 25's internals: what it reads of them and how its agent rewrites them. Not API: the
 * {@code dev.shuttle.scheduler} module does not export this package; its classes and members are public only so that
 * the scheduler in {@code dev.shuttle.scheduler} can call them, and may change in any release.
 *
 * <ul>
 *   <li>{@link dev.shuttle.scheduler.jdk.JdkVirtualThreads}: the private constructor, method and fields of
 *       {@code java.lang} the scheduler uses on its hot path (the virtual-thread builder, the current carrier, the
 *       thread behind a task and its state), resolved once at class initialisation; needs {@code java.lang} open to
 *       Shuttle's module, and fails with one message naming the flag.</li>
 *   <li>{@code JdkClassRewrite} and its four rewrites, which the agent applies before {@code main}:
 *       {@link dev.shuttle.scheduler.jdk.ThreadBuildersTransformer} (virtual threads created without a scheduler go to
 *       Shuttle), {@link dev.shuttle.scheduler.jdk.CarrierHooksTransformer} (the JDK's blocking and queued-work
 *       questions reach a Shuttle carrier), {@link dev.shuttle.scheduler.jdk.DefaultSchedulerTransformer} (the JDK's
 *       management reports Shuttle) and {@link dev.shuttle.scheduler.jdk.DelayHooksTransformer} (the measuring mode's
 *       hooks in the JDK's own scheduler), {@link dev.shuttle.scheduler.jdk.PollersTransformer} (the JDK hands its
 *       pollers to Shuttle instead of starting its poller threads).</li>
 *   <li>{@link dev.shuttle.scheduler.jdk.JdkPollers}: the JDK's pollers as the scheduler's network poll drives them,
 *       their epoll descriptors and a poll of each without blocking; needs {@code sun.nio.ch} open to Shuttle.</li>
 * </ul>
 *
 * <p>Invariants. Rewritten JDK code names no Shuttle class: {@code java.base} cannot see the application class loader,
 * so every hook calls Shuttle through a type of {@code java.base} ({@code IntPredicate}, {@code Executor},
 * {@code ObjIntConsumer}, {@code Predicate}) held in a field the rewrite adds or in the carrier thread itself; a JDK thread or pool never
 * implements that type's Shuttle meaning, so the JDK's own path is unchanged behind each hook. The question and hook
 * codes ({@code CarrierHooksTransformer.QUEUED_WORK}, {@code BEGIN_BLOCKING}, {@code END_BLOCKING};
 * {@code DelayHooksTransformer.HAND_OFF}, {@code STARTING}) are defined here, by the class that plants them, and
 * answered by the scheduler ({@code Carrier.test}, {@code JdkSchedulingDelays.accept}). A rewrite never throws (the
 * JVM would silently keep the original bytes): it records its failure for {@code SystemScheduler} to report as one
 * line. Retransformations add no field or method.
 *
 * <p>Ownership and direction. The scheduler package calls into this one, never the reverse: nothing here names a
 * class of {@code dev.shuttle.scheduler}, so this package can be read, and changed for a new JDK, on its own.
 * {@code dev.shuttle.scheduler.install.SystemScheduler} (the agent's installation) decides when each rewrite is installed and
 * removed. docs/design.md ("The agent", "The JDK's contracts") gives the reasons behind each rewrite.
 */
package dev.shuttle.scheduler.jdk;
