package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Virtual threads blocked where the JDK cannot unmount them (a {@code FileInputStream} read of a FIFO, a child
 * process's pipe, a foreign-function downcall, class initialisation) hold their carriers in the kernel. Without the
 * agent none of these is marked with {@code Blocker} on Shuttle, so each case is the {@link Monitor}'s: it must hand
 * the blocked carriers' processors to other carrier threads, so that a ticking virtual thread keeps ticking and the
 * virtual threads that release the blocked ones get to run at all. Twice as many blockers as processors, so every
 * processor's first carrier is blocked.
 *
 * <p>Ticks are counted only while every blocker is inside its blocking call (from the last one's entry to the first
 * one's return), and the test asks for a third of what a 10 ms ticker would make in that window: a ticker that waits
 * behind a blocked carrier makes none.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
public class BlockedCarriersTest {
    static final Duration KEEP_ALIVE = Duration.ofMillis(200);
    static final long TICK_MILLIS = 10;
    /** How long the releasable cases stay blocked before a later virtual thread releases them. */
    static final long BLOCKED_MILLIS = 600;
    /** The foreign-function case's {@code sleep(3)} argument, in seconds. */
    static final int NATIVE_SLEEP_SECONDS = 1;
    static final long GENEROUS_MILLIS = 30_000;

    /** One kind of blocking: {@code block(i)} returns once {@code release(i)} ran (or on its own), with a result. */
    interface Blocking {
        int block(int i) throws Throwable;

        /** Null if the call returns on its own. */
        Releaser releaser();

        /** The result {@code block(i)} must return. */
        int expected(int i);
    }

    interface Releaser {
        void release(int i) throws Exception;
    }

    // ---- the cases ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2})
    void fifoReadsDoNotStallOtherVirtualThreads(int parallelism, @TempDir Path dir) throws Exception {
        run(parallelism, -1, 2 * parallelism, fifos(dir, 2 * parallelism));
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2})
    void childProcessReadsDoNotStallOtherVirtualThreads(int parallelism) throws Exception {
        List<Process> cats = new ArrayList<>();
        try {
            for (int i = 0; i < 2 * parallelism; i++) {
                try {
                    cats.add(new ProcessBuilder("cat").start());
                } catch (IOException e) {
                    assumeTrue(false, "cannot start cat: " + e);
                }
            }
            run(parallelism, -1, cats.size(), new Blocking() {
                @Override
                public int block(int i) throws IOException {
                    return cats.get(i).getInputStream().read();
                }

                @Override
                public Releaser releaser() {
                    return i -> {
                        try (OutputStream out = cats.get(i).getOutputStream()) {
                            out.write(expected(i));
                        }
                    };
                }

                @Override
                public int expected(int i) {
                    return 'a' + i;
                }
            });
        } finally {
            for (Process p : cats) {
                p.destroy();
            }
        }
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2})
    void nativeDowncallsDoNotStallOtherVirtualThreads(int parallelism) throws Exception {
        Linker linker = Linker.nativeLinker();
        MethodHandle sleep = linker.downcallHandle(linker.defaultLookup().find("sleep").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        run(parallelism, -1, 2 * parallelism, new Blocking() {
            @Override
            public int block(int i) throws Throwable {
                return (int) sleep.invokeExact(NATIVE_SLEEP_SECONDS);
            }

            @Override
            public Releaser releaser() {
                return null;
            }

            @Override
            public int expected(int i) {
                return 0;
            }
        });
    }

    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2})
    void classInitialisationDoesNotStallOtherVirtualThreads(int parallelism) throws Exception {
        // A fresh copy of SlowInit per run: a class is initialised once per class loader.
        Class<?> slow = new FreshCopyLoader(SlowInit.class).loadClass(SlowInit.class.getName());
        InitGate.gate = new CountDownLatch(1);
        run(parallelism, -1, 2 * parallelism, new Blocking() {
            @Override
            public int block(int i) throws ReflectiveOperationException {
                Class.forName(slow.getName(), true, slow.getClassLoader());
                return slow.getField("VALUE").getInt(null);
            }

            @Override
            public Releaser releaser() {
                return i -> {
                    if (i == 0) {
                        InitGate.gate.countDown();
                    }
                };
            }

            @Override
            public int expected(int i) {
                return 'S';   // not SlowInit.VALUE: that would initialise this loader's copy, and wait forever
            }
        });
    }

    /**
     * At the cap, hand-offs stop: the ticker may stall, but nothing fails, every reader completes once released (by
     * a platform thread: with every carrier blocked, no virtual thread could), one WARNING is logged, and the thread
     * count never passes the cap.
     */
    @ParameterizedTest(name = "parallelism {0}")
    @ValueSource(ints = {1, 2})
    void atMaxCarriersWorkWaitsAndNothingFails(int parallelism, @TempDir Path dir) throws Exception {
        int maxCarriers = parallelism + 1;
        int readers = 3;
        Blocking fifos = fifos(dir, readers);
        List<String> warnings = new ArrayList<>();
        Logger log = Logger.getLogger("dev.shuttle.scheduler");
        Handler capture = new Handler() {
            @Override
            public synchronized void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(capture);
        AtomicBoolean released = new AtomicBoolean();
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(parallelism).maxCarriers(maxCarriers)
                .keepAlive(KEEP_ALIVE).build();
             Unblocker unblock = new Unblocker(released, fifos.releaser(), readers);
             CarrierSampler sampler = new CarrierSampler(shuttle); Ticker ticker = new Ticker(shuttle)) {
            AtomicIntegerArray results = new AtomicIntegerArray(readers);
            List<Thread> blocked = new ArrayList<>();
            for (int i = 0; i < readers; i++) {
                int k = i;
                blocked.add(shuttle.ofVirtual().start(() -> {
                    try {
                        results.set(k, fifos.block(k));
                    } catch (Throwable e) {
                        throw new AssertionError(e);
                    }
                }));
            }
            Thread.sleep(BLOCKED_MILLIS);
            assertTrue(sampler.max() <= maxCarriers, "carrier threads " + sampler.max() + " > cap " + maxCarriers);
            released.set(true);
            for (int i = 0; i < readers; i++) {
                fifos.releaser().release(i);
            }
            for (Thread t : blocked) {
                assertTrue(t.join(Duration.ofMillis(GENEROUS_MILLIS)), "a reader did not finish: " + t);
            }
            for (int i = 0; i < readers; i++) {
                assertEquals(fifos.expected(i), results.get(i), "reader " + i);
            }
            int before = ticker.ticks();
            ticker.awaitTicks(before + 3);
            ticker.stop();
            awaitCarrierThreads(shuttle, parallelism);
            assertTrue(sampler.max() <= maxCarriers, "carrier threads " + sampler.max() + " > cap " + maxCarriers);
            assertEquals(maxCarriers, sampler.max(), "the blocked readers should have used every carrier allowed");
            // Work waits here behind processors held by blocked carriers at the cap, not idle ones: not a lost wake-up.
            Rescues.assertNone(shuttle);
        } finally {
            log.removeHandler(capture);
        }
        synchronized (capture) {
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("maxCarriers"), warnings.toString());
        }
    }

    // ---- the harness ----------------------------------------------------------------------------------------------

    /**
     * Ticker first; then {@code n} blockers; once all are inside their calls, release them (from later virtual
     * threads) after {@link #BLOCKED_MILLIS}; then check the ticks made while all were blocked, the results, the
     * thread count's bound and its return to {@code parallelism}.
     */
    static void run(int parallelism, int maxCarriers, int n, Blocking blocking) throws Exception {
        ShuttleScheduler.Builder builder = ShuttleScheduler.builder().parallelism(parallelism).keepAlive(KEEP_ALIVE);
        if (maxCarriers > 0) {
            builder.maxCarriers(maxCarriers);
        }
        Releaser releaser = blocking.releaser();
        AtomicBoolean released = new AtomicBoolean(releaser == null);
        try (ShuttleScheduler shuttle = builder.build(); Unblocker unblock = new Unblocker(released, releaser, n);
             CarrierSampler sampler = new CarrierSampler(shuttle); Ticker ticker = new Ticker(shuttle)) {
            int cap = SchedulerAccess.poolOf(shuttle).handOff.maxCarriers();
            ticker.awaitTicks(3);
            CountDownLatch entered = new CountDownLatch(n);
            AtomicLong lastEntry = new AtomicLong(Long.MIN_VALUE);
            AtomicLong firstReturn = new AtomicLong(Long.MAX_VALUE);
            AtomicIntegerArray results = new AtomicIntegerArray(n);
            List<Thread> blocked = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int k = i;
                blocked.add(shuttle.ofVirtual().name("blocked-" + i).start(() -> {
                    try {
                        lastEntry.accumulateAndGet(System.nanoTime(), Math::max);
                        entered.countDown();
                        int r = blocking.block(k);
                        firstReturn.accumulateAndGet(System.nanoTime(), Math::min);
                        results.set(k, r);
                    } catch (Throwable e) {
                        results.set(k, Integer.MIN_VALUE);
                        throw new AssertionError(e);
                    }
                }));
            }
            assertTrue(entered.await(GENEROUS_MILLIS, TimeUnit.MILLISECONDS),
                    "not every blocker got a carrier: " + entered.getCount() + " of " + n + " waiting; " + shuttle);
            List<Thread> releasers = new ArrayList<>();
            if (releaser != null) {
                released.set(true);
                Thread.sleep(BLOCKED_MILLIS);
                for (Thread t : blocked) {
                    assertTrue(t.isAlive(), t + " returned before it was released");
                }
                for (int i = 0; i < n; i++) {
                    int k = i;
                    releasers.add(shuttle.ofVirtual().name("releaser-" + i).start(() -> {
                        try {
                            releaser.release(k);
                        } catch (Exception e) {
                            throw new AssertionError(e);
                        }
                    }));
                }
            }
            for (Thread t : blocked) {
                assertTrue(t.join(Duration.ofMillis(GENEROUS_MILLIS)), t + " did not finish; " + shuttle);
            }
            for (Thread t : releasers) {
                assertTrue(t.join(Duration.ofMillis(GENEROUS_MILLIS)), t + " did not finish; " + shuttle);
            }
            for (int i = 0; i < n; i++) {
                assertEquals(blocking.expected(i), results.get(i), "blocker " + i);
            }
            long from = lastEntry.get();
            long to = firstReturn.get();
            assertTrue(from < to, "the blockers did not all block at once: one returned before the last started");
            long windowMillis = (to - from) / 1_000_000;
            int ticks = ticker.ticksBetween(from, to);
            long expected = windowMillis / TICK_MILLIS;
            assertTrue(ticks >= Math.max(1, expected / 3), ticks + " ticks while " + n + " virtual threads were"
                    + " blocked for " + windowMillis + " ms; a 10 ms ticker makes about " + expected);
            ticker.stop();

            assertTrue(sampler.max() > parallelism, "no carrier thread was added, max " + sampler.max());
            assertTrue(sampler.max() <= cap, "carrier threads " + sampler.max() + " > maxCarriers " + cap);
            CarrierPool pool = SchedulerAccess.poolOf(shuttle);
            assertTrue(pool.monitor.retakes() > 0 && pool.handOff.handOffs.get() > 0,
                    "retakes " + pool.monitor.retakes() + ", hand-offs " + pool.handOff.handOffs.get());
            awaitCarrierThreads(shuttle, parallelism);
            assertTrue(sampler.max() <= cap, "carrier threads " + sampler.max() + " > maxCarriers " + cap);
            // A processor behind a blocked carrier is the monitor's to hand off (counted in retakes above); work that
            // waited while a processor was idle and nobody searched would be a lost wake-up, not a blocked carrier.
            Rescues.assertNone(pool);
        }
    }

    /**
     * Closed before the scheduler: after a failure, lets the blocked virtual threads go (from a platform thread, which
     * needs no carrier), so that closing the scheduler, which waits for its threads, lets the failure show instead of
     * hanging until the timeout.
     */
    record Unblocker(AtomicBoolean released, Releaser releaser, int n) implements AutoCloseable {
        @Override
        public void close() {
            if (released.getAndSet(true)) {
                return;
            }
            Thread.ofPlatform().daemon().start(() -> {
                for (int i = 0; i < n; i++) {
                    try {
                        releaser.release(i);
                    } catch (Exception e) {
                        // The test has failed already; this only unblocks what it left behind.
                    }
                }
            });
        }
    }

    static Blocking fifos(Path dir, int n) throws Exception {
        List<Path> fifos = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fifos.add(mkfifo(dir.resolve("fifo-" + i)));
        }
        return new Blocking() {
            @Override
            public int block(int i) throws IOException {
                try (InputStream in = new FileInputStream(fifos.get(i).toFile())) {
                    return in.read();
                }
            }

            @Override
            public Releaser releaser() {
                return i -> {
                    try (OutputStream out = new FileOutputStream(fifos.get(i).toFile())) {
                        out.write(expected(i));
                    }
                };
            }

            @Override
            public int expected(int i) {
                return 'A' + i;
            }
        };
    }

    /** Makes a FIFO at {@code fifo}, or skips the test where {@code mkfifo} is missing; also used by the agent's ITs. */
    public static Path mkfifo(Path fifo) throws InterruptedException {
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (IOException e) {
            mkfifo = null;
        }
        assumeTrue(mkfifo != null && mkfifo.waitFor() == 0 && Files.exists(fifo), "mkfifo is not available");
        return fifo;
    }

    /** Polls until spare carriers have ended (keep-alive {@link #KEEP_ALIVE}); fails after a generous deadline. */
    static void awaitCarrierThreads(ShuttleScheduler shuttle, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GENEROUS_MILLIS);
        while (shuttle.carrierThreads() != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(expected, shuttle.carrierThreads(), "carrier threads after the blocking ended: " + shuttle);
    }

    /** A virtual thread that sleeps 10 ms in a loop and records when each tick happened. */
    static final class Ticker implements AutoCloseable {
        private final ConcurrentLinkedQueue<Long> times = new ConcurrentLinkedQueue<>();
        private final AtomicInteger count = new AtomicInteger();
        private volatile boolean stop;
        private final Thread thread;

        Ticker(ShuttleScheduler shuttle) {
            thread = shuttle.ofVirtual().name("ticker").start(() -> {
                while (!stop) {
                    try {
                        Thread.sleep(TICK_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                    times.add(System.nanoTime());
                    count.incrementAndGet();
                }
            });
        }

        int ticks() {
            return count.get();
        }

        int ticksBetween(long from, long to) {
            int n = 0;
            for (long t : times) {
                if (t > from && t < to) {
                    n++;
                }
            }
            return n;
        }

        void awaitTicks(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GENEROUS_MILLIS);
            while (count.get() < n && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(count.get() >= n, "the ticker made " + count.get() + " ticks, expected " + n);
        }

        void stop() throws InterruptedException {
            assertTrue(stopAndJoin(), "the ticker did not stop");
        }

        private boolean stopAndJoin() throws InterruptedException {
            stop = true;
            return thread.join(Duration.ofMillis(GENEROUS_MILLIS));
        }

        /** Stops it on any path: the scheduler's close waits for its threads. */
        @Override
        public void close() throws InterruptedException {
            stopAndJoin();
        }
    }

    /** A platform thread that samples {@link ShuttleScheduler#carrierThreads()} every millisecond. */
    static final class CarrierSampler implements AutoCloseable {
        private final AtomicInteger max = new AtomicInteger();
        private volatile boolean stop;
        private final Thread thread;

        CarrierSampler(ShuttleScheduler shuttle) {
            thread = Thread.ofPlatform().daemon().name("carrier-sampler").start(() -> {
                while (!stop) {
                    max.accumulateAndGet(shuttle.carrierThreads(), Math::max);
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        int max() {
            return max.get();
        }

        @Override
        public void close() throws InterruptedException {
            stop = true;
            thread.join();
        }
    }

    /** Where {@link SlowInit}'s initialiser waits. Public: the fresh copies of SlowInit are in another loader. */
    public static final class InitGate {
        public static volatile CountDownLatch gate;

        public static void await() {
            try {
                gate.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A class whose initialisation blocks until {@link InitGate#gate} opens. */
    public static final class SlowInit {
        public static final int VALUE;

        static {
            InitGate.await();
            VALUE = 'S';
        }
    }

    /** Defines its own copy of one class (other classes come from the parent), so each copy is initialised anew. */
    static final class FreshCopyLoader extends ClassLoader {
        private final String name;
        private final byte[] bytes;

        FreshCopyLoader(Class<?> cls) throws IOException {
            super(cls.getClassLoader());
            this.name = cls.getName();
            try (InputStream in = cls.getResourceAsStream("/" + name.replace('.', '/') + ".class")) {
                this.bytes = in.readAllBytes();
            }
        }

        @Override
        protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
            if (!n.equals(name)) {
                return super.loadClass(n, resolve);
            }
            synchronized (getClassLoadingLock(n)) {
                Class<?> c = findLoadedClass(n);
                return c != null ? c : defineClass(n, bytes, 0, bytes.length);
            }
        }
    }
}
