package dev.shuttle.scheduler.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.shuttle.scheduler.core.BlockedCarriersTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * End-to-end tests of the agent: child JVMs run {@link AgentApps} the way a user runs an unmodified application,
 * {@code java -javaagent:lib/scheduler-core-<version>-agent.jar -Djdk.virtualThreadScheduler.implClass=... -cp app Main}.
 *
 * <p>Runs under maven-failsafe-plugin (integration-test phase, after package) because it needs the packaged agent
 * jar: its manifest and contents are part of what is tested. {@code lib} is a fresh directory holding only that one
 * jar; the child's class path is only the test classes, and it gets no {@code --add-opens}.
 */
class ShuttleAgentIT {
    static final String IMPL = "-Djdk.virtualThreadScheduler.implClass=";
    static final String SHUTTLE = IMPL + "dev.shuttle.scheduler.ShuttleScheduler";

    @TempDir
    static Path lib;
    static Path agentJar;
    static String appClassPath;

    @BeforeAll
    static void layOutLib() throws Exception {
        String jarProperty = System.getProperty("shuttle.agent.jar");
        assertTrue(jarProperty != null && Files.isRegularFile(Path.of(jarProperty)),
                "the packaged scheduler-core jar (system property shuttle.agent.jar) must exist: run mvn verify;"
                        + " was " + jarProperty);
        Path jar = Path.of(jarProperty);
        agentJar = Files.copy(jar, lib.resolve(jar.getFileName()));
        try (JarFile jf = new JarFile(jar.toFile())) {
            Manifest manifest = jf.getManifest();
            assertEquals("dev.shuttle.scheduler.agent.ShuttleAgent",
                    manifest.getMainAttributes().getValue("Premain-Class"));
            assertNull(manifest.getMainAttributes().getValue("Class-Path"),
                    "the agent jar must need nothing beside it");
            assertNotNull(jf.getEntry("dev/shuttle/timers/TimerHeap.class"), "scheduler-timers is inside");
            assertNotNull(jf.getEntry("dev/shuttle/internal/jctools/queues/MessagePassingQueue.class"),
                    "JCTools is inside, relocated");
            assertTrue(jf.stream().noneMatch(e -> e.getName().startsWith("org/")),
                    "nothing outside dev.shuttle's namespace");
        }
        appClassPath = Path.of(AgentApps.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }

    record Run(int exitCode, String out, String err) {
        String firstErrLine() {
            return err.lines().findFirst().orElse("");
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static Run run(String java, List<String> jvmArgs, String... appArgs) throws IOException, InterruptedException {
        List<String> main = new ArrayList<>(List.of(AgentApps.class.getName()));
        main.addAll(List.of(appArgs));
        return runMain(java, jvmArgs, main);
    }

    /** Runs {@code main} (a class name or a source file with the launcher's options, then its arguments). */
    static Run runMain(String java, List<String> jvmArgs, List<String> main) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.add("-javaagent:" + agentJar);
        command.add("-XX:+UseSerialGC");
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(appClassPath);
        command.addAll(main);
        Path out = Files.createTempFile(lib, "out", ".txt");
        Path err = Files.createTempFile(lib, "err", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(50, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            fail("child JVM did not finish in 50 s: " + command + "\n" + Files.readString(out) + Files.readString(err));
        }
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    static String java25() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static void assertPassed(Run run, String... checks) {
        assertEquals(0, run.exitCode(), run::toString);
        for (String check : checks) {
            assertTrue(run.out().contains("\nok " + check + ":"), () -> "missing check '" + check + "' in " + run);
        }
    }

    @Test
    void everyJdkApiRunsOnShuttle() throws Exception {
        Run run = run(java25(), List.of(SHUTTLE, "-Dshuttle.parallelism=2"), "apis", "2");
        assertPassed(run, "Thread.ofVirtual().start", "Thread.ofVirtual().unstarted", "Thread.startVirtualThread",
                "Thread.ofVirtual().factory()", "Executors.newVirtualThreadPerTaskExecutor",
                "CompletableFuture on the per-task executor",
                "Executors.newThreadPerTaskExecutor(ofVirtual().factory())", "after Thread.sleep (timed park)",
                "child of a Shuttle virtual thread", "1000 sleeping threads on Shuttle's carriers",
                "explicit scheduler is kept", "child of a virtual thread with an explicit scheduler",
                "a separate ShuttleScheduler still works", "systemDefault() is present",
                "systemDefault().parallelism() == 2", "systemDefault().close() is refused");
    }

    @Test
    void parallelismDefaultsToAvailableProcessors() throws Exception {
        int cpus = Runtime.getRuntime().availableProcessors();
        Run run = run(java25(), List.of(SHUTTLE), "apis", Integer.toString(cpus));
        assertPassed(run, "systemDefault().parallelism() == " + cpus);
    }

    @Test
    void theJdksSchedulerMxBeanDescribesShuttle() throws Exception {
        Run run = run(java25(), List.of(SHUTTLE, "-Dshuttle.parallelism=3"), "jdk-mxbean", "3");
        assertPassed(run, "getParallelism() == 3", "getPoolSize() == 3 when idle",
                "mounted count sees the running threads", "queued count sees the queued threads",
                "setParallelism(0) is refused naming the value", "and changes nothing",
                "getParallelism() follows setParallelism(1)", "getParallelism() follows setParallelism(4)",
                "the resizes under load lost no task and no timer",
                "4 carriers run virtual threads at once after setParallelism(4)");
    }

    @Test
    void shuttlesMxBeanCountsTheVirtualThreadsItRuns() throws Exception {
        Run run = run(java25(), List.of(SHUTTLE), "shuttle-mxbean");
        assertPassed(run, "LiveVirtualThreads counts 50 waiting threads", "and forgets them once they ended");
    }

    @Test
    void httpServerHandlersRunOnShuttle() throws Exception {
        Run run = run(java25(), List.of(SHUTTLE), "http", "2000");
        assertPassed(run, "2000 requests handled on Shuttle");
    }

    @Test
    void httpServerKeepsAnsweringWhileTwoHandlersReadFifos(@TempDir Path fifos) throws Exception {
        mkfifos(fifos);
        Run run = run(java25(), List.of(SHUTTLE, "-Dshuttle.parallelism=2"), "blocked-http", fifos.toString(), "20",
                "true");
        assertPassed(run, "two handlers are blocked reading FIFOs",
                "GET /hello is answered while two handlers read FIFOs",
                "the blocked handlers answer once their FIFOs are written");
    }

    /** The same on the JDK's own scheduler stalls: what the test above would see without Shuttle's monitor. */
    @Test
    void onTheJdkSchedulerTheHttpServerStallsWhileTwoHandlersReadFifos(@TempDir Path fifos) throws Exception {
        mkfifos(fifos);
        Run run = run(java25(), List.of("-Djdk.virtualThreadScheduler.parallelism=2"), "blocked-http",
                fifos.toString(), "1", "false");
        assertPassed(run, "two handlers are blocked reading FIFOs", "GET /hello stalls while two handlers read FIFOs",
                "the blocked handlers answer once their FIFOs are written");
    }

    static void mkfifos(Path dir) throws Exception {
        for (int i = 0; i < 2; i++) {
            BlockedCarriersTest.mkfifo(dir.resolve("fifo-" + i));
        }
    }

    @Test
    void blockingAndQueuedWorkHooksActOnShuttleCarriers() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/cat")) || Files.isExecutable(Path.of("/usr/bin/cat")),
                "cat is not available");
        Run run = run(java25(), List.of(SHUTTLE, "-Dshuttle.parallelism=2",
                "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
                "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED"), "hooks");
        assertPassed(run, "a ticker keeps ticking while two virtual threads read child processes' pipes",
                "the readers finish once the processes write", "the blocked carriers' processors were handed off",
                "Blocker.begin on a Shuttle carrier enters the marked call",
                "a virtual thread runs while the only processor's carrier is in a Blocker-marked call",
                "hasKnownQueuedWork: nothing queued, a thread just started, nothing queued, a thread just unparked,"
                        + " nothing queued");
    }

    @Test
    void withoutThePropertySchedulingIsUnchangedAndTheApiIsOpen() throws Exception {
        Run run = run(java25(), List.of(), "plain");
        assertPassed(run, "Thread.ofVirtual().start stays on the JDK's scheduler",
                "Executors.newVirtualThreadPerTaskExecutor stays on the JDK's scheduler", "systemDefault() is empty",
                "ShuttleScheduler.create().ofVirtual() works without --add-opens",
                "children of Shuttle threads stay on Shuttle");
    }

    @Test
    void withoutContinuationsTheAgentWarnsOnceAndLeavesSchedulingUnchanged() throws Exception {
        Run run = run(java25(), List.of(SHUTTLE, "-XX:+UnlockExperimentalVMOptions", "-XX:-VMContinuations"), "plain");
        // The app itself runs (its Shuttle checks fail: without continuations no scheduler runs virtual threads).
        assertTrue(run.out().startsWith("main started"), run::toString);
        assertTrue(run.firstErrLine().startsWith("shuttle: warning: this JVM runs virtual threads as platform threads"
                + " (-XX:-VMContinuations)"), run::toString);
        assertTrue(run.out().contains("ok systemDefault() is empty"), run::toString);
    }

    @Test
    void badCarrierOptionsStopTheJvmWithOneLine() throws Exception {
        Run max = run(java25(), List.of(SHUTTLE, "-Dshuttle.parallelism=2", "-Dshuttle.maxCarriers=1"), "plain");
        assertEquals(1, max.exitCode(), max::toString);
        assertEquals("shuttle: -Dshuttle.maxCarriers=1: out of range; expected an integer from the parallelism (2) to"
                + " 32767", max.firstErrLine(), max::toString);
        Run slice = run(java25(), List.of(SHUTTLE, "-Dshuttle.timeSlice=10"), "plain");
        assertEquals(1, slice.exitCode(), slice::toString);
        assertEquals("shuttle: -Dshuttle.timeSlice=10: no unit; expected a duration such as 10ms or 1s (at least 1ms),"
                + " or off", slice.firstErrLine(), slice::toString);
    }

    /**
     * The JDK-default measuring mode: the JDK's pool keeps scheduling (its workers run the threads) and a known 5 ms
     * wait shows in the histogram; on Shuttle the same application reads the same bean shape.
     */
    @Test
    void measuringModeShowsAKnownDelayOnTheJdkDefaultAndOnShuttle() throws Exception {
        Run jdk = run(java25(), List.of("-Dshuttle.measure=true", "-Djdk.virtualThreadScheduler.parallelism=1"),
                "measure", "jdk-default");
        assertPassed(jdk, "sampled starts in 4-6 ms", "no sampled start below 4 ms but the driver's", "p99 reported",
                "ran on " + AgentApps.JDK_DEFAULT);
        Run shuttle = run(java25(), List.of(SHUTTLE, "-Dshuttle.parallelism=1", "-Dshuttle.measure=true"),
                "measure", "default");
        assertPassed(shuttle, "sampled starts in 4-6 ms", "no sampled start below 4 ms but the driver's",
                "p99 reported", "ran on " + AgentApps.SHUTTLE);
    }

    /** Runs a mode of {@link UserPathApps} on Shuttle with the given options. */
    static Run userPaths(List<String> jvmArgs, String mode) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(SHUTTLE));
        args.addAll(jvmArgs);
        return runMain(java25(), args, List.of(UserPathApps.class.getName(), mode));
    }

