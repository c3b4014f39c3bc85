package dev.shuttle.scheduler.agent;

import dev.shuttle.lock.SpinBitLock;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import javax.management.ObjectName;

/**
 * The paths a user's code takes through the scheduler that the scheduler's own tests do not reach from outside: timed
 * joins and waits that time out, interrupts racing timed parks, interrupts of {@code Object.wait} and
 * {@link SpinBitLock}, scoped values across parks, a million threads, a CPU hog under {@code shuttle.timeSlice} and
 * blocked carriers at {@code shuttle.maxCarriers}. {@link ShuttleAgentIT} runs each mode in a child JVM under the agent
 * with Shuttle installed; like {@link AgentApps} each check prints one {@code ok <check>} or {@code FAIL <check>} line
 * and the JVM exits 0 only if all passed.
 *
 * <p>Every mode ends by checking that the monitor rescued no lost wake-up: a wake-up lost on one of these paths would
 * otherwise only make the run slower, and the monitor would hide it.
 */
public final class UserPathApps {
    private static final String SHUTTLE = "@shuttle-carrier-";
    /** A bound that only a thread that never runs again reaches: these checks are about lost work, not latency. */
    private static final Duration LOST = Duration.ofSeconds(20);

    private final List<String> failures = new ArrayList<>();

