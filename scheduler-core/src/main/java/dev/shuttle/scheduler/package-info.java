/**
 * Shuttle's carrier scheduler for virtual threads.
 *
 * <h2>Design</h2>
 * The JDK runs a virtual thread by handing its scheduler one task, the thread's continuation, each time the thread
 * becomes runnable: at start, when unparked or unblocked, after {@code Thread.yield}, and after a park that found a
 * wake-up already pending. Shuttle is that scheduler. It follows the Go runtime ({@code runtime/proc.go}):
 * {@code parallelism} processors ({@link dev.shuttle.scheduler.Processor}, Go's P) each have a run queue, a one-task
 * {@code runNext} slot and a timer heap; a carrier thread ({@link dev.shuttle.scheduler.Carrier}, Go's M) must hold a
 * processor to run virtual threads; work from outside goes through one global injection queue; a carrier out of work
 * searches (steals from busy processors) for a bounded time and then parks with its processor; an idle-processor
 * bitmap lets searchers skip parked ones and lets submitters find one to wake. A monitor thread
 * ({@link dev.shuttle.scheduler.Monitor}, Go's {@code sysmon}) moves a processor to another carrier thread
 * ({@link dev.shuttle.scheduler.SpareCarriers}) when its carrier is stuck in the kernel, so no runnable virtual thread
 * waits behind a blocked carrier.
 *
 * <p>Below, "carrier" and "processor" are the same thing except where a hand-off is involved: a processor normally
 * keeps its carrier for life, and an idle processor's carrier sleeps with it.
 *
 * <h2>Who calls whom</h2>
 * One class per job, and every call goes down this list, never up:
 * <ol>
 *   <li>{@link dev.shuttle.scheduler.CarrierPool}: the executor the JDK calls ({@code execute}, {@code schedule},
 *       the MXBean's questions, {@code setParallelism}) and the composition root that builds everything below and
 *       hands each part the parts it calls. {@link dev.shuttle.scheduler.ShuttleScheduler} is its public face.</li>
 *   <li>{@link dev.shuttle.scheduler.Carrier}: the carrier loop (fire timers, pick a task, search, park, give up a
 *       retired processor, wait as a spare), and what a carrier does after it pushed to or lost a processor that
 *       went elsewhere.</li>
 *   <li>{@link dev.shuttle.scheduler.Monitor}: Go's {@code sysmon}.</li>
 *   <li>{@link dev.shuttle.scheduler.TimerService}: arming and firing timers.</li>
 *   <li>{@link dev.shuttle.scheduler.Resize}: growing and shrinking, and moving a retired processor's tasks and
 *       timers on.</li>
 *   <li>{@link dev.shuttle.scheduler.TimerWatch} (who sleeps toward the earliest deadline, and whom new timers or
 *       fired threads must wake) and {@link dev.shuttle.scheduler.WorkSearch} (search and steal).</li>
 *   <li>{@link dev.shuttle.scheduler.Wakeups}: {@code wakep}, the blocking hooks, and taking a processor from a
 *       blocked carrier.</li>
 *   <li>{@link dev.shuttle.scheduler.SpareCarriers}: the carrier threads a taken processor goes to.</li>
 *   <li>State that calls nothing above it: {@link dev.shuttle.scheduler.PoolState} (Go's {@code schedt}: the
 *       processors, the idle set, the searching and blocking counts, the global queue, the stopping flag) with
 *       {@link dev.shuttle.scheduler.TimerDeadlines} over its timer heaps, {@link dev.shuttle.scheduler.Processor},
 *       {@link dev.shuttle.scheduler.CarrierThread} (a carrier as other threads see it),
 *       {@link dev.shuttle.scheduler.MonitorSignal}, {@link dev.shuttle.scheduler.IdleSet},
 *       {@link dev.shuttle.scheduler.RunQueue}, {@link dev.shuttle.scheduler.BackupWatch}, {@link dev.shuttle.scheduler.SearchBackoff}
 *       and {@link dev.shuttle.scheduler.SpinAdvice}.</li>
 * </ol>
 * Why the cut falls there. Waking is where queueing a task, arming a timer, draining a retired processor and the
 * monitor's rescue all end, so {@code Wakeups} sits below all of them and calls none: the two steps of a stale push
 * and a lost processor need a resize's drain or a look at the timer heaps, so they are the pushing
 * {@code Carrier}'s ({@code afterStalePush}, {@code lostProcessor}), and whether a batch of fired threads may go
 * without a helper is the timer watch's call ({@code TimerWatch.afterFiredPush}). The monitor is woken by a flag and
 * an unpark ({@code MonitorSignal}), so no carrier or waker calls it. A processor and its carrier thread name each
 * other as data (its holder, its processor) and call nothing on each other. One callback crosses a layer upward,
 * {@code SpareCarriers.NewCarrier}: spares make carrier threads, but only the composition root knows what a carrier
 * calls.
 *
 * <h2>Where a task goes ({@link dev.shuttle.scheduler.CarrierPool#execute})</h2>
 * <ul>
 *   <li>Submitted on a Shuttle carrier (a thread running there unparks another, or starts one): into that carrier's
 *       {@code runNext}, so it runs next on the same warm carrier (Go's {@code runnext}); the task it displaces goes
 *       to the tail of the queue. A thread re-submitting itself (it parked with a wake-up pending) goes to the tail,
 *       not to {@code runNext}, so that it cannot monopolise the carrier.</li>
 *   <li>A {@code Thread.yield}: to the global queue, behind all other runnable work (Go's {@code Gosched}). Running
 *       it next would make {@code yield} a no-op and livelock a spin-with-yield loop on one carrier.</li>
 *   <li>Woken by a timer that the carrier fires between tasks: to the tail of its queue, so that a batch of
 *       expired timers runs in deadline order (through {@code runNext} it would run backwards). A carrier fires
 *       only as many timers as its queue has room for; the rest stay in the heap, in order.</li>
 *   <li>From any other thread (a platform thread, the JDK's unblocker, a carrier that lost its processor): to the
 *       global queue.</li>
 *   <li>A full local queue overflows to the global queue.</li>
 * </ul>
 *
 * <h2>Fairness</h2>
 * A carrier takes from the global queue before its own every 61st tick (Go's {@code schedtick % 61}), and takes
 * {@code runNext} at most 3 times in a row before the queue gets a turn (Tokio's {@code MAX_LIFO_POLLS_PER_TICK}): a
 * ping-pong pair handing {@code runNext} back and forth would otherwise starve the queue, and every thread queued
 * behind the pair waits for that many of its hand-offs per turn. Go bounds the pair only by the time slice it shares;
 * the limit was chosen on ChannelProducerConsumer's item latency (docs/design.md, "Where a task goes").
 *
 * <h2>Ownership</h2>
 * <ul>
 *   <li>A processor's scheduling state (its tick, search back-off, runNext streak) belongs to whoever holds it in phase
 *       LOOP; the holder changes only by CAS on the processor's state word, from phase TASK or BLOCKING, so exactly
 *       one carrier runs a processor's loop at a time ({@link dev.shuttle.scheduler.Processor}). A carrier learns
 *       that it lost its processor at its next CAS (after the task, or leaving a blocking call); until then its
 *       virtual thread may still push to that processor's {@code runNext} and queue, which are safe for any thread
 *       ({@code Carrier.pushLocal} says how such a push is never stranded on a processor that went idle
 *       meanwhile: {@code StalePushVersusParkStress}).</li>
 *   <li>A processor's run queue is produced into by tasks running on it (and, after a hand-off, by the carrier that
 *       lost it, until its task unmounts); it is consumed by the holder and by thieves, under a consumer flag
 *       ({@link dev.shuttle.scheduler.RunQueue}). Hence: an idle processor's queue is empty, because a carrier parks
 *       only after finding its queue empty, and the one late producer wakes an idle processor it pushed to. This is
 *       what lets stealing skip idle processors without losing work (seed 001).</li>
 *   <li>The global queue is produced into by any thread, lock-free, and consumed by any carrier or resize, one at a
 *       time, under its consumer flag ({@link dev.shuttle.scheduler.GlobalQueue}, {@code GlobalQueueConsumersStress});
 *       a carrier that sees it empty takes no flag.</li>
 *   <li>{@code runNext} is swapped by its owner and taken by thieves with a CAS: one taker
 *       ({@code RunNextSwapStress}; the queue and runNext together: {@code RunQueueStealStress}). Thieves take it only
 *       after their search's first pause, and only from a carrier whose tick did not move meanwhile (its task kept
 *       running: a long task, or a waiter spinning for the thread it just woke), or one the monitor marked stuck;
 *       otherwise it belongs to the owner, which will run it next.</li>
 *   <li>A carrier's idle bit is set by the carrier; it is cleared by whoever wakes it. Clearing is the hand-off:
 *       the one thread whose atomic clear succeeded owns the wake-up ({@code IdleBitHandOffStress}).</li>
 * </ul>
 *
 * <h2>Searching (Go's {@code nmspinning})</h2>
 * {@code searching} counts carriers looking for work. A carrier starts searching only while
 * {@code 2 * searching < busy carriers}, so at most about half the carriers burn CPU looking. A search is a bounded
 * number of rounds over the global queue and the busy carriers' queues ({@link dev.shuttle.scheduler.WorkSearch}),
 * separated by {@code onSpinWait} bursts; then the carrier parks. No pause yields: a {@code Thread.yield} that gives
 * the core away is a context switch like a preemption, and the thread that takes the core is most often the JDK
 * platform thread (poller, a server's dispatcher) that feeds the carriers, which then preempts a carrier mid-task in
 * turn. How many rounds a search spins is one class, {@link dev.shuttle.scheduler.SearchBackoff}: the budget shrinks
 * while searches find nothing, is restored when spinning pays or would have paid, and is spent at once when the
 * carrier was switched out while runnable since its last park (its core is wanted by other threads; the carrier reads
 * its own count before it parks, {@link dev.shuttle.scheduler.InvoluntarySwitches}). A search beside a busy
 * processor pauses at least once, after which it may take a running processor's {@code runNext} (see "Ownership");
 * with every other processor idle it does not pause at all, since only a running virtual thread hands work over. A search's spin is a few
 * microseconds, so a searcher leaves no timer unfired for longer than that. An idle scheduler's carriers are all
 * parked and use no CPU.
 *
 * <h2>Waking (Go's {@code wakep}, {@link dev.shuttle.scheduler.Wakeups})</h2>
 * After queueing any work, even a {@code runNext}-only hand-off, the submitter calls {@code wakep} (Go's
 * {@code ready} does too: the current task may keep its carrier busy for long, and the woken searcher takes
 * {@code runNext} from a carrier whose tick stands still). If some carrier is idle and none is searching, it
 * raises {@code searching} from 0 to 1 with a CAS on the woken carrier's behalf, clears one idle bit, and unparks
 * that carrier. A searcher that finds work stops searching; if it was the last searcher and a task is still queued
 * anywhere or a timer is pending, it calls {@code wakep} itself (Go's {@code resetspinning}), since submitters skipped
 * waking anyone while it searched. It lowers the count before it looks, and a submitter pushes before it reads the
 * count, so one of the two sees the other ({@code FoundVersusSubmitStress}). Go wakes one whatever is left; with tasks
 * arriving one at a time from outside, that second carrier found nothing every time ({@code LastSearcherWakeTest}).
 *
 * <h2>Parking, and why no wake-up is lost</h2>
 * A carrier parks in this order ({@link dev.shuttle.scheduler.Carrier#prepareToPark}): (1) set its idle bit; (2)
 * if it was searching, decrement {@code searching}; (3) re-check the global queue, every busy carrier's queue, and
 * the {@code runNext} of every busy carrier whose tick has not moved since this carrier's search first saw it (the
 * {@code runNext} a search would take, see "runNext and stuck processors"); (4) if something is there, clear its own
 * bit and search again; else sleep until its bit is cleared. A submitter:
 * (a) pushes; (b) reads {@code searching} and the idle bits, waking an idle carrier if none searches. All of these
 * are volatile or atomic read-modify-write accesses, so they fall into one total order. If (a) comes before (3),
 * the re-check sees the task. If (a) comes after (3), then (b) comes after (1) and (2): the submitter sees the idle
 * bit, and sees {@code searching} already lowered by this carrier. If {@code searching} is still non-zero, another
 * carrier is searching; it will find the task or, when it parks, run the same protocol after the task was pushed,
 * and its re-check sees it. The last searcher to park always re-checks after the push or is seen by the pusher
 * ({@code ParkVersusSubmitStress}, for a parking carrier and for the last searcher parking). For a {@code runNext}
 * hand-off the re-check sees it only while the owner's task keeps running; once the owner moves on it runs the
 * task itself, so nobody has to be awake for it ({@code ParkVersusSubmitStress.RunNextFromSearching}: without the
 * {@code runNext} in the re-check, the last searcher parks past it).
 *
 * <p>A non-zero {@code searching} may also be a waker's promise: {@code wakep} raises it before it looks for an
 * idle bit. If the bit it counted on is gone (that carrier got up for a timer), no carrier searches, yet submitters
 * that read the count woke nobody, and the carrier may have parked again in between, its re-check done before
 * their push (or, for a timer armed from outside, the carrier went to sleep without a timeout). So a waker that
 * finds no bit lowers the count and then, like a parking carrier, looks at every queue and timer heap, and tries
 * again if it sees work: a submitter or arming thread that read the raised count had pushed or published before the
 * waker lowered it. This was a real lost wake-up; {@code PhantomSearcherStress} reproduces it for a queued task, and
 * for an armed timer when the waker looks only at the queues. Go avoids it by holding {@code sched.lock} over the idle
 * list in both places.
 *
 * <p>A woken carrier may find its bit already cleared by itself (its re-check found work and it cleared its own bit)
 * when a waker's clear failed: then exactly one of them succeeded, and the loser backs off
 * ({@code IdleBitHandOffStress}). A spare {@code unpark}
 * permit left behind only makes one later {@code park} return early; the park loop re-checks its bit.
 *
 * <p>No timeout backs this up: an idle scheduler's carriers and its monitor all sleep without one. While any
 * processor is busy, the {@link dev.shuttle.scheduler.Monitor} counts as a rescue any work it finds that every path
 * above missed (a processor idle, nobody searching, and work queued or a timer overdue that no idle carrier sleeps
 * toward, at every look for 50 ms: far longer than the OS keeps a thread between publishing work and waking, the
 * window every path above has) and wakes a carrier for it; tests read the count, so a lost wake-up shows instead of
 * costing a timeout.
 *
 * <h2>runNext and stuck processors (the monitor)</h2>
 * A task in a busy processor's {@code runNext} runs as soon as the current task parks. If the task never parks (a
 * long computation, a waiter spinning for the thread it just woke, a handler writing its response, a pinned or
 * blocking call), another carrier must take it. As in Go's {@code ready}, every push from a task wakes a searcher
 * ({@code wakep}, which costs two reads when a carrier already searches or none is idle); the searcher takes a busy
 * processor's {@code runNext} after its first pause if that processor's tick has not moved ({@code WorkSearch}). The
 * {@link dev.shuttle.scheduler.Monitor} is the slower net: it marks a processor whose tick stood still with work
 * waiting as stuck (thieves may then take its {@code runNext} at once) and wakes an idle carrier to steal, or, if its
 * carrier is off the CPU, hands the processor to another carrier thread. Nothing waits for the monitor's look in the
 * common case, so its looks can back off as Go's sysmon's do (docs/design.md, "Blocking and the monitor").
 *
 * <p>While every processor is idle and no timer is pending, the monitor parks without a timeout. It publishes
 * {@code asleep} in the signal, then looks at the idle set once more; a carrier leaving the idle set clears its bit,
 * then reads {@code asleep} and unparks the monitor ({@code MonitorSignal.processorBusy}): one of the two sees the
 * other ({@code MonitorSleepVersusBusyStress}).
 *
 * <h2>Blocked carriers: hand-offs</h2>
 * A carrier can stop coming back in three ways, and each ends with its processor on another carrier thread (a spare,
 * or a new one up to {@code maxCarriers}):
 * <ul>
 *   <li>A call the JDK marks with {@code jdk.internal.misc.Blocker} (process pipes, {@code InetAddress} lookups,
 *       {@code System.in}, {@code fsync}, direct and synchronous file I/O; docs/guide.md, "Blocking calls", lists
 *       them): with the agent, {@link dev.shuttle.scheduler.CarrierHooksTransformer} makes it Go's
 *       {@code entersyscall}: the processor goes to phase BLOCKING and is handed off at once if work waits for it,
 *       later by the monitor or by a waker
 *       that finds no idle processor ({@code Wakeups.wakep}); on return ({@code exitsyscall}) the carrier takes it
 *       back by CAS if nobody took it ({@code HandOffVersusReturnStress}).</li>
 *   <li>Anything else that blocks in the kernel (a {@code FileInputStream} read, a native call, class
 *       initialisation): the monitor sees the processor's tick stand still with work waiting and its carrier off the
 *       CPU, and hands it off.</li>
 *   <li>A long computation, with {@code timeSlice} set: the monitor hands the processor off after the slice, and the
 *       OS shares the cores between the long task and the rest.</li>
 * </ul>
 * The carrier that lost its processor finishes its virtual thread's current run (more carriers than processors run
 * virtual threads meanwhile, as with the JDK's compensation), then waits as a spare; spares end after
 * {@code keepAlive}, so the thread count returns to {@code parallelism}. A hand-off claims a waiting spare by CAS on
 * its {@link dev.shuttle.scheduler.CarrierThread} mailbox, and a spare ends only by the CAS from waiting, so no
 * claimed spare ends and no ending spare is handed a processor ({@code SpareClaimVersusRetireStress}); the claimer
 * takes the processor only once it has a thread for it.
 *
 * <h2>Timers</h2>
 * Each carrier owns a {@link dev.shuttle.timers.TimerHeap}. JDK 25 hands a virtual thread's timed park to
 * {@code ForkJoinPool.schedule} of its scheduler, which {@link dev.shuttle.scheduler.CarrierPool} overrides: the
 * timer goes into the heap of the carrier the thread runs on, and no JDK timer thread is ever started. A carrier
 * fires its due timers every tick; a carrier out of work fires due timers of any carrier. One idle carrier, the
 * watcher, parks until the earliest deadline of all heaps; arming an earlier timer unparks it, or wakes an idle
 * carrier when there is no watcher ({@link dev.shuttle.scheduler.TimerWatch} has the protocol: the watcher publishes
 * its deadline, then reads the heaps again; an arming thread publishes its timer, then reads the watcher's deadline,
 * {@code TimerArmVersusWatcherStress}). A watcher that gets up gives the watch up, then unparks another idle carrier to
 * take it; a carrier going to sleep publishes its idle bit before it reads who watches, so one of the two sees the
 * other ({@code WatchHandOffStress}). The watcher parks
 * until a little before the deadline, by the 10th percentile of how late its own timed parks return, and spins the
 * rest ({@link dev.shuttle.scheduler.ParkOvershoot}): the spin is at most 100 µs and returns early for any work.
 *
 * <p>The backup watch ({@link dev.shuttle.scheduler.BackupWatch}). A second idle carrier, when there is one, sleeps
 * until the earliest deadline plus a grace (200 µs, doubling to 2 ms while its wake-ups find nothing due, back to 200
 * µs when one finds a timer nobody fired, 100 µs overdue). While another idle carrier, the watcher or the backup, will
 * be up within 2 ms anyway, and carriers that got up for timers have lately come back within 100 µs (so that a carrier
 * going on to run long tasks does not leave every batch to the backup's grace), three places skip a wake-up: the
 * watcher that gets up for due timers does not hand its watch on; a carrier arming a timed park on its own heap between
 * tasks, or releasing a heap after firing, wakes nobody for it; and the first {@code TimerWatch.SMALL_FIRED_BATCH}
 * threads a carrier's timers wake queue on it without a helper being woken. Each of these carriers fires or runs that
 * work itself before its next task; should one of its tasks run long, the carrier counted on wakes, sees the due timer,
 * the vacant watch or the queued work, and takes over. So a carrier stuck after a quiet spell delays other work by at
 * most 2 ms, and a batch of timer wake-ups usually costs one carrier's wake-up instead of two (chosen on Tickers with
 * ten 1 ms sleepers: docs/design.md, "Timers", the backup watch). Each skip is one side of a Dekker pair: the
 * skipping carrier publishes its timer or queues its work, then reads the watch and the backup; a carrier giving
 * either role up then looks at the heaps, the queues and the watch before it sleeps again or gets up, and one that
 * gets up hands the watch on ({@code BackupWatchStress}).
 *
 * <p>A heap's lock is only ever tried, never waited for. Its holder (the owner arming its own timer, or a carrier
 * firing) answers for the heap's due timers while it holds the lock: a carrier going to sleep passes over them, and
 * the holder, releasing, wakes a carrier if due timers are left. The sleeper publishes its idle bit before it reads
 * the lock; the holder fences between its unlock and its reads of the idle set, so one of the two sees the other
 * ({@code LockedHeapReleaseStress}). A holder that fired them between tasks wakes nobody while another idle carrier
 * will be up within the grace of the due timer, as above; a carrier that passed over that timer slept toward a later
 * deadline, and counts only if that still brings it up within the grace. One holder needs no such hand-over: a carrier arming a timed park on its own
 * heap from its own thread (the JDK does this as the thread unmounts) is between tasks, and fires its due timers
 * itself before it picks the next task; when its run queue is too full to take the woken threads, it waits, but then
 * that queued work has woken the other carriers and keeps them from parking.
 *
 * <h2>Resizing ({@link dev.shuttle.scheduler.Resize}, Go's {@code procresize})</h2>
 * {@code setParallelism} changes the number of processors while virtual threads run. Invariants:
 * <ul>
 *   <li>{@code PoolState.processors} holds the processors in use, {@code parallelism} of them; it is replaced,
 *       never written in place, and readers index only the array they read. {@code created} holds every processor
 *       ever made, those in use first; retired ones keep their counters (summed on read) and come back on a grow.</li>
 *   <li>The idle set is sized for 32767 processors; every scan is bounded by the length of the array its caller
 *       indexes, so no waker or thief gets an index past it, and a retiring processor's bit lies past the new bound.</li>
 *   <li>A retiring processor's {@code retired} flag is raised before the smaller array is published and before its
 *       state leaves its holder. When the resize returns, each retired processor's state is {@code RETIRED_WORD}, no
 *       carrier runs its loop, and its runNext, queue and timer heap were emptied after that; anything put there
 *       later is moved on by whoever put it.</li>
 * </ul>
 * Who owns what during a resize: the resizing thread, under the one resize lock, owns the arrays and the flags, and
 * takes a retiring processor's state by CAS from phase TASK or BLOCKING; in phase LOOP the state is the holder's
 * alone, so the resizer unparks the holder (again every 50 µs: a hand-off may have moved it) and the holder gives it
 * up itself before it parks or when it wakes; the monitor grows its per-processor arrays itself, and each holder its
 * victims' ticks. A grow binds each new processor to its carrier (a spare, or a new thread) before it publishes the
 * array and starts the carriers only after, so a new carrier's idle bit is within the bound of any waker that can
 * see it. How each race is closed:
 * <ul>
 *   <li><b>Resize vs submit.</b> From outside, a task goes to the global queue and {@code wakep}; a waker holding the
 *       old array may claim a retiring processor's idle bit: that carrier wakes, sees the flag, and gives the
 *       processor up as a searcher that found work leaves the count (it wakes another if it was the last). From a
 *       carrier whose processor was retired while its virtual thread ran ({@code pushLocal}): the pusher pushes,
 *       reads the state, then the flag; the resizer raises the flag, takes the state by CAS, then drains. If the
 *       pusher read its own TASK word, its push preceded the CAS and the drain sees it; if not, it reads the flag and
 *       drains itself ({@code Carrier.afterStalePush}; {@code RetireVersusPushStress}). A carrier holding a
 *       retiring processor in its loop pushes only to its own queue, and drains it when it gives the processor up.</li>
 *   <li><b>Resize vs steal.</b> A thief's victims come from the array it read, so it may steal from a retiring
 *       processor: the tasks move to a live queue, or to its own retiring one, drained when it gives that up. Queue,
 *       runNext and heap are consumed under their consumer flag, CAS and lock, so concurrent drains and steals move
 *       each task once; a drain's poll waits out a thief's flag rather than leave the rest behind
 *       ({@code DrainVersusStealStress}).</li>
 *   <li><b>Resize vs a timer arming on a retired processor.</b> {@code TimerService.arm} publishes the timer in the
 *       heap (under its lock or in its inbox), then reads the flag; the resizer raises the flag, then empties the heap
 *       under its lock, so one of the two sees the other and moves the timer ({@code ShrinkVersusTimerArmStress}). A
 *       moved timer keeps its deadline; a fire or cancel racing with the move is decided by the timer's state CAS, so
 *       none fires twice or is dropped. The timer watcher's processor number is looked up in {@code created}, valid
 *       whatever resize happened since.</li>
 *   <li><b>Resize vs hand-off of a blocked carrier.</b> Both are CASes on the state word from phase TASK or BLOCKING,
 *       so one wins. If the hand-off wins, the spare runs the processor's loop in phase LOOP and the resizer keeps
 *       unparking whoever holds it until it starts a task (CAS) or parks (gives it up). If the resize wins, the
 *       hand-off's CAS fails and its spare waits again; the blocked carrier, back from the kernel, finds the state
 *       gone as after a hand-off, finishes its virtual thread, drains what it put there
 *       ({@code Carrier.lostProcessor}) and waits as a spare. The resizer lowers {@code blocking} for a BLOCKING
 *       processor it took ({@code ResizeVersusHandOffStress}: the monitor's hand-off, the hand-off on entering a
 *       marked call, and the carrier coming back, each against a shrink).</li>
 * </ul>
 *
 * <h2>Threads and closing</h2>
 * The JDK's task is {@code VirtualThread::runContinuation}, a bound method reference; Shuttle reads the thread it
 * captures, and the thread's state, through {@link dev.shuttle.scheduler.JdkVirtualThreads}. A task whose thread is
 * in state {@code STARTED} is a start, and is admitted to the live set (or refused once closing began;
 * {@code AdmitVersusCloseStress}); after each run the carrier removes the thread from the live set if it has
 * terminated. {@code close()} refuses new threads,
 * joins the live ones, then stops the carriers. See {@link dev.shuttle.scheduler.ThreadLifecycle} for why the
 * live set is a set.
 *
 * <h2>Failures</h2>
 * A carrier never dies of a task's failure or of a failure of its own loop: it logs to the
 * {@code dev.shuttle.scheduler} {@link java.lang.System.Logger} at ERROR and serves on.
 *
 * <h2>The JDK's question about queued work</h2>
 * {@code LinkedTransferQueue}, {@code SynchronousQueue} and {@code Exchanger} spin before parking unless
 * {@code ForkJoinWorkerThread.hasKnownQueuedWork()} says the carrier has queued work; with the agent a Shuttle carrier
 * answers it: yes while its run queue holds a task, or its {@code runNext} does and no carrier is up and searching. A
 * waiter that has just woken its partner into {@code runNext} then parks at once and lets the partner run on this
 * carrier, unless a searcher will take the partner (see "Ownership": it takes the runNext of a carrier whose task keeps
 * running); then the waiter spins, the partner answers from the other carrier, and the pair goes on handing items
 * over between two spinning carriers without parking, as on the JDK's pool. A searcher that a waker has only
 * promised ({@code PoolState.wakingSearchers}: counted in {@code searching}, unparked, not yet on a core) does not
 * count: on a loaded or virtualised machine it can take longer to get a core than the waiter's whole spin (1,024
 * pauses in {@code Exchanger}), so counting on it made the waiter spin and then park anyway. The waker raises that
 * count after it clears the idle bit; the woken carrier lowers it when it finds its bit cleared (on waking, in
 * {@code prepareToPark}'s re-check, or when it gives up a retired processor), so the count returns to zero whenever
 * no woken carrier is on its way. The bet on a searcher pays on a quiet machine and loses when the cores are shared
 * with other runnable threads (the split pair's partner loses its core and the waiter spins its whole budget), so
 * each carrier keeps score of whether the spins it advised were met ({@link dev.shuttle.scheduler.SpinAdvice}, owned
 * by the carrier, no atomics) and stops betting for a while when too many ran out. See docs/design.md, "The JDK's
 * contracts".
 *
 * <h2>Observability</h2>
 * Event counters (tasks run, steals, parks, wake-ups, timers armed, fired and stolen) are plain fields of each
 * {@code Processor}, written by its holder and summed racily on read ({@code SchedulerCounters}); the one count a
 * non-holder may write, a timer armed by a carrier that lost the processor without knowing yet, may lose an increment
 * and is documented as such. {@code ShuttleSchedulerMXBean} and the JFR events of category "Shuttle" only read. The
 * monitor records {@code CarrierBlocked} and {@code LongTask}, carriers record {@code TimerLate} only for a batch
 * already late, and JFR's periodic thread records {@code SchedulerStatistics}; a disabled event costs a carrier
 * nothing. docs/operations.md is the operator's guide.
 *
 * <p>Scheduling delay (Go's {@code /sched/latencies}): {@code CarrierPool.execute} lets the submitting carrier's
 * {@link dev.shuttle.scheduler.HandOffStamps} decide by a countdown it owns, and queues a stamp (the task, its kind of
 * hand-off and the time) in place of one task in eight; the carrier that dequeues a stamp unwraps it, hands it back
 * to its owner with a release store the owner's acquire load must see before reusing it, and records the wait in its
 * processor's {@link dev.shuttle.scheduler.DelayHistogram}, written only by the holder with opaque stores and merged on
 * read, retired processors included ({@link dev.shuttle.scheduler.SchedulingDelays}). An unsampled task travels as
 * itself, so its hand-off and start touch nothing shared. A stamp still in use costs a sample, never a wrong wait or
 * a task. The agent's measuring mode records the same for the JDK's own pool through hooks added to
 * {@code VirtualThread} ({@link dev.shuttle.scheduler.DelayHooksTransformer},
 * {@link dev.shuttle.scheduler.JdkSchedulingDelays}, one histogram per JDK carrier thread), with its stamps in a table
 * keyed by the thread ({@link dev.shuttle.scheduler.StampTable}) since the JDK's queued task must stay its own. Both
 * are read through {@link dev.shuttle.scheduler.SchedulingDelayMXBean}; {@code SchedulingDelays},
 * {@code HandOffStamps}, {@code StampTable} and {@code DelayHistogram} call nothing above them.
 */
package dev.shuttle.scheduler;
