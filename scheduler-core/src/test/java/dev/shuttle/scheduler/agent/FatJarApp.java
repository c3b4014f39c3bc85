package dev.shuttle.scheduler.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.jctools.queues.atomic.MpmcAtomicArrayQueue;

/**
 * The application {@link OneAgentJarIT} packs into one shaded jar together with a JCTools version other than the one
 * the agent bundles, and runs with {@code java -javaagent:<agent jar> -Djdk.virtualThreadScheduler.implClass=...
 * -jar app.jar}. It knows nothing of Shuttle: it uses its own JCTools from virtual threads and reports, one
 * {@code key=value} line each, which JCTools it got, whether the queue lost or duplicated anything, and where its
 * virtual threads ran. The test judges the lines.
 */
public final class FatJarApp {
    private FatJarApp() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("jctools.version=" + ownJctoolsVersion());
        System.out.println("jctools.source=" + MpmcAtomicArrayQueue.class.getProtectionDomain().getCodeSource()
                .getLocation());

        int producers = 4;
        int perProducer = 10_000;
        MpmcAtomicArrayQueue<Integer> queue = new MpmcAtomicArrayQueue<>(1024);
        List<Thread> threads = new ArrayList<>();
        String[] carriers = new String[producers];
        long[] sums = new long[1];
        for (int p = 0; p < producers; p++) {
            int id = p;
            threads.add(Thread.ofVirtual().start(() -> {
                carriers[id] = Thread.currentThread().toString();
                for (int i = 1; i <= perProducer; i++) {
                    while (!queue.offer(i)) {
                        Thread.yield();
                    }
                }
            }));
        }
        Thread consumer = Thread.ofVirtual().start(() -> {
            int taken = 0;
            while (taken < producers * perProducer) {
                Integer v = queue.poll();
                if (v == null) {
                    Thread.yield();
                } else {
                    sums[0] += v;
                    taken++;
                }
            }
        });
        for (Thread t : threads) {
            t.join();
        }
        consumer.join();
        long expected = (long) producers * perProducer * (perProducer + 1) / 2;
        System.out.println("queue.sum.ok=" + (sums[0] == expected && queue.isEmpty()));
        for (String c : carriers) {
            System.out.println("virtual.thread=" + c);
        }
    }

    /** The version in the application jar's own JCTools Maven metadata (the agent jar carries none). */
    private static String ownJctoolsVersion() throws IOException {
        URL resource = FatJarApp.class.getClassLoader()
                .getResource("META-INF/maven/org.jctools/jctools-core/pom.properties");
        if (resource == null) {
            return "none";
        }
        Properties properties = new Properties();
        try (InputStream in = resource.openStream()) {
            properties.load(in);
        }
        return properties.getProperty("version");
    }
}
