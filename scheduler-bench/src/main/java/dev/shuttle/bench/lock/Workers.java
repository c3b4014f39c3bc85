package dev.shuttle.bench.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;

/**
 * Long-lived platform or virtual threads that a JMH driver thread sets to work once per
 * invocation. Starting threads inside the measurement would cost more than the lock operations
 * measured, and virtual threads cannot be JMH's own @Threads, hence this driver pattern.
 */
final class Workers implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private final List<BlockingQueue<CountDownLatch>> inboxes = new ArrayList<>();

    /** {@code n} threads of one {@code kind} (platform or virtual); {@code body} receives the worker's index. */
    Workers(String kind, int n, IntConsumer body) {
        this(switch (kind) {
            case "platform" -> n;
            case "virtual" -> 0;
            default -> throw new IllegalArgumentException("unknown thread kind: " + kind);
        }, kind.equals("virtual") ? n : 0, body);
    }

    /** {@code platform} platform threads (indices first) and {@code virtual} virtual threads. */
    Workers(int platform, int virtual, IntConsumer body) {
        Thread.Builder platformBuilder = Thread.ofPlatform().daemon(true);
        Thread.Builder virtualBuilder = Thread.ofVirtual();
        for (int i = 0; i < platform + virtual; i++) {
            int id = i;
            BlockingQueue<CountDownLatch> inbox = new ArrayBlockingQueue<>(1);
            inboxes.add(inbox);
            threads.add((i < platform ? platformBuilder : virtualBuilder).start(() -> {
                try {
                    for (CountDownLatch done = inbox.take(); done != STOP; done = inbox.take()) {
                        body.accept(id);
                        done.countDown();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
    }

    private static final CountDownLatch STOP = new CountDownLatch(0);

    /** Runs every worker's body once and waits for all of them. */
    void runRound() throws InterruptedException {
        CountDownLatch done = new CountDownLatch(threads.size());
        for (BlockingQueue<CountDownLatch> inbox : inboxes) {
            inbox.put(done);
        }
        done.await();
    }

    @Override
    public void close() throws InterruptedException {
        for (BlockingQueue<CountDownLatch> inbox : inboxes) {
            inbox.put(STOP);
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
