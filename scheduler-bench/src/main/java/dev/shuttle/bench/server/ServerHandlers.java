package dev.shuttle.bench.server;

import dev.shuttle.bench.SchedulerSlack;
import dev.shuttle.bench.Schedulers;
import dev.shuttle.bench.metrics.ProcessCpu;
import dev.shuttle.lock.SpinBitLock;
import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.SchedulingDelayMXBean;
import dev.shuttle.scheduler.ShuttleSchedulerMXBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * What every server under load answers, whichever HTTP framework carries the request: the {@link Endpoint}s and the
 * control paths ({@link #CONTROL_PATHS}). Each server class ({@link HelidonServerApp}, {@link JdkServerApp}) only
 * maps paths to these methods, so the work per request is the same code on both. Also the start and stop both server
 * mains share.
 */
final class ServerHandlers {
    /** The server process's CPU time in nanoseconds, all threads, so the generator can charge CPU per request. */
    static final String CPU = "/cpu";
    /** The scheduler threads whose timer slack differs from the one both sides get; empty when like for like. */
    static final String SLACK = "/slack";
    /** Which scheduler ran the virtual thread that handled this request: see {@link #schedulerOfCurrentThread}. */
    static final String INFO = "/info";
    /**
     * {@link LockTimes} of both lock endpoints since the previous call: each call resets them, so that a run's are its
     * own.
     */
    static final String LOCKS = "/locks";
    /**
     * The JVM-wide Shuttle scheduler's cumulative counters ({@link SchedulerActivity#format}), or nothing on the JDK
     * default: read through JMX as an operator would, so the benchmark sees what they would.
     */
    static final String SCHEDULER = "/scheduler";
    /**
     * The scheduling-delay histogram of the scheduler that runs this JVM's virtual threads, since start
     * ({@link DelayCounts#format}): Shuttle's, or on the JDK default the agent's measuring mode's; nothing if neither
     * is registered (a JDK default without the measuring agent).
     */
    static final String DELAY = "/delay";
    /** This JVM's garbage collections and their time so far ({@link GcPauses#format}). */
    static final String GC = "/gc";
    /** Starts sampling the server's Java code ({@link JavaSampler}) for a profiled run. */
    static final String PROFILE_START = "/profile/start";
    /** Ends the profiled run's sampling and answers its {@link JavaSamples}. */
    static final String PROFILE_STOP = "/profile/stop";
    static final List<String> CONTROL_PATHS = List.of(CPU, SLACK, INFO, LOCKS, SCHEDULER, DELAY, GC,
            PROFILE_START, PROFILE_STOP);
    /**
     * Response header of every endpoint: {@link System#nanoTime} when the handler was entered, so the generator can
     * split a request's latency at the handler ({@link SlowestRequests}). Both processes read the same clock: on Linux
     * {@code System.nanoTime} is {@code CLOCK_MONOTONIC}, one clock for the whole machine.
     */
    static final String HANDLED_AT = "X-Handled-At";
    /**
     * Response header of a server that hands each request to an executor ({@link JdkServerApp}): two {@link
     * System#nanoTime}s, when its dispatcher thread handed the request over and when the request's virtual thread
     * began to run, so that the time to the handler can be split at the scheduler's part ({@link SlowestRequests}).
     */
    static final String DISPATCHED_AT = "X-Dispatched-At";
    /** The agent names the scheduler it installs {@code default}. */
    private static final ObjectName DEFAULT_SCHEDULER = objectName("dev.shuttle:type=ShuttleScheduler,name=default");
    /** Shuttle's scheduling delays under the agent, then the JDK default's in the agent's measuring mode. */
    private static final List<ObjectName> DELAY_BEANS = List.of(
            objectName("dev.shuttle:type=SchedulingDelay,name=default"),
            objectName("dev.shuttle:type=SchedulingDelay,name=jdk-default"));

    static final long CRITICAL_SECTION_NANOS = TimeUnit.MICROSECONDS.toNanos(20);
    static final int FAN_OUT = 8;
    static final int FILE_BYTES = 256 * 1024;

    private final TimedLock reentrant = new TimedLock(new ReentrantLock());
    private final TimedLock spinBit = new TimedLock(new SpinBitLock());
    private final JavaSampler sampler = new JavaSampler();
    private final Path file;

    private ServerHandlers(Path file) {
        this.file = file;
    }

    /**
     * Lowers this thread's timer slack and writes the file {@link Endpoint#FILE} reads. Call first in a server's
     * main: before the framework or the JDK creates any thread for virtual threads, so those threads inherit the slack
     * that Shuttle's carriers set for themselves.
     */
    static ServerHandlers prepare() throws IOException {
        SchedulerSlack.lowerCurrentThread();
        Path file = Files.createTempFile("shuttle-server-bench", ".bin");
        file.toFile().deleteOnExit();
        Files.write(file, new byte[FILE_BYTES]);
        return new ServerHandlers(file);
    }

    /**
     * Prints the {@code PORT} line the parent waits for, then blocks until standard input closes: the parent holds it
     * open while it wants the server.
     */
    static void announceAndWait(int port) throws IOException {
        System.out.println("PORT " + port);
        System.out.flush();
        while (System.in.read() >= 0) {
            // nothing is sent; end of input is the signal
        }
    }

    /** The body {@code endpoint} answers, after doing its work on the calling (request) thread. */
    String answer(Endpoint endpoint) throws IOException, InterruptedException {
        return switch (endpoint) {
            case HELLO -> "hello";
            case SLEEP -> {
                Thread.sleep(1);
                yield "slept";
            }
            case LOCK_REENTRANT -> underLock(reentrant);
            case LOCK_SPINBIT -> underLock(spinBit);
            case FAN_OUT -> fanOut();
            case FILE -> Integer.toString(Files.readAllBytes(file).length);
        };
    }

    /** The body of a control path, or null if {@code path} is none. */
    String control(String path) {
        return switch (path) {
            case CPU -> Long.toString(ProcessCpu.nanos());
            case SLACK -> String.join(", ", SchedulerSlack.schedulerThreadsWithOtherSlack());
            case INFO -> schedulerOfCurrentThread();
            case LOCKS -> LockTimes.format(Map.of(Endpoint.LOCK_REENTRANT, reentrant.interval(),
                    Endpoint.LOCK_SPINBIT, spinBit.interval()));
            case SCHEDULER -> schedulerActivity();
            case DELAY -> schedulingDelays();
            case GC -> GcPauses.ofThisJvm().format();
            case PROFILE_START -> {
                sampler.start();
                yield "started";
            }
            case PROFILE_STOP -> stopSampling();
            default -> null;
        };
    }

    private String stopSampling() {
        try {
            return sampler.stop().format();
        } catch (IOException e) {
            throw new UncheckedIOException("the profile's recording could not be read back", e);
        }
    }

    private static String schedulerActivity() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        return !server.isRegistered(DEFAULT_SCHEDULER) ? "" : SchedulerActivity.of(
                JMX.newMXBeanProxy(server, DEFAULT_SCHEDULER, ShuttleSchedulerMXBean.class)).format();
    }

    private static String schedulingDelays() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (ObjectName name : DELAY_BEANS) {
            if (server.isRegistered(name)) {
                return DelayCounts.of(JMX.newMXBeanProxy(server, name, SchedulingDelayMXBean.class)).format();
            }
        }
        return "";
    }

    private static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(name, e);
        }
    }

    /**
     * {@value Schedulers#SHUTTLE} if the calling thread is a virtual thread mounted on a carrier of Shuttle's JVM-wide
     * scheduler, {@value Schedulers#JDK} if on a worker of the JDK's default {@code ForkJoinPool}, else a description
     * of the thread. Read from the thread itself rather than from how the JVM was started, so a framework that ran
     * requests on platform threads, or on a scheduler of its own, is caught. A mounted virtual thread prints as
     * {@code VirtualThread[#id,name]/runnable@carrier}.
     */
    static String schedulerOfCurrentThread() {
        Thread thread = Thread.currentThread();
        if (!thread.isVirtual()) {
            return "platform thread " + thread.getName();
        }
        String printed = thread.toString();
        String carrier = printed.substring(printed.lastIndexOf('@') + 1);
        if (carrier.startsWith("shuttle-carrier-") && ShuttleScheduler.systemDefault().isPresent()) {
            return Schedulers.SHUTTLE;
        }
        if (carrier.startsWith("ForkJoinPool-") && ShuttleScheduler.systemDefault().isEmpty()) {
            return Schedulers.JDK;
        }
        return "virtual thread " + printed;
    }

    private static String underLock(TimedLock lock) {
        lock.spinUnder(CRITICAL_SECTION_NANOS);
        return "locked";
    }

    private static String fanOut() throws InterruptedException {
        Thread[] children = new Thread[FAN_OUT];
        for (int i = 0; i < FAN_OUT; i++) {
            children[i] = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        for (Thread child : children) {
            child.join();
        }
        return "joined";
    }
}
