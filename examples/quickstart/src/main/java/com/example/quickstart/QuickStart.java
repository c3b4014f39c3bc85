package com.example.quickstart;

import dev.shuttle.scheduler.ShuttleScheduler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Shuttle's explicit API as the README shows it: virtual threads and a timer on a scheduler of its own. */
public class QuickStart {
    public static void main(String[] args) throws Exception {
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().parallelism(2).build();
             ExecutorService executor = shuttle.newVirtualThreadPerTaskExecutor()) {
            Future<String> task = executor.submit(() -> "task ran on " + Thread.currentThread());
            System.out.println(task.get());

            CountDownLatch fired = new CountDownLatch(1);
            shuttle.schedule(() -> {
                System.out.println("timer task ran on " + Thread.currentThread());
                fired.countDown();
            }, 10, TimeUnit.MILLISECONDS);
            fired.await();
        }
    }
}