    @Test
    void timedWaitsInterruptsAndScopedValuesOnShuttle() throws Exception {
        Run run = userPaths(List.of("-Dshuttle.parallelism=2"), "waits");
        assertPassed(run, "Thread.join(Duration) on a live thread returns false after its timeout",
                "and true once the thread ends", "2000 interrupted timed sleeps all end", "and each saw its interrupt",
                "Object.wait(50) in a virtual thread returns after its timeout",
                "Object.wait() in a virtual thread ends with InterruptedException",
                "SpinBitLock.tryLock(50 ms) on a held lock returns false",
                "SpinBitLock.lockInterruptibly ends with InterruptedException", "and leaves no waiter queued",
                "the lock is then acquired by another thread", "a ScopedValue stays bound across sleep, yield and park",
                "the monitor rescued no lost wake-up");
    }

    @Test
    void structuredTaskScopeRunsOnShuttle() throws Exception {
        Path app = Path.of(ShuttleAgentIT.class.getResource("StructuredScopeApp.java").toURI());
        Run run = runMain(java25(), List.of(SHUTTLE, "-Dshuttle.parallelism=2"),
                List.of("--enable-preview", "--source", "25", app.toString()));
        assertPassed(run, "StructuredTaskScope forks see the owner's ScopedValue and run on Shuttle",
                "the first result ends the scope and interrupts the sleeping forks");
    }

