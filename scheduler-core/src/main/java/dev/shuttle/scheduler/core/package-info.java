/**
 * Shuttle's carrier scheduler for virtual threads: Go's scheduler ({@code runtime/proc.go}) on JDK 25's pluggable
 * virtual-thread scheduler. This page is the design's front page: the mapping, the rules, the recipe every
 * park/publish handshake follows, and for each race the class that closes it and the jcstress test that checks it
 * (scheduler-stress). docs/design.md is the long form; the section named after each heading here has the reasons.
 *
 * <h2>Go's G, M and P</h2>
 * <ul>
 *   <li>G: a virtual thread. The JDK hands the scheduler one task, the thread's continuation, each time the thread
 *       becomes runnable (start, unpark, unblock, {@code Thread.yield}, a park that found its permit).</li>
 *   <li>P: a {@link dev.shuttle.scheduler.core.Processor}, {@code parallelism} of them: a run queue
 *       ({@link dev.shuttle.scheduler.core.RunQueue}), a one-task {@code runNext} slot, a timer heap, a search back-off and
 *       a state word (phase and holder).</li>
 *   <li>M: a carrier thread ({@link dev.shuttle.scheduler.core.Carrier}), which must hold a processor to run virtual
 *       threads. A processor keeps its carrier for life unless a hand-off moves it, and an idle processor's carrier
 *       sleeps with it, so below "carrier" and "processor" are one thing except in a hand-off.</li>
 *   <li>{@code schedt}: {@link dev.shuttle.scheduler.core.PoolState}: the processors, the idle bitmap
 *       ({@link dev.shuttle.scheduler.core.IdleSet}), the {@code searching} count (Go's {@code nmspinning}), the global
 *       queue ({@link dev.shuttle.scheduler.core.GlobalQueue}), the stopping flag. {@code sysmon}:
 *       {@link dev.shuttle.scheduler.core.Monitor}. {@code procresize}: {@link dev.shuttle.scheduler.core.Resize}.</li>
 * </ul>
 *
 * <h2>Who calls whom</h2>
 * Every call goes down this list, never up: {@link dev.shuttle.scheduler.core.CarrierPool} (the executor the JDK calls,
 * and the composition root; {@link dev.shuttle.scheduler.ShuttleScheduler} is its public face);
 * {@link dev.shuttle.scheduler.core.Carrier} (the loop: fire timers, pick, search, park, give up a retired processor, wait
 * as a spare); {@link dev.shuttle.scheduler.core.Monitor}; {@link dev.shuttle.scheduler.core.TimerService} (arm and fire);
 * {@link dev.shuttle.scheduler.core.Resize}; {@link dev.shuttle.scheduler.core.Idle} (idleness: who sleeps, toward which
 * deadline, whom each publication wakes; both halves of every park/publish handshake, {@code wakep}, the one unpark of
 * a carrier) and {@link dev.shuttle.scheduler.core.WorkSearch} (search and steal); {@link dev.shuttle.scheduler.core.HandOff}
 * (blocking: the blocking hooks, the hand-off of a stuck carrier's processor, the spare carrier threads) and
 * {@link dev.shuttle.scheduler.core.TimerSleepers} (the watcher and backup slots, the one test of whether a sleeper covers
 * a deadline, the timed sleeps); then state that calls nothing above it ({@code PoolState}, {@code TimerDeadlines},
 * {@link dev.shuttle.scheduler.core.Netpoll} (the network poll: where an idle carrier sleeps, and how it is woken),
 * {@code Processor}, {@link dev.shuttle.scheduler.core.CarrierThread}, {@code IdleSet}, {@code RunQueue},
 * {@link dev.shuttle.scheduler.core.SearchBackoff}, {@link dev.shuttle.scheduler.core.SpinAdvice}). Why the cut falls there:
 * waking is where queueing, arming, draining and the monitor's rescue all end, so {@code Idle} sits below them all,
 * and the carrier's park goes through it too, so both halves of each handshake are in one class; blocking is one
 * protocol on the processor's state word, so {@code HandOff} holds all of it, below {@code Idle}, which calls it when
 * no carrier is idle; the steps after a stale push or a lost processor need a resize's drain, so they are the pushing
 * carrier's ({@code afterStalePush}, {@code lostProcessor}); the monitor is woken by a flag and an unpark in
 * {@code Idle}, so nothing calls it. A processor and its
 * carrier thread name each other as data only. One callback crosses upward, {@code HandOff.NewCarrier}: spares
 * make threads, but only the composition root knows what a carrier calls.
 *
 * <h2>Ownership</h2>
 * <ul>
 *   <li>A processor's scheduling state belongs to whoever holds it in phase LOOP; the holder changes only by CAS on
 *       the state word from phase TASK or BLOCKING, so one carrier at a time runs a processor's loop
 *       ({@code Processor}). A carrier learns it lost its processor at its next CAS; until then its virtual thread may
 *       still push to that processor's {@code runNext} and queue, which any thread may do.</li>
 *   <li>A run queue is consumed by its holder and by thieves under a consumer flag ({@code RunQueue}); the global
 *       queue by any carrier or resize under its own ({@code GlobalQueue}). An idle processor's queue is empty: a
 *       carrier parks only after finding it so, and a late producer wakes the idle processor it pushed to. That is
 *       what lets searchers skip idle processors without losing work.</li>
 *   <li>{@code runNext} is swapped by its owner and taken by thieves with a CAS. A thief takes it only from a
 *       processor that stood still: its tick has not moved since the thief's record
 *       ({@link dev.shuttle.scheduler.core.Processor#stoodStill}, the one rule the searcher after its first pause, the
 *       parking re-check ({@code Idle.workInSight}) and the monitor apply), or the monitor marked it stuck. Otherwise
 *       the owner runs it next.</li>
 *   <li>An idle bit is set by its carrier and cleared by whoever wakes it; the one thread whose atomic clear succeeded
 *       owns that wake-up.</li>
 * </ul>
 * Where a task goes ({@link dev.shuttle.scheduler.core.CarrierPool#execute}): from a carrier, to its {@code runNext} (a
 * thread re-submitting itself goes to the tail); a yield to the global queue; threads woken by timers a carrier fires,
 * to the tail of its queue in deadline order; anything from outside, and a full queue's overflow, to the global queue.
 * Every 61st tick a carrier serves the global queue first, and it takes {@code runNext} at most
 * {@code Carrier.RUN_NEXT_LIMIT} times in a row (docs/design.md, "Where a task goes").
 *
 * <h2>Searching</h2>
 * A carrier out of work searches ({@link dev.shuttle.scheduler.core.WorkSearch}) only while {@code 2 * searching} is below
 * the busy carriers: a bounded number of rounds over the global queue and the busy processors' queues, separated by
 * {@code onSpinWait} pauses, never a yield. The number of rounds is the {@code SearchBackoff}'s, a pure strategy the
 * carrier tells what happened (work stolen, nothing found, a wake sooner than a full search, its core switched out,
 * {@link dev.shuttle.scheduler.core.InvoluntarySwitches}). A search beside a busy processor pauses once, then may take a
 * stood-still {@code runNext}; with every other processor idle it does not pause, since only a running virtual thread
 * hands work over. Then the carrier parks (docs/design.md, "Searching and the wake rule", "Spinning and parking").
 *
 * <h2>Waking</h2>
 * The wake rule (Go's {@code wakep}): after queueing any work, even a {@code runNext} hand-off, the submitter calls
 * {@code Idle.wakep}, the one entry point for "work was published, make sure someone will look": if a carrier is idle
 * and none searches, it raises {@code searching} from 0 to 1 by CAS on the woken carrier's behalf, clears one idle
 * bit, and unparks that carrier ({@code Idle.unpark}, the one place that unparks a carrier holding a processor). The
 * current task may keep its carrier busy for long, and the woken searcher takes a stood-still {@code runNext}. The last
 * searcher to find work wakes another only for work or a timer still pending (Go's {@code resetspinning} wakes one
 * whatever is left; {@code LastSearcherWakeTest}). A woken carrier not yet on a core is counted in {@code
 * PoolState.wakingSearchers} until it gets up.
 *
 * <h2>Parking: the handshake recipe</h2>
 * No timeout backs up a wake-up: every race between a sleeper and a publisher in this package is closed by a
 * handshake written this one way. The sleeper (1) publishes that it sleeps, then (2) looks for the publisher's work,
 * and sleeps only if it saw none. The publisher (a) publishes its work, then (b) looks for a sleeper, and unparks it
 * if it sees one. All four accesses are volatile or atomic (or, where one is a plain release, a heap's unlock,
 * followed by a full fence), so they fall into one total order: if (a) comes before (2), the sleeper sees the work;
 * otherwise (b) comes after (1), and the publisher sees the sleeper. Remove either publication or either look and a
 * wake-up is lost; each pair's jcstress test forbids exactly that outcome. The other races (an idle bit, a spare's
 * mailbox, a processor's state word, {@code runNext}) are one CAS that exactly one side wins.
 * Both halves of every pair are in {@link dev.shuttle.scheduler.core.Idle}, whose class comment writes the recipe once.
 * The carrier's park ({@code Idle.goIdle}, called from {@code Carrier.prepareToPark}): (1) set its idle bit and lower
 * {@code searching} if it searched; (2) re-check the global queue, the busy processors' queues and their stood-still
 * {@code runNext}s; if anything is there, clear its own bit and search again. The submitter: (a) push; (b) read
 * {@code searching} and the idle bits. If {@code searching} is still non-zero another searcher will find the task or
 * run the same recipe after the push. The other pairs, in "How each race is closed": the last searcher and a
 * submitter, a waker's promise, the timer watcher and an arming thread, the watch hand-on, the backup and the
 * wake-up skips, a locked heap's release, the monitor's sleep, a stale push. docs/design.md, "The park/publish
 * handshake".
 *
 * <p>The backstop is a count, not a timeout: while any processor is busy, the {@code Monitor} counts as a rescue any
 * work every path above missed at every look for 50 ms (a processor idle, nobody searching, work queued or a timer
 * overdue that no idle carrier sleeps toward) and wakes a carrier for it; tests read the count
 * ({@code Monitor.rescues}), so a lost wake-up fails a test instead of costing a delay. An idle scheduler's carriers
 * and monitor all sleep without a timeout.
 *
 * <h2>Timers</h2>
 * Each processor owns a {@link dev.shuttle.timers.TimerHeap}. A virtual thread's timed park reaches
 * {@code CarrierPool.schedule}, and {@code TimerService} puts the timer in the heap of the carrier it runs on; no JDK
 * timer thread is ever started. A carrier fires its due timers every tick; a carrier out of work fires anyone's. A
 * heap's lock is only tried: its holder answers for the heap's due timers while it holds it. One idle carrier, the
 * watcher, parks until the earliest deadline of all heaps, a little early by how late its own timed parks return
 * ({@code TimerSleepers.nextParkLead}), and spins the rest. A second idle carrier, the backup, sleeps until that
 * deadline plus a grace. Both are slots in {@code TimerSleepers}, and one test, {@code TimerSleepers.covers}, says
 * whether a sleeper other than the caller will be up by a deadline: an arm wakes nobody if the watcher sleeps toward
 * an earlier one; the monitor does not rescue a timer a sleeper covers; and while a sleeper will be up within the
 * grace and carriers come back from timers quickly ({@code Idle.coveredWithoutWake}), three places skip a wake-up: a
 * watcher getting up for due timers keeps the watch, a carrier arming on its own heap or releasing a heap wakes
 * nobody, a small batch of fired threads queues without a helper. Each skipping carrier runs that work itself before its next task; if it runs long, the sleeper counted on takes over (docs/design.md,
 * "Timers").
 *
 * <h2>Blocking</h2>
 * A carrier that stops coming back loses its processor to another carrier thread (a spare, or a new one up to
 * {@code maxCarriers}; {@code HandOff}): in a call the JDK marks with {@code jdk.internal.misc.Blocker}, which
 * the agent turns into Go's {@code entersyscall} ({@code jdk.CarrierHooksTransformer},
 * {@code HandOff.enterBlocking}: phase BLOCKING, handed off at once if work waits, later by the monitor or a waker that
 * finds no idle processor), and on return takes it back by CAS if nobody took it ({@code HandOff.exitBlocking});
 * blocked in the kernel unmarked, when the monitor sees the carrier off the CPU; after {@code timeSlice}, if set. The
 * carrier that lost its processor finishes its virtual thread's run, then waits as a spare until {@code keepAlive}
 * ends it (docs/design.md, "Blocking and the monitor").
 *
 * <h2>The network poll</h2>
 * With the agent the carriers drive the JDK's pollers ({@link dev.shuttle.scheduler.core.Netpoll}, Go's {@code netpoll}):
 * one idle carrier at a time sleeps in {@code epoll_wait} on a set holding every JDK poller's epoll descriptor and an
 * eventfd, wherever it would have parked ({@code Idle.sleep}, {@code TimerSleepers}' timed sleeps); readiness gets it
 * up as a due timer does, and between tasks it has the ready pollers poll, so the threads they unpark queue on its own
 * processor. Carriers poll without blocking before they steal while nobody sleeps in the poll; the monitor polls after
 * 10 ms without one. {@code Idle.unpark} wakes the poll sleeper through the eventfd ({@code Netpoll.wake}). The JDK's
 * poller threads never start ({@link dev.shuttle.scheduler.jdk.PollersTransformer},
 * {@link dev.shuttle.scheduler.core.NetpollInstall}); in every other pool {@code Netpoll} parks and unparks as before
 * (docs/design.md, "The network poller").
 *
 * <h2>The monitor</h2>
 * {@code Monitor} looks at every busy processor now and then, backing off as Go's sysmon does since nothing waits for
 * it in the common case. A processor that stood still with work waiting is marked stuck and an idle carrier woken to
 * steal; a stuck one whose carrier is off the CPU, or in phase BLOCKING, or past its time slice, goes to another
 * carrier thread. While every processor is idle and no timer is pending the monitor parks without a timeout; the first
 * processor to leave the idle set wakes it ({@code Idle.processorBusy}; the monitor's half is
 * {@code Idle.monitorMaySleep}).
 *
 * <h2>Resizing</h2>
 * {@code setParallelism} changes the number of processors while threads run ({@code Resize}, Go's
 * {@code procresize}). {@code PoolState.processors} is replaced, never written in place, and readers index only the
 * array they read; every scan of the idle set is bounded by that array's length. A retiring processor's
 * {@code retired} flag is raised before the smaller array is published and before its state leaves its holder; when
 * the resize returns, no carrier runs its loop and its {@code runNext}, queue and heap were emptied after that, and
 * anything put there later is moved on by whoever put it. The resizer takes a retiring processor's state by CAS from
 * TASK or BLOCKING; in LOOP the holder gives it up itself, unparked until it does. A grow binds each new processor to
 * its carrier before it publishes the array, and hands it over or starts the carrier only after, so a new idle bit is
 * within the bound of any waker that sees it. Its races (shrink vs submit, vs steal, vs a timer arming on a retired
 * processor, vs hand-off of a blocked carrier; grow vs a waker) are in "How each race is closed".
 *
 * <h2>How each race is closed</h2>
 * One race a line: the classes of its two sides, how it is closed, its jcstress test.
 * <ul>
 *   <li>{@code AdmitVersusCloseStress}: a start versus {@code close()}: a thread is admitted to the live set or refused
 *       ({@link dev.shuttle.scheduler.core.ThreadLifecycle}).</li>
 *   <li>{@code BackupSlotStress}: a wake-up skip versus the backup or watcher giving its role up: the skipper queues
 *       or arms, then reads the watch and backup; the leaver looks at heaps, queues and watch
 *       ({@code Idle}, {@code TimerSleepers.covers}).</li>
 *   <li>{@code DrainVersusStealStress}: resize versus steal: a drain's poll waits out a thief's consumer flag, so each
 *       task of a retired processor moves once ({@code Resize.drain}, {@code WorkSearch}).</li>
 *   <li>{@code FoundVersusSubmitStress}: the last searcher finding work versus a submitter: it lowers
 *       {@code searching} before it looks, the submitter pushes before it reads it
 *       ({@code Idle.searcherFound}, {@code Idle.wakep}).</li>
 *   <li>{@code GlobalQueueConsumersStress}: two consumers of the global queue, one at a time under its flag
 *       ({@code GlobalQueue}).</li>
 *   <li>{@code GrowVersusWakeStress}: grow's publication versus {@code wakep}: the grow publishes the larger array
 *       before it hands a new processor to its carrier, so the carrier's first idle bit lies within the bound of
 *       every waker that sees it ({@code Resize.grow}, {@code Idle.wakep}).</li>
 *   <li>{@code HandOffStampsStress}: a sampling stamp reused while another carrier takes it: handed back by a release
 *       store the owner's acquire load must see ({@link dev.shuttle.scheduler.core.HandOffStamps}).</li>
 *   <li>{@code HandOffVersusReturnStress}: a hand-off of a BLOCKING processor versus its carrier coming back: both CAS
 *       the state word ({@code HandOff}).</li>
 *   <li>{@code IdleBitHandOffStress}: a waker's clear of an idle bit versus the carrier clearing its own: one wins, the
 *       loser backs off; a spare unpark permit only ends one later park early ({@code IdleSet}, {@code Idle}).</li>
 *   <li>{@code IdleHandshakeStress}: {@code Idle}'s recipe end to end, for work and for a timer from outside: a carrier
 *       going idle publishes its bit (and its watch) then looks; the publisher queues (or arms) then looks for a
 *       sleeper ({@code Idle.goIdle}, {@code Idle.watchDeadline}, {@code Idle.wakep}, {@code Idle.awakeBy}).</li>
 *   <li>{@code LockedHeapReleaseStress}: a sleeper passing over a locked heap versus its holder releasing it: the
 *       sleeper publishes its bit then reads the lock, the holder fences between unlock and idle-set read
 *       ({@code TimerService.release}, {@code Idle}).</li>
 *   <li>{@code MonitorSleepVersusBusyStress}: the monitor publishes {@code asleep}, then looks at the idle set; a
 *       carrier clears its bit, then reads {@code asleep} ({@code Idle.monitorMaySleep}, {@code
 *       Idle.processorBusy}).</li>
 *   <li>{@code ParkVersusSubmitStress}: the carrier's park versus a submitter, for a parking carrier and the last
 *       searcher; {@code ParkVersusSubmitStress.RunNextFromSearching}: a {@code runNext} hand-off, which the re-check
 *       sees while the owner's task runs on ({@code Idle.goIdle}, {@code Idle.wakep}).</li>
 *   <li>{@code PhantomSearcherStress}: a waker's promise ({@code searching} raised, its idle bit gone): the waker
 *       lowers the count, then looks at every queue and heap as a parking carrier does ({@code Idle.wakep}).</li>
 *   <li>{@code ProducerVersusThiefStress}: a late producer versus a thief's batch into its own queue: the thief sizes
 *       the batch by the room it read, so offers that no longer fit overflow to the global queue rather than fail
 *       ({@code RunQueue}).</li>
 *   <li>{@code ResizeVersusHandOffStress}: resize versus hand-off of a blocked carrier, and versus the carrier coming
 *       back: CASes from TASK or BLOCKING, one wins; the resizer lowers {@code blocking} ({@code Resize}).</li>
 *   <li>{@code RetireVersusPushStress}: resize versus submit from a carrier whose processor retired: the pusher pushes,
 *       reads the state, then the flag; the resizer raises the flag, CASes, drains
 *       ({@code Carrier.afterStalePush}).</li>
 *   <li>{@code RetiringIdleBitStress}: a waker holding the old array claims a retiring processor's idle bit: the
 *       retiring carrier, counted as a searcher, passes the wake-up on as it gives the processor up
 *       ({@code Resize.givenUp}).</li>
 *   <li>{@code RunNextSwapStress}: the owner's swap versus a thief's CAS on {@code runNext}: one taker
 *       ({@code RunQueue}).</li>
 *   <li>{@code RunQueueStealStress}: the queue and {@code runNext} together versus a thief ({@code RunQueue}).</li>
 *   <li>{@code ShrinkVersusTimerArmStress}: resize versus a timer arming on a retired processor: the arm publishes then
 *       reads the flag, the resizer raises it then empties the heap ({@code TimerService.arm}, {@code Resize}).</li>
 *   <li>{@code SpareClaimVersusRetireStress}: a hand-off claiming a spare versus the spare ending: both CAS its mailbox
 *       from waiting ({@code CarrierThread}, {@code HandOff}).</li>
 *   <li>{@code StalePushVersusParkStress}: a push to a processor its carrier lost versus that processor going idle
 *       ({@code Carrier.pushLocal}).</li>
 *   <li>{@code NetpollWakeStress}: a wake versus a carrier entering the network poll: the waker raises the carrier's
 *       flag then looks for it in the poll (eventfd if there, unpark if not); the sleeper claims the poll then reads
 *       its flag ({@code Netpoll.wake}, {@code Netpoll.enterPoll}).</li>
 *   <li>{@code NetpollClaimStress}: two threads polling one ready JDK poller (a carrier whose sleep found it, the
 *       monitor): the claim per poller, a CAS around its poll, lets one in at a time, and a later poll is not shut out
 *       ({@code Netpoll.pollReady}, {@code Netpoll.monitorPoll}).</li>
 *   <li>{@code NetpollReadinessVersusParkStress}: readiness versus a carrier that looked, found nothing and sleeps in
 *       the poll: the level-triggered set ends the sleep at once, and a poller reported but not polled stays ready in
 *       it ({@code Netpoll.pollSet}, {@code Netpoll.sleep}).</li>
 *   <li>{@code TimerArmVersusWatcherStress}: the watcher publishes its deadline then reads the heaps; an arming thread
 *       publishes its timer then reads the watcher's deadline ({@code Idle.watchDeadline}, {@code Idle.awakeBy}).</li>
 *   <li>{@code TwoThievesStress}: two thieves on one queue: only the consumer flag's owner takes
 *       ({@code RunQueue}).</li>
 *   <li>{@code WatchHandOffStress}: a watcher giving the watch up versus a carrier going to sleep: it gives up then
 *       unparks one to take it; the sleeper publishes its bit then reads who watches ({@code Idle.handOffWatch}).</li>
 * </ul>
 *
 * <h2>Threads, failures, the JDK and observability</h2>
 * The JDK's task is {@code VirtualThread::runContinuation}; {@code jdk.JdkVirtualThreads} reads the
 * thread it captures. {@code close()} refuses new threads, joins the live ones, then stops the carriers. A carrier
 * never dies of a failure: it logs to the {@code dev.shuttle.scheduler} {@link java.lang.System.Logger} and serves on.
 * With the agent a carrier answers {@code ForkJoinWorkerThread.hasKnownQueuedWork}, so that {@code SynchronousQueue}
 * and its kind park at once when their partner waits in {@code runNext} (yes while its queue holds a task, or its
 * {@code runNext} does and no carrier is up and searching), scored by {@code SpinAdvice} (docs/design.md, "The JDK's
 * contracts"). Counters are plain fields of each {@code Processor}, written by its holder and summed racily
 * ({@link dev.shuttle.scheduler.observe.SchedulerCounters}); the MXBean and the JFR events only read. Scheduling delay is
 * sampled one hand-off in eight by {@code HandOffStamps} into per-processor
 * {@link dev.shuttle.scheduler.core.DelayHistogram}s ({@link dev.shuttle.scheduler.core.SchedulingDelays}); the agent's
 * measuring mode records the JDK pool's through {@code jdk.DelayHooksTransformer},
 * {@link dev.shuttle.scheduler.observe.JdkSchedulingDelays} and {@link dev.shuttle.scheduler.observe.StampTable}. docs/operations.md
 * is the operator's guide.
 *
 * <h2>Packages</h2>
 * This package is the scheduler. It is not exported: the API is {@code dev.shuttle.scheduler}, which holds only
 * {@link ShuttleScheduler} with its builder and the two MXBean interfaces, and calls in here. The module's other
 * packages, none exported, each have one job, and calls between them go one way:
 * <ul>
 *   <li>{@code dev.shuttle.scheduler.jdk}: reads the JDK's virtual-thread internals ({@code JdkVirtualThreads}) and
 *       rewrites JDK classes for the agent; it names nothing of Shuttle's other packages, so this package calls down
 *       into it.</li>
 *   <li>{@code dev.shuttle.scheduler.observe}: the MXBeans' implementations ({@link SchedulerMXBeanImpl},
 *       {@link SchedulingDelayView}), {@link SchedulerCounters}, the periodic statistics event, and the measuring of
 *       the JDK's own scheduler ({@link JdkSchedulingDelays}, {@link StampTable}). It reads this package's state;
 *       nothing here names it. The JFR events the hot path and the monitor emit ({@link CarrierBlockedEvent},
 *       {@link LongTaskEvent}, {@link TimerLateEvent}, {@link SchedulingDelayEvent}, with {@link DurationSetting}) and
 *       the delay measurement the carriers own ({@link SchedulingDelays}, {@link HandOffStamps},
 *       {@link DelayHistogram}) stay here with their owners: moving them would make the two packages call each
 *       other.</li>
 *   <li>{@code dev.shuttle.scheduler.install}: the agent's installation of a scheduler as the JVM's default
 *       ({@link SystemScheduler}); it records that default in {@link SchedulerAccess}, which the API reads, and nothing
 *       names it ({@code dev.shuttle.scheduler.agent}, the Java 11 {@code Premain-Class}, reaches it by
 *       reflection).</li>
 * </ul>
 * Classes and members here are public where another of these packages uses them; that makes them no API, since the
 * package is not exported (on the class path, where module declarations are ignored, they are visible but still not
 * API).
 */
package dev.shuttle.scheduler.core;

import dev.shuttle.scheduler.ShuttleScheduler;
import dev.shuttle.scheduler.install.SystemScheduler;
import dev.shuttle.scheduler.observe.JdkSchedulingDelays;
import dev.shuttle.scheduler.observe.SchedulerCounters;
import dev.shuttle.scheduler.observe.SchedulerMXBeanImpl;
import dev.shuttle.scheduler.observe.SchedulingDelayView;
import dev.shuttle.scheduler.observe.StampTable;
