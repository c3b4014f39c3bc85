package dev.shuttle.scheduler.agent;

import static dev.shuttle.scheduler.agent.ShuttleAgentIT.SHUTTLE;
import static dev.shuttle.scheduler.agent.ShuttleAgentIT.assertPassed;
import static dev.shuttle.scheduler.agent.ShuttleAgentIT.java25;

import dev.shuttle.scheduler.agent.ShuttleAgentIT.Run;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Blocking network I/O from virtual threads under the agent ({@link NetpollApps} in a child JVM), for parallelism 1
 * and 2 on three schedulers: the JDK's default, Shuttle with {@code -Dshuttle.netpoll=off} (the JDK's poller threads
 * deliver readiness) and Shuttle with netpoll at its default, on (Shuttle's carriers poll, where the platform allows).
 *
 * <p>The {@code on} runs ask for it explicitly ({@code -Dshuttle.netpoll=on}, so the agent refuses to start where it
 * cannot drive the pollers) and require that no {@code MasterPoller} thread and no {@code SubPoller} virtual thread
 * exist and that Shuttle's poll counters moved; the JDK's pollers must be present in the other runs.
 *
 * <p>The compute case runs on Shuttle with {@code shuttle.timeSlice=10ms}: two virtual threads that spin hold both
 * carriers at parallelism 2 (and the only one at 1), and no scheduler can run a reader beside them without a
 * processor hand-off, since the JDK cannot preempt a virtual thread; on the JDK's pool the reader never starts.
 */
class NetpollIT {
    private static final int CONNECTIONS = 10_000;
    private static final int WAKES = 20;

    @TempDir
    static Path lib;

    /** The agent jar laid out as {@link ShuttleAgentIT} does, whose runner this class uses. */
    @BeforeAll
    static void layOutLib() throws Exception {
        ShuttleAgentIT.lib = lib;
        ShuttleAgentIT.layOutLib();
    }

    enum Scheduler {
        JDK_DEFAULT, NETPOLL_OFF, NETPOLL_ON;

        List<String> flags(int parallelism) {
            // Native access on every side alike: Shuttle's netpoll needs it (epoll through the FFM API).
            List<String> flags = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED"));
            if (this == JDK_DEFAULT) {
                flags.add("-Djdk.virtualThreadScheduler.parallelism=" + parallelism);
                return flags;
            }
            flags.add(SHUTTLE);
            flags.add("-Dshuttle.parallelism=" + parallelism);
            if (this == NETPOLL_OFF) {
                flags.add("-Dshuttle.netpoll=off");
            } else {
                flags.add("-Dshuttle.netpoll=on");
            }
            return flags;
        }
    }

    static Stream<Arguments> ioConfigurations() {
        return Stream.of(Scheduler.values())
                .flatMap(s -> Stream.of(Arguments.of(s, 1), Arguments.of(s, 2)));
    }

    static Stream<Arguments> computeConfigurations() {
        return Stream.of(Scheduler.NETPOLL_OFF, Scheduler.NETPOLL_ON)
                .flatMap(s -> Stream.of(Arguments.of(s, 1), Arguments.of(s, 2)));
    }

    @ParameterizedTest(name = "{0}, parallelism {1}")
    @MethodSource("ioConfigurations")
    void blockingIoWakesWithTheRightOutcomeWhileATickerKeepsTicking(Scheduler scheduler, int parallelism)
            throws Exception {
        Run run = ShuttleAgentIT.runMain(java25(), scheduler.flags(parallelism),
                List.of(NetpollApps.class.getName(), "io", Integer.toString(CONNECTIONS)));
        System.out.println(scheduler + ", parallelism " + parallelism + ":\n" + infoLines(run));
        List<String> checks = new ArrayList<>(List.of(
                "ServerSocket.accept wakes for a connection",
                "ServerSocket.accept with SO_TIMEOUT throws SocketTimeoutException",
                "Socket read wakes for data", "Socket read with SO_TIMEOUT throws SocketTimeoutException",
                "the socket reads after a timeout",
                "Socket write blocks on a full buffer and wakes as a slow reader drains it", "Socket connect",
                "Socket connect with a timeout (accept queue full) throws SocketTimeoutException",
                "SocketChannel write blocks on a full buffer and wakes as a slow reader drains it",
                "ServerSocketChannel.accept wakes for a connection", "SocketChannel read wakes for data",
                "DatagramChannel receive wakes for a datagram", "Pipe source read wakes for data",
                "Pipe sink write blocks on a full buffer and wakes as a slow reader drains it",
                "Selector.select in a virtual thread wakes for readiness",
                "Selector.select in a virtual thread wakes for wakeup()",
                "Selector.select in a virtual thread returns on interrupt with the status set",
                "Selector.select(100) in a virtual thread times out",
                CONNECTIONS + " connections each answered once",
                "a virtual thread sleeping 1 ms kept ticking during all of it (gap bound 1 s)"));
        for (String op : List.of("Socket read", "Socket write (full send buffer)", "ServerSocket.accept",
                "Socket connect")) {
            checks.add("interrupt while blocked in " + op
                    + " throws SocketException with the interrupt status set");
            checks.add("close while blocked in " + op + " throws SocketException");
        }
        for (String op : List.of("SocketChannel read", "SocketChannel write (full send buffer)",
                "ServerSocketChannel.accept", "SocketChannel.connect", "DatagramChannel receive", "Pipe source read",
                "Pipe sink write (full pipe)")) {
            checks.add("interrupt while blocked in " + op
                    + " throws ClosedByInterruptException with the interrupt status set");
            checks.add("close while blocked in " + op + " throws AsynchronousCloseException");
        }
        checks.addAll(pollerChecks(scheduler));
        assertPassed(run, checks.toArray(String[]::new));
    }

    @ParameterizedTest(name = "{0}, parallelism {1}")
    @MethodSource("computeConfigurations")
    void aReaderWakesWhileTwoVirtualThreadsCompute(Scheduler scheduler, int parallelism) throws Exception {
        List<String> flags = new ArrayList<>(scheduler.flags(parallelism));
        flags.add("-Dshuttle.timeSlice=10ms");
        Run run = ShuttleAgentIT.runMain(java25(), flags,
                List.of(NetpollApps.class.getName(), "compute", Integer.toString(WAKES)));
        System.out.println(scheduler + ", parallelism " + parallelism + ", two spinners:\n" + infoLines(run));
        List<String> checks = new ArrayList<>(List.of("two virtual threads spin",
                "a reader beside two spinning virtual threads wakes for data within 2 s, " + WAKES + " times"));
        checks.addAll(pollerChecks(scheduler));
        assertPassed(run, checks.toArray(String[]::new));
    }

    /** What the run must say about who delivers readiness (see the class comment). */
    private static List<String> pollerChecks(Scheduler scheduler) {
        List<String> checks = new ArrayList<>();
        if (scheduler != Scheduler.NETPOLL_ON) {
            checks.add("the JDK's MasterPoller thread and SubPoller virtual threads deliver readiness");
        } else {
            checks.add("no MasterPoller thread and no SubPoller virtual thread once Shuttle's carriers poll");
            checks.add("Shuttle's carriers polled and found ready descriptors");
        }
        if (scheduler != Scheduler.JDK_DEFAULT) {
            checks.add("the monitor rescued no lost wake-up");
        }
        return checks;
    }

    /** The child's measurements, for the build log. */
    private static String infoLines(Run run) {
        return run.out().lines().filter(l -> l.startsWith("info ")).map(l -> "  " + l)
                .reduce((a, b) -> a + "\n" + b).orElse("  (none)");
    }
}
