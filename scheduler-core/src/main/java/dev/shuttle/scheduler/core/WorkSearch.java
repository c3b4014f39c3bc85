package dev.shuttle.scheduler.core;

/**
 * Search and steal: where a carrier out of local work looks for a task, the global queue and the busy processors'
 * queues (the stealing half of Go's {@code findRunnable}, with {@code runqsteal}). Stateless: what a search remembers
 * (its back-off, the victims' ticks, the random seed) belongs to the searching carrier's {@link Processor}.
 */
final class WorkSearch {
    private WorkSearch() {
    }

    /** Takes one task from the global queue and moves a fair share of the rest into the local queue. */
    static Runnable takeGlobal(PoolState state, Processor proc) {
        return state.global.pollAndShare(state.processors.length, RunQueue.CAPACITY / 2, proc.runQueue.offerer);
    }

    /**
     * Bounded search: rounds over the global queue and every busy processor, with a spin between two rounds as far as
     * the {@link SearchBackoff} allows, and at least one whatever it allows while another processor is busy (below):
     * only a search that paused can tell a stuck processor's runNext from a busy one's, and a carrier woken for a
     * thread that went into the runNext of a processor whose task keeps running (a thread started or woken by a task
     * that spins or computes) finds nothing else to take. With an exhausted budget that thread waited for the monitor
     * to mark its processor stuck; Go's {@code runqsteal} likewise takes a running P's {@code runnext} after a short
     * pause whatever the spinning state. Counts the searches that paused by their outcome ({@code spinsFound},
     * {@code spinsWasted}).
     *
     * <p>No pause at all while no other processor is busy: only a virtual thread running on a carrier hands work to
     * another carrier's search, so with every other processor idle the work a pause could catch would come from a
     * platform thread (the JDK's poller, a server's dispatcher, a timer's watcher), which wakes a carrier anyway and
     * on a small machine needs the core the pause would hold; and there is no runNext to watch. A server at low load
     * is that case on nearly every request: its carriers park after each one with the others idle.
     *
     * <p>Times an unsuccessful search made with the full budget, from its first pause ({@code proc.fullSearchNanos}):
     * the carrier compares its next wake with that to tell the back-off whether spinning would have caught the work.
     * Only such searches are timed, and with the clock reading the first pause takes anyway, so a search that finds
     * work at once (the common case under load) reads no clock.
     */
    static Runnable search(PoolState state, Processor proc) {
        SearchBackoff backoff = proc.backoff;
        int rounds = Math.max(1, backoff.startSearch());
        boolean timed = backoff.fullBudget();
        long firstPause = 0L;
        for (int round = 0; round <= rounds; round++) {
            Runnable task = state.global.isEmpty() ? null : takeGlobal(state, proc);
            boolean stolen = false;
            if (task == null) {
                task = stealPass(state, proc, round == 0);
                stolen = task != null;
            }
            if (task != null) {
                backoff.found(round, stolen);
                if (round > 0) {
                    proc.spinsFound++;
                }
                return task;
            }
            if (round == 0 && state.busy() <= 1) {
                return null;                          // no other processor busy: nothing to spin for
            }
            if (round < rounds) {
                long pausedAt = backoff.pause(round);
                if (round == 0 && timed) {
                    firstPause = pausedAt;
                }
            }
        }
        if (firstPause != 0L) {
            proc.fullSearchNanos = System.nanoTime() - firstPause;
        }
        backoff.wasted();
        proc.spinsWasted++;
        return null;
    }

    /**
     * One pass over the busy processors from a random start, skipping idle ones (seed 001): an idle processor's
     * queue is empty, since a carrier only parks with an empty queue and only tasks running on a processor push to
     * it. A victim's runNext is taken too when it is stuck ({@link Processor#stoodStill}): the {@link Monitor} saw its
     * tick stand still at the tick it has now, or, after the first round's pause, its tick has not moved since the
     * first round. A waker that was about to park has parked by then and its carrier runs the woken thread itself; one
     * that keeps running, in a long task or spinning for a reply from the thread it woke ({@code Carrier.test},
     * QUEUED_WORK), would otherwise hold it back.
     */
    private static Runnable stealPass(PoolState state, Processor proc, boolean firstRound) {
        IdleSet idle = state.idle;
        Processor[] all = state.processors;
        int words = IdleSet.wordCount(all.length);
        int[] ticksAtStart = ticksAtSearchStart(proc, all.length);
        int s = proc.seed;
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        proc.seed = s;
        int startWord = Math.floorMod(s, words);
        int startBit = (s >>> 8) & 63;
        int self = proc.index;
        for (int k = 0; k < words; k++) {
            int w = (startWord + k) % words;
            long busy = idle.busyWord(w, all.length) & ~(w == self >>> 6 ? 1L << self : 0L);
            long rotated = Long.rotateRight(busy, startBit);
            while (rotated != 0) {
                int bit = (Long.numberOfTrailingZeros(rotated) + startBit) & 63;
                rotated &= rotated - 1;
                Processor victim = all[(w << 6) + bit];
                int victimTick = victim.tick();
                if (firstRound) {
                    ticksAtStart[victim.index] = victimTick;
                }
                Runnable task = victim.runQueue.stealInto(proc.runQueue);
                if (task == null && (victim.isStuckAt(victimTick)
                        || !firstRound && victim.stoodStill(victimTick, ticksAtStart))) {
                    task = victim.runQueue.stealRunNext();
                }
                if (task != null) {
                    proc.steals++;
                    return task;
                }
            }
        }
        return null;
    }

    /**
     * The holder's record of victims' ticks, grown here by the holder after a resize grew the pool, so no other thread
     * writes it. A search that spans the growth compares against a fresh record in its last round: it may take a
     * busy victim's runNext early, which is safe, only not what the heuristic aims at.
     */
    private static int[] ticksAtSearchStart(Processor proc, int victims) {
        int[] ticks = proc.ticksAtSearchStart;
        if (ticks.length < victims) {
            ticks = new int[victims];
            proc.ticksAtSearchStart = ticks;
        }
        return ticks;
    }
}
