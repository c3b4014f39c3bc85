package com.example.quickstart;

import dev.shuttle.scheduler.ShuttleScheduler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

public class QuickStart {
    public static void main(String[] args) throws Exception {
        System.out.println("JVM-wide scheduler: "
                + ShuttleScheduler.systemDefault().map(ShuttleScheduler::name).orElse("the JDK's default"));
        try (ExecutorService any = Executors.newVirtualThreadPerTaskExecutor()) {
            // VirtualThread[#29]/runnable@shuttle-carrier-0 with the agent, @ForkJoinPool-1-worker-1 without it
            System.out.println("any virtual thread ran on " + any.submit(() -> "" + Thread.currentThread()).get());
        }
        try (ShuttleScheduler shuttle = ShuttleScheduler.builder().name("orders").parallelism(2).build();
             ExecutorService executor = shuttle.newVirtualThreadPerTaskExecutor()) {
            System.out.println("task ran on " + executor.submit(() -> "" + Thread.currentThread()).get());
            // Go's time.AfterFunc: a new virtual thread in 10 ms; the program waits for what it computes
            CompletableFuture<String> timerTask = new CompletableFuture<>();
            shuttle.schedule(() -> timerTask.complete("" + Thread.currentThread()), 10, TimeUnit.MILLISECONDS);
            System.out.println("timer task ran on " + timerTask.get());
        }
    }
}
