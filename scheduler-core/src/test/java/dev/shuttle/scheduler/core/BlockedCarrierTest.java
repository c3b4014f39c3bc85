package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A virtual thread blocked in file I/O holds its carrier outright on any scheduler but the JDK's own (PLATFORM.md):
 * opening a FIFO with no writer blocks in the kernel. The other carrier must keep every other kind of work moving.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockedCarrierTest {

    @Test
    void workKeepsMovingWhileOneCarrierIsBlockedInTheKernel(@TempDir Path dir) throws Exception {
        Path fifo = BlockedCarriersTest.mkfifo(dir.resolve("fifo"));

        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build()) {
            CountDownLatch blocking = new CountDownLatch(1);
            AtomicReference<String> blockedOn = new AtomicReference<>();
            AtomicInteger read = new AtomicInteger(-2);
            Thread blocked = shuttle.ofVirtual().start(() -> {
                blockedOn.set(Thread.currentThread().toString());
                blocking.countDown();
                try (FileInputStream in = new FileInputStream(fifo.toFile())) {
                    read.set(in.read());
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            blocking.await();
            Thread.sleep(50);
            assertTrue(blocked.isAlive());

            ShuttleSchedulerTest.tokenRing(shuttle, 100, 20_000);
            AtomicInteger done = new AtomicInteger();
            Thread[] sleepers = new Thread[100];
            for (int i = 0; i < sleepers.length; i++) {
                sleepers[i] = shuttle.ofVirtual().start(() -> {
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    done.incrementAndGet();
                });
            }
            for (Thread t : sleepers) {
                t.join();
            }
            assertEquals(sleepers.length, done.get());
            CountDownLatch scheduled = new CountDownLatch(1);
            shuttle.schedule(scheduled::countDown, 5, TimeUnit.MILLISECONDS);
            assertTrue(scheduled.await(10, TimeUnit.SECONDS));
            assertTrue(blocked.isAlive(), "the reader was meant to stay blocked: " + blockedOn.get());

            try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                out.write(42);
            }
            blocked.join();
            assertEquals(42, read.get());
            Rescues.assertNone(shuttle);
        }
    }

    @Test
    void moreCarriersThanOneBitmapWord() throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(130).build()) {
            ShuttleSchedulerTest.tokenRing(shuttle, 300, 30_000);
            AtomicInteger ran = new AtomicInteger();
            try (var executor = shuttle.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 20_000; i++) {
                    executor.execute(ran::incrementAndGet);
                }
            }
            assertEquals(20_000, ran.get());
            Rescues.assertNone(shuttle);
        }
    }
}
