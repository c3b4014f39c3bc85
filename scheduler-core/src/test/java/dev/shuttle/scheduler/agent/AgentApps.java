package dev.shuttle.scheduler.agent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.management.VirtualThreadSchedulerMXBean;
import java.lang.management.ManagementFactory;
import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.core.SchedulerAccess;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * Plain applications that {@link ShuttleAgentIT} runs in child JVMs under the agent. They know nothing of the agent
 * except {@link ShuttleScheduler#systemDefault()}; each prints {@code main started}, then one {@code ok <check>} or
 * {@code FAIL <check>} line per check, and exits 0 only if every check passed.
 */
public final class AgentApps {
    static final String SHUTTLE = "@shuttle-carrier-";
    static final String JDK_DEFAULT = "@ForkJoinPool-1-worker-";

    private final List<String> failures = new ArrayList<>();

    private AgentApps() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("main started");
        AgentApps app = new AgentApps();
        switch (args[0]) {
            case "apis" -> app.apis(Integer.parseInt(args[1]));
            case "http" -> app.http(Integer.parseInt(args[1]));
            case "plain" -> app.plain();
            case "jdk-mxbean" -> app.jdkMxBean(Integer.parseInt(args[1]));
            case "blocked-http" -> app.blockedHttp(Path.of(args[1]), Integer.parseInt(args[2]),
                    Boolean.parseBoolean(args[3]));
            case "hooks" -> app.hooks();
            case "shuttle-mxbean" -> app.shuttleMxBean();
            case "measure" -> app.measure(args[1]);
            default -> throw new IllegalArgumentException(args[0]);
        }
        app.noRescues();
        System.out.flush();
        System.exit(app.failures.isEmpty() ? 0 : 3);
    }

    /**
     * Where Shuttle is the system default, its monitor must have rescued no lost wake-up: one that did would only have
     * made the app slower, and every check above would still pass.
     */
    private void noRescues() throws Exception {
        Optional<ShuttleScheduler> system = ShuttleScheduler.systemDefault();
        if (system.isEmpty()) {
            return;
        }
        long rescues = (Long) ManagementFactory.getPlatformMBeanServer().getAttribute(
                new javax.management.ObjectName("dev.shuttle:type=ShuttleScheduler,name=" + system.get().name()),
                "MonitorRescues");
        check("the monitor rescued no lost wake-up", rescues == 0, rescues);
    }

    /**
     * The known scheduling delay on the scheduler in charge (one carrier: {@code -Djdk.virtualThreadScheduler
     * .parallelism=1} or {@code -Dshuttle.parallelism=1}): a driver starts a thread and computes for 5 ms before it
     * lets the carrier go, 80 times; the bean {@code dev.shuttle:type=SchedulingDelay,name=<bean>} must show sampled
     * starts between 4 and 6 ms and none shorter but the driver's own, and the threads must have run where that
     * scheduler runs them.
     */
    private void measure(String bean) throws Exception {
        String[] carrier = new String[1];
        Thread driver = Thread.ofVirtual().name("driver").start(() -> {
            for (int i = 0; i < 80; i++) {
                Thread waiter = Thread.ofVirtual().start(() -> carrier[0] = Thread.currentThread().toString());
                long end = System.nanoTime() + 5_000_000;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
                try {
                    waiter.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
        });
        driver.join();
        var server = ManagementFactory.getPlatformMBeanServer();
        var name = new javax.management.ObjectName("dev.shuttle:type=SchedulingDelay,name=" + bean);
        long[] bounds = (long[]) server.getAttribute(name, "SchedulingDelayBucketBoundsNanos");
        long[] starts = (long[]) server.invoke(name, "schedulingDelayBucketCountsOf", new Object[] {"start"},
                new String[] {String.class.getName()});
        long inFive = 0;
        long below = 0;
        for (int i = 0; i + 1 < bounds.length; i++) {
            if (bounds[i] >= 4_000_000 && bounds[i + 1] <= 6_000_000) {
                inFive += starts[i];
            } else if (bounds[i + 1] <= 4_000_000) {
                below += starts[i];
            }
        }
        check("sampled starts in 4-6 ms", inFive >= 1, java.util.Arrays.toString(starts));
        // Only the driver's own start, from main, may be sampled without waiting behind the driver.
        check("no sampled start below 4 ms but the driver's", below <= 1, java.util.Arrays.toString(starts));
        check("p99 reported", (long) server.getAttribute(name, "SchedulingDelayP99Nanos") > 0,
                server.getAttribute(name, "SchedulingDelayP99Nanos"));
        check("ran on " + (bean.equals("default") ? SHUTTLE : JDK_DEFAULT),
                carrier[0].contains(bean.equals("default") ? SHUTTLE : JDK_DEFAULT), carrier[0]);
    }

    /**
     * Shuttle's own MXBean, under the agent, counts the virtual threads it runs: Shuttle must recognise the JDK's
     * continuation tasks after the agent rewrote {@code VirtualThread}.
     */
    private void shuttleMxBean() throws Exception {
        var server = ManagementFactory.getPlatformMBeanServer();
        var name = new javax.management.ObjectName("dev.shuttle:type=ShuttleScheduler,name=default");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch parked = new CountDownLatch(50);
        List<Thread> sleepers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            sleepers.add(Thread.startVirtualThread(() -> {
                parked.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }));
        }
        parked.await();
        int live = (Integer) server.getAttribute(name, "LiveVirtualThreads");
        check("LiveVirtualThreads counts 50 waiting threads", live >= 50, live);
        release.countDown();
        for (Thread t : sleepers) {
            t.join();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while ((Integer) server.getAttribute(name, "LiveVirtualThreads") >= 50 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        live = (Integer) server.getAttribute(name, "LiveVirtualThreads");
        check("and forgets them once they ended", live < 50, live);
    }

    /** The JDK's own scheduler MXBean, with Shuttle installed by the agent, describes Shuttle. */
    private void jdkMxBean(int parallelism) throws Exception {
        VirtualThreadSchedulerMXBean mx = ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);
        check("getParallelism() == " + parallelism, mx.getParallelism() == parallelism, mx);
        check("getPoolSize() == " + parallelism + " when idle", mx.getPoolSize() == parallelism, mx);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch spinning = new CountDownLatch(parallelism);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            spinners.add(Thread.startVirtualThread(() -> {
                spinning.countDown();
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        spinning.await();
        check("mounted count sees the running threads", mx.getMountedVirtualThreadCount() >= parallelism, mx);
        List<Thread> queued = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            queued.add(Thread.startVirtualThread(() -> { }));
        }
        check("queued count sees the queued threads", mx.getQueuedVirtualThreadCount() >= 5, mx);
        String zero;
        try {
            mx.setParallelism(0);
            zero = "accepted";
        } catch (IllegalArgumentException e) {
            zero = e.getMessage();
        }
        check("setParallelism(0) is refused naming the value", zero.contains("was 0"), zero);
        check("and changes nothing", mx.getParallelism() == parallelism, mx);
        stop.set(true);
        for (Thread t : spinners) {
            t.join();
        }
        for (Thread t : queued) {
            t.join();
        }
        resizeUnderLoad(mx);
    }

    /**
     * The JDK's MXBean resizes Shuttle: 1, then 4, while virtual threads sleep, park and yield. Every step is counted,
     * so a lost task or timer leaves a thread unfinished; then as many spinning threads run at once as processors.
     */
    private void resizeUnderLoad(VirtualThreadSchedulerMXBean mx) throws Exception {
        int threads = 200;
        int steps = 150;
        AtomicInteger done = new AtomicInteger();
        List<Thread> load = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            load.add(Thread.startVirtualThread(() -> {
                for (int k = 0; k < steps; k++) {
                    switch (k % 3) {
                        case 0 -> LockSupport.parkNanos(1_000_000);
                        case 1 -> LockSupport.parkNanos(100_000);
                        default -> Thread.yield();
                    }
                    done.incrementAndGet();
                }
            }));
        }
        Thread.sleep(20);
        mx.setParallelism(1);
        check("getParallelism() follows setParallelism(1)", mx.getParallelism() == 1, mx);
        Thread.sleep(50);
        mx.setParallelism(4);
        check("getParallelism() follows setParallelism(4)", mx.getParallelism() == 4, mx);
        boolean finished = true;
        for (Thread t : load) {
            finished &= t.join(Duration.ofSeconds(60));
        }
        check("the resizes under load lost no task and no timer", finished && done.get() == threads * steps,
                done.get() + " of " + threads * steps + " steps");
        AtomicInteger arrived = new AtomicInteger();
        AtomicBoolean release = new AtomicBoolean();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            spinners.add(Thread.startVirtualThread(() -> {
                arrived.incrementAndGet();
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (arrived.get() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        Thread.sleep(500);
        int atOnce = arrived.get();
        release.set(true);
        for (Thread t : spinners) {
            t.join();
        }
        check("4 carriers run virtual threads at once after setParallelism(4)", atOnce == 4, atOnce);
    }

    private void check(String name, boolean ok, Object detail) {
        System.out.println((ok ? "ok " : "FAIL ") + name + ": " + detail);
        if (!ok) {
            failures.add(name);
        }
    }

    private void runsOn(String name, String carrierMark, String where) {
        check(name, where != null && where.contains(carrierMark), where);
    }

    /** Where a task runs when started by {@code starter}: the running thread's toString, naming its carrier. */
    private static String where(Function<Runnable, Thread> starter) throws InterruptedException {
        AtomicReference<String> seen = new AtomicReference<>();
        Thread t = starter.apply(() -> seen.set(Thread.currentThread().toString()));
        if (!t.join(Duration.ofSeconds(10))) {
            return "did not finish: " + t;
        }
        return seen.get();
    }

    /** Every way the JDK creates a virtual thread without an explicit scheduler, with Shuttle as the default. */
    private void apis(int expectedParallelism) throws Exception {
        runsOn("Thread.ofVirtual().start", SHUTTLE, where(r -> Thread.ofVirtual().start(r)));
        runsOn("Thread.ofVirtual().unstarted", SHUTTLE, where(r -> {
            Thread t = Thread.ofVirtual().name("named").unstarted(r);
            t.start();
            return t;
        }));
        runsOn("Thread.startVirtualThread", SHUTTLE, where(Thread::startVirtualThread));
        runsOn("Thread.ofVirtual().factory()", SHUTTLE, where(r -> {
            Thread t = Thread.ofVirtual().name("f-", 0).factory().newThread(r);
            t.start();
            return t;
        }));
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            runsOn("Executors.newVirtualThreadPerTaskExecutor", SHUTTLE,
                    ex.submit(() -> Thread.currentThread().toString()).get(10, TimeUnit.SECONDS));
            runsOn("CompletableFuture on the per-task executor", SHUTTLE,
                    CompletableFuture.supplyAsync(() -> Thread.currentThread().toString(), ex)
                            .get(10, TimeUnit.SECONDS));
        }
        try (ExecutorService ex = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory())) {
            runsOn("Executors.newThreadPerTaskExecutor(ofVirtual().factory())", SHUTTLE,
                    ex.submit(() -> Thread.currentThread().toString()).get(10, TimeUnit.SECONDS));
        }
        runsOn("after Thread.sleep (timed park)", SHUTTLE, where(r -> Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            r.run();
        })));
        runsOn("child of a Shuttle virtual thread", SHUTTLE, where(r -> Thread.ofVirtual().start(() -> {
            try {
                Thread.ofVirtual().start(r).join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        })));

        // 1,000 threads that park on timers: all on Shuttle's carriers. Not only on shuttle-carrier-0..n-1: a carrier
        // blocked meanwhile (class loading and initialisation block it) hands its processor to another thread.
        AtomicInteger elsewhere = new AtomicInteger();
        AtomicReference<String> example = new AtomicReference<>();
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 1000; i++) {
                ex.submit(() -> {
                    Thread.sleep(1);
                    String w = Thread.currentThread().toString();
                    int at = w.indexOf(SHUTTLE);
                    if (at < 0) {
                        elsewhere.incrementAndGet();
                        example.set(w);
                    }
                    return null;
                });
            }
        }
        check("1000 sleeping threads on Shuttle's carriers", elsewhere.get() == 0,
                elsewhere.get() + " elsewhere, e.g. " + example.get());

        // An explicit scheduler is kept, and inherited by the children of its threads.
        Executor custom = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "custom-carrier");
            t.setDaemon(true);
            return t;
        });
        // The JDK's constructor for a builder with a scheduler; reachable because the agent opened java.lang.
        Constructor<?> withScheduler = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder")
                .getDeclaredConstructor(Executor.class);
        withScheduler.setAccessible(true);
        Thread.Builder.OfVirtual customBuilder = (Thread.Builder.OfVirtual) withScheduler.newInstance(custom);
        runsOn("explicit scheduler is kept", "@custom-carrier", where(customBuilder::start));
        runsOn("child of a virtual thread with an explicit scheduler", "@custom-carrier",
                where(r -> customBuilder.start(() -> {
                    try {
                        Thread.ofVirtual().start(r).join();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                })));
        try (ShuttleScheduler own = ShuttleScheduler.builder().parallelism(1).build()) {
            runsOn("a separate ShuttleScheduler still works", SHUTTLE, where(r -> own.ofVirtual().start(r)));
        }

        Optional<ShuttleScheduler> system = ShuttleScheduler.systemDefault();
        check("systemDefault() is present", system.isPresent(), system);
        check("systemDefault().parallelism() == " + expectedParallelism,
                system.map(ShuttleScheduler::parallelism).orElse(-1) == expectedParallelism, system);
        boolean refused = false;
        try {
            system.orElseThrow().close();
        } catch (IllegalStateException e) {
            refused = true;
        }
        check("systemDefault().close() is refused", refused && !system.orElseThrow().isClosed(), system);
    }

    /** A real HTTP server on a virtual-thread-per-task executor, driven by the JDK's HTTP client. */
    private void http(int requests) throws Exception {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
        server.createContext("/", exchange -> {
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            try {
                Thread.sleep(10);   // park on a timer, so handlers overlap
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            String where = Thread.currentThread().toString();
            byte[] body = (where.contains(SHUTTLE) ? "shuttle" : "elsewhere " + where)
                    .getBytes(StandardCharsets.UTF_8);
            inFlight.decrementAndGet();
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(handlers);
        server.start();
        try (ExecutorService clientExecutor = Executors.newVirtualThreadPerTaskExecutor();
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                     .executor(clientExecutor).connectTimeout(Duration.ofSeconds(20)).build()) {
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                HttpRequest request = HttpRequest.newBuilder(uri.resolve("/r" + i)).timeout(Duration.ofSeconds(30))
                        .build();
                responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
            }
            int onShuttle = 0;
            List<String> other = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> f : responses) {
                try {
                    HttpResponse<String> r = f.get(45, TimeUnit.SECONDS);
                    if (r.statusCode() == 200 && r.body().equals("shuttle")) {
                        onShuttle++;
                    } else if (other.size() < 3) {
                        other.add(r.statusCode() + " " + r.body());
                    }
                } catch (Exception e) {
                    if (other.size() < 3) {
                        other.add(e.toString());
                    }
                }
            }
            check(requests + " requests handled on Shuttle", onShuttle == requests,
                    onShuttle + " on Shuttle, max " + maxInFlight.get() + " handlers in flight; other: " + other);
        } finally {
            server.stop(0);
            handlers.close();
        }
    }

    /**
     * The JDK's HTTP server on a virtual-thread-per-task executor while two handlers block their carriers reading
     * FIFOs (the two FIFOs {@code fifo-0} and {@code fifo-1} in {@code fifos}): with 2 carriers, {@code /hello} is
     * answered only if the scheduler moves work off blocked carriers. {@code expectAnswered} false is the JDK's
     * default scheduler, which stalls: one request with a short timeout shows it. Either way, the blocked handlers
     * answer once main writes their FIFOs.
     */
    private void blockedHttp(Path fifos, int helloRequests, boolean expectAnswered) throws Exception {
        CountDownLatch blocked = new CountDownLatch(2);
        AtomicInteger returned = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.createContext("/block", exchange -> {
            Path fifo = fifos.resolve("fifo-" + exchange.getRequestURI().getQuery());
            blocked.countDown();
            int b;
            try (InputStream in = new FileInputStream(fifo.toFile())) {
                b = in.read();
            }
            returned.incrementAndGet();
            respond(exchange, "read " + (char) b);
        });
        server.createContext("/hello", exchange -> respond(exchange, "hello"));
        ExecutorService handlers = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(handlers);
        server.start();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build()) {
            URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
            List<CompletableFuture<HttpResponse<String>>> blockedResponses = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                blockedResponses.add(client.sendAsync(HttpRequest.newBuilder(base.resolve("/block?" + i))
                        .timeout(Duration.ofSeconds(40)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            boolean bothBlocked = blocked.await(20, TimeUnit.SECONDS);
            Thread.sleep(200);
            check("two handlers are blocked reading FIFOs", bothBlocked && returned.get() == 0,
                    "entered: " + (2 - blocked.getCount()) + ", returned: " + returned.get());

            int answered = 0;
            List<String> other = new ArrayList<>();
            Duration timeout = Duration.ofSeconds(expectAnswered ? 10 : 2);
            for (int i = 0; i < helloRequests; i++) {
                try {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve("/hello"))
                            .timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
                    if (r.statusCode() == 200 && r.body().equals("hello")) {
                        answered++;
                    } else {
                        other.add(r.statusCode() + " " + r.body());
                    }
                } catch (IOException e) {
                    other.add(e.toString());
                }
            }
            String detail = answered + " of " + helloRequests + " answered, handlers still blocked: "
                    + (returned.get() == 0) + ", other: " + other;
            if (expectAnswered) {
                check("GET /hello is answered while two handlers read FIFOs",
                        answered == helloRequests && returned.get() == 0, detail);
            } else {
                check("GET /hello stalls while two handlers read FIFOs", answered == 0, detail);
            }

            for (int i = 0; i < 2; i++) {
                try (OutputStream out = new FileOutputStream(fifos.resolve("fifo-" + i).toFile())) {
                    out.write('a' + i);
                }
            }
            List<String> bodies = new ArrayList<>();
            for (CompletableFuture<HttpResponse<String>> f : blockedResponses) {
                try {
                    bodies.add(f.get(30, TimeUnit.SECONDS).body());
                } catch (Exception e) {
                    bodies.add(e.toString());
                }
            }
            check("the blocked handlers answer once their FIFOs are written",
                    bodies.equals(List.of("read a", "read b")), bodies);
        } finally {
            server.stop(0);
            handlers.close();
        }
    }

    private static void respond(HttpExchange exchange, String text) throws IOException {
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /**
     * The hooks the agent adds to {@code java.base} ({@code CarrierHooksTransformer}), seen from applications:
     * calls the JDK marks with {@code Blocker} give up the processor at once, and
     * {@code ForkJoinWorkerThread.hasKnownQueuedWork} tells the truth on a Shuttle carrier. Needs
     * {@code --add-exports java.base/jdk.internal.misc} and {@code --add-opens java.base/java.util.concurrent}.
     */
    private void hooks() throws Exception {
        processPipesDoNotStallATicker();
        blockerMarkedSectionGivesUpTheProcessor();
        queuedWorkIsAnsweredTruthfully();
    }

    /** Two virtual threads read child processes' output (Blocker-marked) on the 2-carrier default scheduler. */
    private void processPipesDoNotStallATicker() throws Exception {
        List<Process> cats = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            cats.add(new ProcessBuilder("cat").start());
        }
        ConcurrentLinkedQueue<Long> ticks = new ConcurrentLinkedQueue<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread ticker = Thread.ofVirtual().start(() -> {
            while (!stop.get()) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
                ticks.add(System.nanoTime());
            }
        });
        AtomicLong lastEntry = new AtomicLong(Long.MIN_VALUE);
        AtomicLong firstReturn = new AtomicLong(Long.MAX_VALUE);
        CountDownLatch entered = new CountDownLatch(2);
        List<String> read = new CopyOnWriteArrayList<>();
        List<Thread> readers = new ArrayList<>();
        for (Process cat : cats) {
            readers.add(Thread.ofVirtual().start(() -> {
                lastEntry.accumulateAndGet(System.nanoTime(), Math::max);
                entered.countDown();
                try {
                    int b = cat.getInputStream().read();
                    firstReturn.accumulateAndGet(System.nanoTime(), Math::min);
                    read.add(String.valueOf((char) b));
                } catch (IOException e) {
                    read.add(e.toString());
                }
            }));
        }
        boolean allEntered = entered.await(20, TimeUnit.SECONDS);
        Thread.sleep(600);
        boolean stillBlocked = read.isEmpty();
        for (int i = 0; i < cats.size(); i++) {
            try (OutputStream out = cats.get(i).getOutputStream()) {
                out.write('x');
            }
        }
        for (Thread t : readers) {
            t.join(Duration.ofSeconds(30));
        }
        stop.set(true);
        ticker.join(Duration.ofSeconds(30));
        for (Process cat : cats) {
            cat.destroy();
        }
        long from = lastEntry.get();
        long to = firstReturn.get();
        long windowMillis = (to - from) / 1_000_000;
        long during = ticks.stream().filter(t -> t > from && t < to).count();
        check("a ticker keeps ticking while two virtual threads read child processes' pipes",
                allEntered && stillBlocked && from < to && during >= Math.max(1, windowMillis / 10 / 3),
                during + " ticks in the " + windowMillis + " ms both readers were blocked; entered: " + allEntered
                        + ", blocked until released: " + stillBlocked);
        check("the readers finish once the processes write", read.equals(List.of("x", "x")), read);
        ShuttleScheduler system = ShuttleScheduler.systemDefault().orElseThrow();
        Object carrierPool = SchedulerAccess.poolOf(system);
        Object handOff = field(carrierPool, "handOff");
        long handOffs = ((AtomicLong) field(handOff, "handOffs")).get();
        check("the blocked carriers' processors were handed off", handOffs > 0, handOffs + " hand-offs");
    }

    private static Object field(Object o, String name) throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    /**
     * With one processor, a virtual thread spinning inside {@code Blocker.begin()}/{@code end()} (never blocking,
     * so the monitor would leave it alone) lets another virtual thread run: {@code begin} is Go's
     * {@code entersyscall}, and a submission that finds no idle processor takes the one in the marked call.
     * Without the hook, {@code begin} does nothing on a Shuttle carrier and the other thread waits for the spinner.
     */
    private void blockerMarkedSectionGivesUpTheProcessor() throws Exception {
        Method begin = Class.forName("jdk.internal.misc.Blocker").getMethod("begin");
        Method end = Class.forName("jdk.internal.misc.Blocker").getMethod("end", boolean.class);
        AtomicBoolean otherRan = new AtomicBoolean();
        AtomicBoolean sawOtherInside = new AtomicBoolean();
        AtomicBoolean attempted = new AtomicBoolean();
        CountDownLatch inside = new CountDownLatch(1);
        try (ShuttleScheduler one = ShuttleScheduler.builder().parallelism(1).build()) {
            Thread spinner = one.ofVirtual().start(() -> {
                try {
                    boolean a = (boolean) begin.invoke(null);
                    attempted.set(a);
                    try {
                        inside.countDown();
                        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                        while (!otherRan.get() && System.nanoTime() < deadline) {
                            Thread.onSpinWait();
                        }
                        sawOtherInside.set(otherRan.get());
                    } finally {
                        end.invoke(null, a);
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            });
            inside.await();
            Thread other = one.ofVirtual().start(() -> otherRan.set(true));
            spinner.join();
            other.join();
        }
        check("Blocker.begin on a Shuttle carrier enters the marked call", attempted.get(), attempted);
        check("a virtual thread runs while the only processor's carrier is in a Blocker-marked call",
                sawOtherInside.get(), sawOtherInside);
    }

    /**
     * {@code ForkJoinWorkerThread.hasKnownQueuedWork} on a one-processor Shuttle scheduler: false with nothing
     * queued, true right after the thread unparked another one (which waits in runNext) and before it parks.
     */
    private void queuedWorkIsAnsweredTruthfully() throws Exception {
        Method queuedWork = ForkJoinWorkerThread.class.getDeclaredMethod("hasKnownQueuedWork");
        queuedWork.setAccessible(true);
        List<Boolean> answers = new CopyOnWriteArrayList<>();
        try (ShuttleScheduler one = ShuttleScheduler.builder().parallelism(1).build()) {
            one.ofVirtual().start(() -> {
                try {
                    answers.add((boolean) queuedWork.invoke(null));
                    AtomicBoolean go = new AtomicBoolean();
                    Thread parked = Thread.ofVirtual().start(() -> {
                        while (!go.get()) {
                            LockSupport.park();
                        }
                    });
                    answers.add((boolean) queuedWork.invoke(null));
                    while (parked.getState() != Thread.State.WAITING) {
                        Thread.yield();
                    }
                    answers.add((boolean) queuedWork.invoke(null));
                    go.set(true);
                    LockSupport.unpark(parked);
                    answers.add((boolean) queuedWork.invoke(null));
                    parked.join();
                    answers.add((boolean) queuedWork.invoke(null));
                } catch (ReflectiveOperationException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }).join();
        }
        check("hasKnownQueuedWork: nothing queued, a thread just started, nothing queued, a thread just unparked,"
                + " nothing queued", answers.equals(List.of(false, true, false, true, false)), answers);
    }

    /** The agent without the property: scheduling is the JDK's, and the explicit API needs no --add-opens. */
    private void plain() throws Exception {
        runsOn("Thread.ofVirtual().start stays on the JDK's scheduler", JDK_DEFAULT,
                where(r -> Thread.ofVirtual().start(r)));
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            runsOn("Executors.newVirtualThreadPerTaskExecutor stays on the JDK's scheduler", JDK_DEFAULT,
                    ex.submit(() -> Thread.currentThread().toString()).get(10, TimeUnit.SECONDS));
        }
        check("systemDefault() is empty", ShuttleScheduler.systemDefault().isEmpty(),
                ShuttleScheduler.systemDefault());
        try (ShuttleScheduler shuttle = ShuttleScheduler.create()) {
            runsOn("ShuttleScheduler.create().ofVirtual() works without --add-opens", SHUTTLE,
                    where(r -> shuttle.ofVirtual().start(r)));
            try (ExecutorService ex = shuttle.newVirtualThreadPerTaskExecutor()) {
                runsOn("children of Shuttle threads stay on Shuttle", SHUTTLE,
                        ex.submit(() -> where(r -> Thread.ofVirtual().start(r))).get(10, TimeUnit.SECONDS));
            }
        }
    }
}
