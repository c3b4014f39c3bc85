import java.time.Duration;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;

/**
 * StructuredTaskScope (a preview API in JDK 25) under Shuttle's agent. ShuttleAgentIT runs this file with the source
 * launcher and --enable-preview, so the test classes themselves need no preview flag. Like AgentApps, it prints one
 * "ok <check>" or "FAIL <check>" line per check and exits 0 only if all passed.
 */
public class StructuredScopeApp {
    static final ScopedValue<String> REQUEST = ScopedValue.newInstance();
    static int failures;

    public static void main(String[] args) throws Exception {
        System.out.println("main started");
        Thread main = Thread.ofVirtual().start(() -> {
            try {
                ScopedValue.where(REQUEST, "r1").call(() -> {
                    forksInheritScopedValuesAndJoin();
                    theFirstResultCancelsTheSleepers();
                    return null;
                });
            } catch (Exception e) {
                check("no exception", false, e);
            }
        });
        main.join();
        System.exit(failures == 0 ? 0 : 3);
    }

    static void check(String name, boolean ok, Object detail) {
        System.out.println((ok ? "ok " : "FAIL ") + name + ": " + detail);
        if (!ok) {
            failures++;
        }
    }

    /** Forks see the scope owner's scoped value, run on Shuttle's carriers, and join() waits for all of them. */
    static void forksInheritScopedValuesAndJoin() throws Exception {
        try (var scope = StructuredTaskScope.<String>open()) {
            Subtask<String> a = scope.fork(() -> {
                Thread.sleep(5);
                return REQUEST.get() + " " + Thread.currentThread();
            });
            Subtask<String> b = scope.fork(() -> REQUEST.get() + " " + Thread.currentThread());
            scope.join();
            String seen = a.get() + " | " + b.get();
            check("StructuredTaskScope forks see the owner's ScopedValue and run on Shuttle",
                    a.get().startsWith("r1 ") && b.get().startsWith("r1 ") && a.get().contains("@shuttle-carrier-")
                            && b.get().contains("@shuttle-carrier-"), seen);
        }
    }

    /** anySuccessfulResultOrThrow: the fast fork's result returns, and the slow forks' sleeps are interrupted. */
    static void theFirstResultCancelsTheSleepers() throws Exception {
        long start = System.nanoTime();
        String first;
        Subtask<String> slow;
        try (var scope = StructuredTaskScope.open(Joiner.<String>anySuccessfulResultOrThrow())) {
            slow = scope.fork(() -> {
                Thread.sleep(Duration.ofSeconds(30));
                return "slow";
            });
            scope.fork(() -> {
                Thread.sleep(Duration.ofSeconds(30));
                return "slow";
            });
            scope.fork(() -> "fast");
            first = scope.join();
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        // close() waits for every fork to end, so returning well before 30 s means the sleepers were cancelled.
        check("the first result ends the scope and interrupts the sleeping forks",
                "fast".equals(first) && slow.state() == Subtask.State.UNAVAILABLE && millis < 20_000,
                first + " after " + millis + " ms, slow fork " + slow.state());
    }
}