    private UserPathApps() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("main started");
        UserPathApps app = new UserPathApps();
        switch (args[0]) {
            case "waits" -> {
                app.timedJoinTimesOut();
                app.interruptsRaceTimedParks();
                app.objectWaitTimesOutAndIsInterrupted();
                app.spinBitLockWaitsAreInterruptedAndTimeOut();
                app.scopedValuesSurviveParks();
            }
            case "million" -> app.millionThreads();
            case "time-slice" -> app.hogDoesNotStarveOthers();
            case "max-carriers" -> app.blockedCarriersStopAtTheCap();
            case "jfr" -> app.longTaskForTheRecording();
            default -> throw new IllegalArgumentException(args[0]);
        }
        app.noRescues();
        System.out.flush();
        System.exit(app.failures.isEmpty() ? 0 : 3);
    }

    private void check(String name, boolean ok, Object detail) {
        System.out.println((ok ? "ok " : "FAIL ") + name + ": " + detail);
        if (!ok) {
            failures.add(name);
        }
    }

    private static Object shuttleAttribute(String attribute) throws Exception {
        return ManagementFactory.getPlatformMBeanServer()
                .getAttribute(new ObjectName("dev.shuttle:type=ShuttleScheduler,name=default"), attribute);
    }

    private void noRescues() throws Exception {
        long rescues = (Long) shuttleAttribute("MonitorRescues");
        check("the monitor rescued no lost wake-up", rescues == 0, rescues);
    }

    /** Runs {@code body} in a virtual thread and returns its result; a thread that does not end is a failure. */
    private static <T> T inVirtualThread(Callable<T> body) throws Exception {
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                result.set(body.call());
            } catch (Throwable e) {
                result.set(e);
            }
        });
        if (!t.join(LOST)) {
            throw new AssertionError("a virtual thread did not end in " + LOST + ": " + t);
        }
        if (result.get() instanceof Throwable e) {
            throw new AssertionError(e);
        }
        @SuppressWarnings("unchecked")
        T value = (T) result.get();
        return value;
    }

    interface Callable<T> {
        T call() throws Exception;
    }

    /** {@code Thread.join(Duration)} from a virtual thread on a thread that does not end: a timed park that fires. */
    private void timedJoinTimesOut() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread waiting = Thread.ofVirtual().start(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        String outcome = inVirtualThread(() -> {
            long start = System.nanoTime();
            boolean ended = waiting.join(Duration.ofMillis(100));
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            return ended + " after " + waitedMillis + " ms on " + Thread.currentThread();
        });
        long waited = Long.parseLong(outcome.split(" ")[2]);
        check("Thread.join(Duration) on a live thread returns false after its timeout",
                outcome.startsWith("false") && waited >= 100 && outcome.contains(SHUTTLE) && waiting.isAlive(),
                outcome);
        release.countDown();
        boolean ended = inVirtualThread(() -> waiting.join(LOST));
        check("and true once the thread ends", ended, waiting);
    }

    /**
     * Interrupts that race timed parks: 2,000 threads each sleep up to 300 µs while the main thread interrupts them at
     * random moments, so an interrupt lands before, during and after the sleep's timer fires. Each thread must end and
     * must see its interrupt, as the exception or as the flag once the sleep returned: a timer that fires and an
     * interrupt that unparks must neither lose the thread nor the interrupt.
     */
    private void interruptsRaceTimedParks() throws Exception {
        int batches = 10;
        int perBatch = 200;
        AtomicInteger seen = new AtomicInteger();
        AtomicInteger ended = new AtomicInteger();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int b = 0; b < batches; b++) {
            AtomicBoolean allInterrupted = new AtomicBoolean();
            List<Thread> sleepers = new ArrayList<>();
            for (int i = 0; i < perBatch; i++) {
                long sleepNanos = random.nextLong(300_000);
                sleepers.add(Thread.ofVirtual().start(() -> {
                    boolean interrupted = false;
                    try {
                        Thread.sleep(Duration.ofNanos(sleepNanos));
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                    while (!allInterrupted.get()) {
                        Thread.yield();
                    }
                    if (interrupted || Thread.interrupted()) {
                        seen.incrementAndGet();
                    }
                    ended.incrementAndGet();
                }));
            }
            for (Thread t : sleepers) {
                if (random.nextInt(4) == 0) {
                    LockSupport.parkNanos(random.nextLong(100_000));
                }
                t.interrupt();
            }
            allInterrupted.set(true);
            for (Thread t : sleepers) {
                t.join(LOST);
            }
        }
        int total = batches * perBatch;
        check("2000 interrupted timed sleeps all end", ended.get() == total, ended.get() + " of " + total);
        check("and each saw its interrupt", seen.get() == total, seen.get() + " of " + total);
    }

    /** {@code Object.wait(50)} returns by its timeout; {@code Object.wait()} ends with an interrupt. */
    private void objectWaitTimesOutAndIsInterrupted() throws Exception {
        Object lock = new Object();
        long waited = inVirtualThread(() -> {
            long start = System.nanoTime();
            synchronized (lock) {
                lock.wait(50);
            }
            return (System.nanoTime() - start) / 1_000_000;
        });
        check("Object.wait(50) in a virtual thread returns after its timeout", waited >= 50, waited + " ms");
        CountDownLatch waiting = new CountDownLatch(1);
        AtomicReference<String> outcome = new AtomicReference<>("still waiting");
        Thread waiter = Thread.ofVirtual().start(() -> {
            synchronized (lock) {
                waiting.countDown();
                try {
                    lock.wait();
                    outcome.set("returned without an interrupt");
                } catch (InterruptedException e) {
                    outcome.set("interrupted");
                }
            }
        });
        waiting.await();
        synchronized (lock) {
            waiter.interrupt(); // the waiter has released the lock, so it is inside wait()
        }
        boolean ended = waiter.join(LOST);
        check("Object.wait() in a virtual thread ends with InterruptedException", ended
                && outcome.get().equals("interrupted"), outcome.get());
    }

    /** A waiter in {@code lockInterruptibly} leaves on an interrupt, a timed {@code tryLock} times out, and the lock
     * still works for the next thread: no waiter left behind in its stack. */
    private void spinBitLockWaitsAreInterruptedAndTimeOut() throws Exception {
        SpinBitLock lock = new SpinBitLock();
        lock.lock();
        try {
            boolean acquired = inVirtualThread(() -> lock.tryLock(50, TimeUnit.MILLISECONDS));
            check("SpinBitLock.tryLock(50 ms) on a held lock returns false", !acquired, lock);
            AtomicReference<String> outcome = new AtomicReference<>("still waiting");
            Thread waiter = Thread.ofVirtual().start(() -> {
                try {
                    lock.lockInterruptibly();
                    outcome.set("acquired");
                    lock.unlock();
                } catch (InterruptedException e) {
                    outcome.set("interrupted");
                }
            });
            long deadline = System.nanoTime() + LOST.toNanos();
            while (!lock.hasQueuedThreads() && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            waiter.interrupt();
            boolean ended = waiter.join(LOST);
            check("SpinBitLock.lockInterruptibly ends with InterruptedException", ended
                    && outcome.get().equals("interrupted"), outcome.get());
            check("and leaves no waiter queued", lock.getQueueLength() == 0, lock);
        } finally {
            lock.unlock();
        }
        boolean next = inVirtualThread(() -> {
            lock.lock();
            lock.unlock();
            return true;
        });
        check("the lock is then acquired by another thread", next, lock);
    }

    private static final ScopedValue<String> BOUND = ScopedValue.newInstance();

    /** A scoped value bound in a virtual thread is still bound after it slept, yielded and parked (and so moved). */
    private void scopedValuesSurviveParks() throws Exception {
        String seen = inVirtualThread(() -> ScopedValue.where(BOUND, "bound").call(() -> {
            Thread.sleep(1);
            Thread.yield();
            LockSupport.parkNanos(100_000);
            return BOUND.orElse("unbound") + " on " + Thread.currentThread();
        }));
        check("a ScopedValue stays bound across sleep, yield and park", seen.startsWith("bound on")
                && seen.contains(SHUTTLE), seen);
    }

    /**
     * A million virtual threads, each sleeping 1 ms, at most 20,000 alive at once (so the heap bounds the test, not
     * the machine): all end, and once they have, the heap holds nothing of theirs (a per-thread record the scheduler
     * keeps and never drops would add up to tens of megabytes here) and the scheduler counts no live threads.
     */
    private void millionThreads() throws Exception {
        int n = 1_000_000;
        Semaphore alive = new Semaphore(20_000);
        AtomicInteger ended = new AtomicInteger();
        for (int i = 0; i < n; i++) {
            alive.acquire();
            Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                } finally {
                    ended.incrementAndGet();
                    alive.release();
                }
            });
        }
        boolean all = alive.tryAcquire(20_000, LOST.toSeconds(), TimeUnit.SECONDS);
        check("a million sleeping virtual threads all end", all && ended.get() == n, ended.get() + " of " + n);
        long deadline = System.nanoTime() + LOST.toNanos();
        int live;
        while ((live = (Integer) shuttleAttribute("LiveVirtualThreads")) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        check("and Shuttle counts none alive afterwards", live == 0, live);
        System.gc();
        long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        check("and the heap after a collection holds under 32 MB", used < 32L << 20, (used >> 20) + " MB");
    }

    /**
     * One processor, {@code shuttle.timeSlice=10ms}: a virtual thread that computes and never blocks waits for a flag
     * that only another virtual thread, started after it on the same processor, sets. Without the slice the other
     * thread could only run after the hog gave up at its deadline.
     */
    private void hogDoesNotStarveOthers() throws Exception {
        AtomicBoolean flag = new AtomicBoolean();
        AtomicReference<String> hogSaw = new AtomicReference<>();
        CountDownLatch hogRunning = new CountDownLatch(1);
        Thread hog = Thread.ofVirtual().start(() -> {
            hogRunning.countDown();
            long deadline = System.nanoTime() + LOST.toNanos();
            while (!flag.get() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            hogSaw.set(flag.get() ? "the flag" : "its deadline");
        });
        hogRunning.await();
        AtomicReference<String> setter = new AtomicReference<>();
        Thread other = Thread.ofVirtual().start(() -> {
            setter.set(Thread.currentThread().toString());
            flag.set(true);
        });
        boolean ended = hog.join(LOST.plusSeconds(5)) && other.join(LOST);
        check("a computing virtual thread on the only processor does not keep another from running",
                ended && "the flag".equals(hogSaw.get()), hogSaw.get() + "; set by " + setter.get());
    }

    /**
     * One processor and {@code shuttle.maxCarriers=2}: three virtual threads block reading child processes' pipes
     * (calls the JDK marks as blocking). The first blocked carrier hands its processor to a second carrier thread; the
     * cap keeps it at two, and the rest waits for a blocked carrier to return: all three readers finish once the
     * processes write.
     */
    private void blockedCarriersStopAtTheCap() throws Exception {
        List<Process> cats = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            cats.add(new ProcessBuilder("cat").start());
        }
        AtomicInteger read = new AtomicInteger();
        List<Thread> readers = new ArrayList<>();
        for (Process cat : cats) {
            readers.add(Thread.ofVirtual().start(() -> {
                try {
                    if (cat.getInputStream().read() == 'x') {
                        read.incrementAndGet();
                    }
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }));
        }
        int most = 0;
        for (int i = 0; i < 100; i++) {
            most = Math.max(most, (Integer) shuttleAttribute("CarrierThreads"));
            Thread.sleep(5);
        }
        check("blocked carriers took a second carrier thread and no third", most == 2, most);
        for (Process cat : cats) {
            try (OutputStream out = cat.getOutputStream()) {
                out.write('x');
            }
        }
        boolean ended = true;
        for (Thread t : readers) {
            ended &= t.join(LOST);
        }
        for (Process cat : cats) {
            cat.destroy();
        }
        check("all three readers finish once the processes write", ended && read.get() == 3, read.get());
    }

    /**
     * Work for a JFR recording: on one processor a virtual thread computes for 100 ms while others wait (a long task),
     * and sleepers run for over two seconds, so the periodic statistics event (every second) is emitted too.
     */
    private void longTaskForTheRecording() throws Exception {
        List<Thread> sleepers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sleepers.add(Thread.ofVirtual().start(() -> {
                for (int k = 0; k < 250; k++) {
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
            }));
        }
        Thread hog = Thread.ofVirtual().start(() -> {
            long end = System.nanoTime() + 100_000_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        });
        List<Thread> queued = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queued.add(Thread.ofVirtual().start(() -> { }));
        }
        boolean ended = hog.join(LOST);
        sleepers.addAll(queued);
        for (Thread t : sleepers) {
            ended &= t.join(LOST);
        }
        check("the recorded workload ends", ended, sleepers.size() + " sleepers and a hog");
    }
}
