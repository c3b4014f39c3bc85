package dev.shuttle.scheduler.core;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The backup slot of {@link TimerSleepers} versus the threads that count on it, on the real {@link TimerService}
 * and {@link Idle} (carriers not started). Three places skip a wake-up because the backup (or
 * the watcher) will be up within the grace anyway: a carrier arming a timer on its own heap between tasks, a carrier
 * queueing a small batch of threads its timers woke, and a watcher leaving the idle set. Each publishes its timer or
 * its work, then reads the backup and the watch; a carrier giving either role up then looks at the heaps, the queues
 * and the watch before it sleeps again. Whatever the interleaving, either the look sees the work or the other side sees
 * nobody to count on and wakes a carrier. A fresh pool has no record of carriers staying away after firing, so the
 * skips are allowed ({@code Idle.coveredWithoutWake}) and each test reaches them.
 *
 * <p>jcstress runs no more actors than there are CPUs (2 here), so each side is one actor and the carriers are
 * played by the actors in the order their code runs them.
 *
 * <p>No mutant is recorded yet: clearing the backup's holder with a release store instead of a volatile one (so that
 * its look may pass the store) was not caught in {@code -m quick -sc false}, and the look itself is this test's own
 * copy of the carrier's path, not a step of the main code a patch could remove.
 */
public class BackupSlotStress {
    private static final long FAR = TimeUnit.SECONDS.toNanos(5);

    /**
     * Carrier 1 arms a timed park on its own heap between tasks (no watcher asleep), while carrier 0, the backup,
     * wakes and gives the role up. The backup was covering a timer that has since fired, so the heaps hold nothing
     * else: only the new timer can keep carrier 0 from sleeping without a timeout.
     *
     * <p>Results: r1 = carrier 0's look after giving up the backup would sleep toward a timer (1) or without a
     * timeout (0); r2 = the arm woke a carrier.
     */
    @JCStressTest
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the backup's look saw the new timer")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both: a spare wake-up")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the look came first; the arm saw no backup and woke carrier 0")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost: the arm counted on a backup that then slept untimed")
    @State
    public static class OwnArm {
        final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);
        final Timer timer = new Timer(() -> { }, System.nanoTime() + FAR);

        public OwnArm() {
            pool.state.idle.add(0);
            if (pool.idle.sleepers.claimBackup(0, timer.deadline(), System.nanoTime()) == TimerHeap.NONE) {
                throw new IllegalStateException("a fresh backup watch is held");
            }
        }

        @Actor
        public void carrierArmsOwnTimerBetweenTasks(II_Result r) {
            TimerHeap heap = pool.state.processors[1].timers;
            if (!heap.tryLock()) {
                throw new IllegalStateException("carrier 1's heap is locked");
            }
            heap.add(timer);
            heap.unlock();
            r.r2 = pool.idle.awakeBy(timer.deadline(), true, 1) ? 1 : 0;
        }

