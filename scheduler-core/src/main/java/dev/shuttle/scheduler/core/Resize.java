package dev.shuttle.scheduler.core;

import dev.shuttle.timers.Timer;
import dev.shuttle.timers.TimerHeap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Go's {@code procresize}: changes the number of processors while virtual threads run. Growing binds new processors
 * (or ones an earlier shrink retired) to carriers from {@link HandOff} and publishes them; shrinking retires
 * the highest-numbered processors, takes each from its holder, and moves what it held (run queue, runNext, timers) to
 * the global queue and the remaining processors' heaps. package-info, "Resizing", has the invariants and races.
 *
 * <p>Resizes are serialised by one lock: not a hot path, and two interleaved resizes would have to agree on who
 * retires what. Nothing else takes the lock; carriers and submitters never wait for a resize.
 */
final class Resize {
    /**
     * How long a shrink waits between looks at a processor still held in its loop: the holder either starts a task
     * (then the resize retires it by CAS) or parks (then it gives the processor up itself) within one search.
     */
    private static final long POLL_NANOS = 50_000;

    private final PoolState state;
    private final HandOff handOff;
    private final Idle idle;
    private final ReentrantLock lock = new ReentrantLock();

    Resize(PoolState state, HandOff handOff, Idle idle) {
        this.state = state;
        this.handOff = handOff;
        this.idle = idle;
    }

    /**
     * Sets the number of processors to {@code size} and returns the previous number. Returns once every retired
     * processor has left its holder's loop and its work has moved; a carrier that held one may still finish the
     * virtual thread it runs.
     *
     * @throws IllegalArgumentException naming {@code size} if it is not from 1 to 32767; nothing changes
     * @throws IllegalStateException if the scheduler is closing
     */
    int setParallelism(int size) {
        if (size < 1 || size > PoolState.MAX_PARALLELISM) {
            throw new IllegalArgumentException("parallelism must be between 1 and " + PoolState.MAX_PARALLELISM
                    + ", was " + size);
        }
        lock.lock();
        try {
            if (state.isStopping()) {
                throw new IllegalStateException("the scheduler is closed; its parallelism stays "
                        + state.processors.length);
            }
            Processor[] old = state.processors;
            if (size > old.length) {
                grow(old, size);
            } else if (size < old.length) {
                shrink(old, size);
            }
            return old.length;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Each new processor is bound to its carrier (holder and state word) before the array is published, and the
     * carrier starts only after: a carrier's first idle bit then lies below the bound that any waker which can see
     * it reads, and a waker that read the old array read it before the carrier's re-check of the queues
     * ({@code GrowVersusWakeStress}).
     */
    private void grow(Processor[] old, int size) {
        Processor[] created = state.everCreated();
        Processor[] all = created.length >= size ? created : Arrays.copyOf(created, size);
        Processor[] next = Arrays.copyOf(old, size);
        CarrierThread[] carriers = new CarrierThread[size - old.length];
        handOff.raiseCap(size);
        for (int i = old.length; i < size; i++) {
            Processor proc = all[i] != null ? all[i] : new Processor(state.global, state.spin, i, size);
            proc.retired = false;
            all[i] = proc;
            next[i] = proc;
            carriers[i - old.length] = handOff.bindCarrier(proc);
        }
        state.publish(all, next);
        for (int i = old.length; i < size; i++) {
            handOff.launch(carriers[i - old.length], next[i]);
        }
    }

    /**
     * Raises the flags before the smaller array is published and before any processor is taken, so that whoever
     * meets a retiring processor afterwards (a stale push, a timer arm, its holder on the way to park) sees the flag
     * and moves the work on.
     */
    private void shrink(Processor[] old, int size) {
        Processor[] retiring = Arrays.copyOfRange(old, size, old.length);
        for (Processor proc : retiring) {
            proc.retired = true;
        }
        state.publish(state.everCreated(), Arrays.copyOf(old, size));
        for (Processor proc : retiring) {
            takeFromHolder(proc);
        }
        for (Processor proc : retiring) {
            drain(proc);
        }
    }

    /**
     * Retires {@code proc} from its holder: by CAS while the holder runs a task or sits in a blocking call (it learns
     * at its next CAS, as after a hand-off, and waits as a spare once its virtual thread unmounts); in phase LOOP, only
     * the holder writes the state, so the holder is woken and gives it up itself ({@link #givenUp}).
     */
    private void takeFromHolder(Processor proc) {
        for (;;) {
            long word = proc.state();
            if (word == Processor.RETIRED_WORD || state.isStopping()) {
                return;
            }
            if (proc.retireFrom(word)) {
                if (Processor.phaseOf(word) == Processor.BLOCKING) {
                    state.blocking.decrementAndGet();
                }
                return;
            }
            // Unparked again each round: a hand-off may have moved the processor to a carrier we have not woken.
            idle.unpark(proc);
            LockSupport.parkNanos(this, POLL_NANOS);
        }
    }

    /**
     * The holder of retired {@code proc} gave it up in its loop. {@code searching}: it was counted in {@code
     * state.searching} (searching, or woken by a waker that counted it); it leaves the count as a searcher that found
     * work does, waking another if it was the last. {@code coveredTimers}: it was the timer watcher or the backup.
     */
    void givenUp(Processor proc, boolean searching, boolean coveredTimers) {
        proc.retireByHolder();
        if (searching && state.searching.decrementAndGet() == 0) {
            idle.wakep();
        }
        if (coveredTimers) {
            idle.handOffWatch(proc);
        }
        drain(proc);
    }

    /**
     * Moves a retired processor's runNext and queued tasks to the global queue and its timers to the remaining
     * processors, and wakes a carrier for them. Safe from any thread and more than once at a time: the queue is
     * consumed under its consumer flag, runNext taken by CAS, the heap emptied under its lock; each task and timer
     * moves once.
     */
    void drain(Processor proc) {
        RunQueue queue = proc.runQueue;
        boolean moved = false;
        Runnable task = queue.stealRunNext();
        if (task != null) {
            state.global.offer(task);
            moved = true;
        }
        while ((task = queue.poll()) != null) {
            state.global.offer(task);
            moved = true;
        }
        rehome(proc);
        if (moved) {
            idle.wakep();
        }
    }

    /**
     * Moves every timer armed in retired {@code from}'s heap to the remaining processors' heaps, and makes sure a
     * carrier is awake for the earliest. Any thread, any number at once: the heap is emptied under its lock, and a
     * timer fired or cancelled meanwhile is not armed again ({@link Timer}'s state decides), so none fires twice or
     * is dropped. A target that a later resize retires meanwhile is drained in turn, as after any arm.
     */
    private void rehome(Processor from) {
        TimerHeap heap = from.timers;
        if (heap.isEmpty()) {
            return;
        }
        List<Timer> moving = new ArrayList<>();
        while (!heap.tryLock()) {
            Thread.onSpinWait();
        }
        try {
            heap.drainInbox();
            for (Timer t; (t = heap.peek()) != null; ) {
                heap.remove(t);
                moving.add(t);
            }
        } finally {
            heap.unlock();
        }
        Processor[] all = state.processors;
        long earliest = TimerHeap.NONE;
        for (int i = 0; i < moving.size(); i++) {
            Timer t = moving.get(i);
            Processor to = all[i % all.length];
            to.timers.arm(t);
            if (to.retired) {
                drain(to);
            }
            if (TimerHeap.isEarlier(t.deadline(), earliest)) {
                earliest = t.deadline();
            }
        }
        if (earliest != TimerHeap.NONE) {
            idle.awakeBy(earliest, false, TimerSleepers.NO_ONE);
        }
    }
}