    @Test
    void aMillionThreadsEndAndLeaveNothingBehind() throws Exception {
        Run run = userPaths(List.of("-Dshuttle.parallelism=2", "-Xmx256m"), "million");
        assertPassed(run, "a million sleeping virtual threads all end", "and Shuttle counts none alive afterwards",
                "and the heap after a collection holds under 32 MB", "the monitor rescued no lost wake-up");
    }

    @Test
    void timeSliceLetsOtherWorkRunBesideAComputingThread() throws Exception {
        Run run = userPaths(List.of("-Dshuttle.parallelism=1", "-Dshuttle.timeSlice=10ms"), "time-slice");
        assertPassed(run, "a computing virtual thread on the only processor does not keep another from running");
    }

    @Test
    void maxCarriersCapsTheThreadsBlockedCarriersTake() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/cat")) || Files.isExecutable(Path.of("/usr/bin/cat")),
                "cat is not available");
        Run run = userPaths(List.of("-Dshuttle.parallelism=1", "-Dshuttle.maxCarriers=2"), "max-carriers");
        assertPassed(run, "blocked carriers took a second carrier thread and no third",
                "all three readers finish once the processes write");
        assertTrue(run.err().contains("all 2 carrier threads are in use (maxCarriers)"), run::toString);
    }

    /** A recording started on the command line holds Shuttle's events: the periodic statistics and a long task. */
    @Test
    void aRecordingStartedOnTheCommandLineHoldsShuttlesEvents() throws Exception {
        Path recording = lib.resolve("user-paths.jfr");
        Run run = userPaths(List.of("-Dshuttle.parallelism=1", "-XX:StartFlightRecording=filename=" + recording),
                "jfr");
        assertPassed(run, "the recorded workload ends");
        java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
        String longTaskCarrier = null;
        try (var file = new jdk.jfr.consumer.RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                var event = file.readEvent();
                String type = event.getEventType().getName();
                if (type.startsWith("dev.shuttle.")) {
                    counts.merge(type, 1, Integer::sum);
                }
                if (type.equals("dev.shuttle.LongTask") && longTaskCarrier == null) {
                    longTaskCarrier = event.toString();
                }
            }
        }
        assertTrue(counts.getOrDefault("dev.shuttle.SchedulerStatistics", 0) >= 1, counts::toString);
        assertTrue(counts.getOrDefault("dev.shuttle.LongTask", 0) >= 1, counts::toString);
        assertTrue(longTaskCarrier.contains("shuttle-carrier-") && longTaskCarrier.contains("UserPathApps"),
                longTaskCarrier);
    }

    static Stream<Arguments> badInputs() {
        String supported = "the only supported value is dev.shuttle.scheduler.ShuttleScheduler";
        String range = "expected an integer from 1 to 32767";
        return Stream.of(
                Arguments.of(List.of(IMPL + "com.example.NoSuchScheduler"),
                        "shuttle: " + IMPL + "com.example.NoSuchScheduler: no such class on the class path;"
                                + " the agent installs dev.shuttle.scheduler.ShuttleScheduler"),
                Arguments.of(List.of(IMPL + "java.lang.String"),
                        "shuttle: " + IMPL + "java.lang.String: not a virtual-thread scheduler; " + supported),
                Arguments.of(List.of(IMPL + "java.util.concurrent.ForkJoinPool"),
                        "shuttle: " + IMPL + "java.util.concurrent.ForkJoinPool: an Executor Shuttle's agent cannot"
                                + " install; " + supported),
                Arguments.of(List.of(IMPL),
                        "shuttle: " + IMPL + ": empty; the agent installs dev.shuttle.scheduler.ShuttleScheduler"),
                Arguments.of(List.of(SHUTTLE, "-Dshuttle.parallelism=four"),
                        "shuttle: -Dshuttle.parallelism=four: not a number; " + range),
                Arguments.of(List.of(SHUTTLE, "-Dshuttle.parallelism=0"),
                        "shuttle: -Dshuttle.parallelism=0: out of range; " + range),
                Arguments.of(List.of(SHUTTLE, "-Dshuttle.parallelism=32768"),
                        "shuttle: -Dshuttle.parallelism=32768: out of range; " + range),
                Arguments.of(List.of(SHUTTLE, "-Dshuttle.parallelism=2", "-Dshuttle.maxCarriers=1"),
                        "shuttle: -Dshuttle.maxCarriers=1: out of range; expected an integer from the parallelism (2)"
                                + " to 32767"),
                Arguments.of(List.of("-Dshuttle.measure=yes"),
                        "shuttle: -Dshuttle.measure=yes: expected true or false"),
                Arguments.of(List.of(SHUTTLE, "-Dshuttle.schedulingDelay=sampled"),
                        "shuttle: -Dshuttle.schedulingDelay=sampled: expected on or off"),
                Arguments.of(List.of(SHUTTLE, "-Dshuttle.timeSlice=500us"),
                        "shuttle: -Dshuttle.timeSlice=500us: not a number; expected a duration such as 10ms or 1s"
                                + " (at least 1ms), or off"));
    }

    @ParameterizedTest
    @MethodSource("badInputs")
    void badInputStopsTheJvmBeforeMainWithOneLine(List<String> jvmArgs, String expectedLine) throws Exception {
        Run run = run(java25(), jvmArgs, "plain");
        assertEquals(1, run.exitCode(), run::toString);
        assertEquals(expectedLine, run.firstErrLine(), run::toString);
        assertEquals(1, run.err().lines().count(), run::toString);
        assertFalse(run.out().contains("main started"), run::toString);
    }

    @Test
    void unsupportedJdkStopsTheJvmBeforeMainWithOneLine() throws Exception {
        Path java17 = Path.of("/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
        String other = System.getProperty("shuttle.test.otherJava", java17.toString());
        assumeTrue(Files.isExecutable(Path.of(other)), "no non-25 JDK at " + other);
        Run run = run(other, List.of(SHUTTLE), "plain");
        assertEquals(1, run.exitCode(), run::toString);
        assertTrue(run.firstErrLine().startsWith("shuttle: -javaagent needs JDK 25, this JVM is JDK "),
                run::toString);
        assertEquals(1, run.err().lines().count(), run::toString);
        assertFalse(run.out().contains("main started"), run::toString);
    }
}
