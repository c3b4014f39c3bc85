package dev.shuttle.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SchedulerSlackTest {
    private static final long KERNEL_DEFAULT_NANOS = 50_000;

    /**
     * The mechanism the benchmarks rely on: a thread created after its creator lowered the slack inherits it, one
     * created by a thread that did not keeps the default, and the check tells the two apart.
     */
    @Test
    void threadsCreatedAfterLoweringInheritTheSlackAndTheCheckSeesTheOthers() throws InterruptedException {
        AtomicReference<List<String>> seen = new AtomicReference<>();
        Thread parent = Thread.ofPlatform().start(() -> {
            // A test that ran earlier in this JVM may have lowered the thread that started this one (surefire's order
            // differs between checkouts), and the parent inherits that: put it back at the kernel's default first.
            SchedulerSlack.setCurrentThread(KERNEL_DEFAULT_NANOS);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(2);
            Runnable hold = () -> {
                started.countDown();
                awaitQuietly(release);
            };
            Thread before = Thread.ofPlatform().name("ForkJoinPool-99-before").start(hold);
            SchedulerSlack.lowerCurrentThread();
            Thread after = Thread.ofPlatform().name("ForkJoinPool-99-after").start(hold);
            awaitQuietly(started);
            seen.set(SchedulerSlack.schedulerThreadsWithOtherSlack());
            release.countDown();
            joinQuietly(before);
            joinQuietly(after);
        });
        parent.join();
        // Other tests of this JVM may have left the JDK's own scheduler threads at the default slack: look at ours.
        List<String> wrong = seen.get().stream().filter(t -> t.startsWith("ForkJoinPool-99")).toList();
        assertEquals(1, wrong.size(), "expected only the thread created before lowering: " + seen.get());
    }

    /** The start time is field 22 of a thread's stat line, counted past a name that may hold spaces and ')'. */
    @Test
    void readsTheStartTimeOfAThreadPastItsName() {
        String stat = "28583 (a) (b c) S 28538 28538 13686 0 -1 4194304 98 0 0 0 0 0 0 0 20 0 1 0 2473440 3133440 380";
        assertEquals(2473440, SchedulerSlack.startTime(stat));
        assertEquals(2473441, SchedulerSlack.startTime(
                "7 (VirtualThread-u) S 1 1 1 0 -1 4194304 98 0 0 0 0 0 0 0 20 0 1 0 2473441 3133440 380"));
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