        @Actor
        public void backupGivesUpAndLooks(II_Result r) {
            r.r1 = backupGivesUpAndLooksForTimers(pool);
        }
    }

    /**
     * Carrier 1, between tasks, queues a second thread its timers woke (a batch of two), while carrier 0, the backup,
     * wakes and gives the role up. Either carrier 0's look at the busy carriers' queues sees the thread, or the push
     * sees no backup and wakes a carrier.
     *
     * <p>Results: r1 = carrier 0's look after giving up the backup saw queued work; r2 = the push woke a carrier.
     */
    @JCStressTest
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the backup's look saw the queued thread")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both: a spare wake-up")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the look came first; the push saw no backup and woke carrier 0")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost: the push counted on a backup that never looked again")
    @State
    public static class FiredBatch {
        final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);

        public FiredBatch() {
            pool.state.idle.add(0);
            long now = System.nanoTime();
            if (pool.idle.sleepers.claimBackup(0, now, now) == TimerHeap.NONE) {
                throw new IllegalStateException("a fresh backup watch is held");
            }
        }

        @Actor
        public void carrierQueuesFiredThreads(II_Result r) {
            Processor c = pool.state.processors[1];
            c.runQueue.offerOrOverflow(() -> { });
            c.runQueue.offerOrOverflow(() -> { });
            r.r2 = pool.idle.afterFiredPush(c, c.runQueue.size()) ? 1 : 0;
        }

        @Actor
        public void backupGivesUpAndLooks(II_Result r) {
            pool.idle.sleepers.releaseBackup(0, TimerSleepers.QUIET);
            r.r1 = pool.idle.workInSight(pool.state.processors[0]) ? 1 : 0;
        }
    }

    /**
     * {@link FiredBatch} with the watcher instead of the backup: carrier 0 sleeps toward a deadline within the grace,
     * so carrier 1 queues its second fired thread without waking anyone, while carrier 0 gives the watch up (an
     * unpark ended its sleep) and looks at the busy carriers' queues.
     *
     * <p>Results: r1 = carrier 0's look after giving up the watch saw queued work; r2 = the push woke a carrier.
     */
    @JCStressTest
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the watcher's look saw the queued thread")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both: a spare wake-up")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the look came first; the push saw no watcher and woke carrier 0")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost: the push counted on a watcher that never looked again")
    @State
    public static class FiredBatchWatched {
        final CarrierPool pool = new CarrierPool(2, SpinPolicy.DEFAULT);

        public FiredBatchWatched() {
            long soon = System.nanoTime() + TimerSleepers.MIN_GRACE_NANOS;
            pool.state.processors[1].timers.arm(new Timer(() -> { }, soon));
            pool.state.idle.add(0);
            if (pool.idle.watchDeadline(pool.state.processors[0]) != soon) {
                throw new IllegalStateException("set-up: carrier 0 must watch");
            }
        }

        @Actor
        public void carrierQueuesFiredThreads(II_Result r) {
            Processor c = pool.state.processors[1];
            c.runQueue.offerOrOverflow(() -> { });
            c.runQueue.offerOrOverflow(() -> { });
            r.r2 = pool.idle.afterFiredPush(c, c.runQueue.size()) ? 1 : 0;
        }

        @Actor
        public void watcherGivesUpAndLooks(II_Result r) {
            pool.idle.sleepers.stopWatching(0);
            r.r1 = pool.idle.workInSight(pool.state.processors[0]) ? 1 : 0;
        }
    }

    /**
     * Three carriers: carrier 1, the watcher, gets up for work as carrier 0, the backup, does the same; carrier 2 is
     * idle and sleeps without a timeout. A timer is pending, so one of the two leaving carriers must wake carrier 2
     * to take the watch. The dangers: each skips its hand-off counting on the other (each gives its role up before it
     * reads the other's), or the watcher counts on the backup and the backup's hand-off unparks the watcher, whose
     * idle bit it still saw (the watcher clears its bit before it reads the backup; the backup gives its role up
     * before it reads the idle bits).
     *
     * <p>Results: r1 = the carrier the watcher's hand-off unparked (-1: none, it counted on the backup), r2 = the
     * carrier the backup's hand-off unparked (-1: none, it counted on the watcher).
     */
    @JCStressTest
    @Outcome(id = "-1, 2", expect = ACCEPTABLE, desc = "the watcher counted on the backup; the backup woke carrier 2")
    @Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "both woke carrier 2")
    @Outcome(id = "2, 1", expect = ACCEPTABLE, desc = "the backup woke the leaving watcher; the watcher woke carrier 2")
    @Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "the watcher woke the leaving backup; the backup woke carrier 2")
    @Outcome(id = "2, -1", expect = ACCEPTABLE, desc = "the backup counted on the watcher; the watcher woke carrier 2")
    @Outcome(id = "-1, 1", expect = FORBIDDEN, desc = "lost: carrier 2 asleep untimed, the timer unwatched")
    @Outcome(id = "-1, -1", expect = FORBIDDEN, desc = "lost: each counted on the other, carrier 2 asleep untimed")
    @Outcome(expect = FORBIDDEN, desc = "a hand-off unparked a carrier that was not idle, or itself")
    @State
    public static class BothLeave {
        final CarrierPool pool = new CarrierPool(3, SpinPolicy.DEFAULT);

        public BothLeave() {
            long deadline = System.nanoTime() + FAR;
            pool.state.processors[1].timers.arm(new Timer(() -> { }, deadline));
            pool.state.idle.add(0);
            pool.state.idle.add(1);
            pool.state.idle.add(2);
            if (pool.idle.watchDeadline(pool.state.processors[1]) != deadline
                    || pool.idle.backupDeadline(pool.state.processors[0]) == TimerHeap.NONE) {
                throw new IllegalStateException("set-up: carrier 1 must watch and carrier 0 back it up");
            }
        }

        @Actor
        public void watcherGetsUp(II_Result r) {
            pool.idle.sleepers.stopWatching(1);
            pool.state.idle.tryRemove(1);
            r.r1 = pool.idle.handOffWatch(pool.state.processors[1]);
        }

        @Actor
        public void backupGetsUp(II_Result r) {
            pool.idle.sleepers.releaseBackup(0, TimerSleepers.QUIET);
            pool.state.idle.tryRemove(0);
            r.r2 = pool.idle.handOffWatch(pool.state.processors[0]);
        }
    }

    /**
     * What {@code Carrier.awaitWake} does after the backup's park returns: give the role up, then decide the next
     * sleep, which watches or backs up any pending timer. Returns 1 if that sleep would have a timeout for a timer.
     */
    static int backupGivesUpAndLooksForTimers(CarrierPool pool) {
        Processor c = pool.state.processors[0];
        Idle watch = pool.idle;
        watch.sleepers.releaseBackup(0, TimerSleepers.QUIET);
        if (watch.watchDeadline(c) != TimerHeap.NONE || watch.backupDeadline(c) != TimerHeap.NONE) {
            return 1;
        }
        return 0;
    }
}
