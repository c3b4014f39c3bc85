package dev.shuttle.bench.juc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The channel kinds behave as the juc benchmarks rely on: order, rendezvous or bounded buffer, one pair each. */
class ChannelTest {
    @ParameterizedTest
    @ValueSource(strings = {Channel.SYNCHRONOUS_QUEUE, Channel.LINKED_TRANSFER_QUEUE, Channel.EXCHANGER,
        Channel.ARRAY_BLOCKING_QUEUE, Channel.LINKED_BLOCKING_QUEUE})
    void deliversEveryItemInOrderFromOneSenderToOneReceiver(String kind) throws InterruptedException {
        Channel c = Channel.open(kind);
        int items = 10_000;
        List<Object> received = new ArrayList<>();
        Thread receiver = Thread.ofVirtual().start(Blocking.task(() -> {
            for (int i = 0; i < items; i++) {
                received.add(c.receive());
            }
        }));
        for (int i = 0; i < items; i++) {
            c.send(i);
        }
        assertTrue(receiver.join(Duration.ofSeconds(30)), "receiver finished");
        assertEquals(items, received.size());
        for (int i = 0; i < items; i++) {
            assertEquals(i, received.get(i));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {Channel.SYNCHRONOUS_QUEUE, Channel.LINKED_TRANSFER_QUEUE, Channel.EXCHANGER})
    void rendezvousKindsReturnFromSendOnlyOnceTheItemWasTaken(String kind) throws InterruptedException {
        Channel c = Channel.open(kind);
        AtomicBoolean sent = new AtomicBoolean();
        Thread sender = Thread.ofVirtual().start(Blocking.task(() -> {
            c.send("item");
            sent.set(true);
        }));
        Thread.sleep(50);
        assertEquals(false, sent.get(), "send returned before anyone received");
        assertEquals("item", c.receive());
        assertTrue(sender.join(Duration.ofSeconds(30)));
        assertTrue(sent.get());
    }

    @ParameterizedTest
    @ValueSource(strings = {Channel.ARRAY_BLOCKING_QUEUE, Channel.LINKED_BLOCKING_QUEUE})
    void bufferedKindsHoldTheirCapacityAndNoMore(String kind) throws InterruptedException {
        Channel c = Channel.open(kind);
        for (int i = 0; i < Channel.BUFFER; i++) {
            c.send(i);
        }
        Thread sender = Thread.ofVirtual().start(Blocking.task(() -> c.send("one too many")));
        assertEquals(false, sender.join(Duration.ofMillis(50)), "send into a full buffer returned");
        assertEquals(0, c.receive());
        assertTrue(sender.join(Duration.ofSeconds(30)));
    }

    @Test
    void unknownKindIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Channel.open("ConcurrentLinkedQueue"));
    }
}
