/**
 * Shuttle: a carrier scheduler for virtual threads ({@link dev.shuttle.scheduler.ShuttleScheduler}) and the spin-bit
 * lock ({@link dev.shuttle.lock.SpinBitLock}).
 *
 * <p>The API is the two exported packages. Everything else in this module is internal and not exported:
 * {@code dev.shuttle.scheduler.core} (the scheduler), {@code dev.shuttle.scheduler.observe} (its MXBeans' and
 * statistics' implementation), {@code dev.shuttle.scheduler.install} (the agent's installation),
 * {@code dev.shuttle.scheduler.jdk} (the JDK's internals Shuttle reads and the class-file rewrites its agent applies)
 * and {@code dev.shuttle.scheduler.agent} (the {@code Premain-Class}). On the class path, where the module
 * declaration is ignored, those packages are visible but are still not API.
 *
 * <p>Shuttle reads {@code java.lang.VirtualThread}'s internals, so {@code java.base/java.lang} must be open to this
 * module: {@code --add-opens java.base/java.lang=dev.shuttle.scheduler} on the module path
 * ({@code =ALL-UNNAMED} on the class path), or Shuttle's agent, which opens it itself.
 */
module dev.shuttle.scheduler {
    // The per-carrier timer heaps (scheduler-timers).
    requires dev.shuttle.timers;
    // The run queues: JCTools' VarHandle queues (org.jctools.core.jdk11) and the interfaces they implement.
    requires org.jctools.core;
    requires org.jctools.core.jdk11;
    // The agent's class-file rewrites (dev.shuttle.scheduler.install, dev.shuttle.scheduler.jdk).
    requires java.instrument;
    // The scheduler's MXBeans.
    requires java.management;
    // The scheduler's JFR events.
    requires jdk.jfr;

    exports dev.shuttle.scheduler;
    exports dev.shuttle.lock;
}
