package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class CarrierFailureTest {

    @Test
    void aTaskThatThrowsAnErrorIsReportedAndTheCarrierServesOn() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger("dev.shuttle.scheduler");
        logger.addHandler(capture);
        logger.setUseParentHandlers(false);
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(1).build()) {
            CountDownLatch failed = new CountDownLatch(1);
            SchedulerAccess.poolOf(shuttle).execute(() -> {
                failed.countDown();
                throw new StackOverflowError("injected");
            });
            assertTrue(failed.await(10, TimeUnit.SECONDS));
            boolean[] ran = new boolean[1];
            shuttle.ofVirtual().start(() -> ran[0] = true).join();
            assertTrue(ran[0], "the only carrier died with the failing task");
            assertEquals(1, records.size());
            LogRecord record = records.get(0);
            assertEquals(Level.SEVERE, record.getLevel());
            assertTrue(record.getMessage().contains("shuttle-carrier-0"), record.getMessage());
            assertEquals("injected", record.getThrown().getMessage());
            Rescues.assertNone(shuttle);
        } finally {
            logger.removeHandler(capture);
            logger.setUseParentHandlers(true);
        }
    }
}
