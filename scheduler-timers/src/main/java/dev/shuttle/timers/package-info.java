/**
 * Per-carrier timers: Shuttle's counterpart of the timers in Go's {@code runtime/time.go}.
 *
 * <p><b>Not API.</b> This package is scheduler-core's implementation (module {@code dev.shuttle.timers}); its public
 * classes are public only so that {@code dev.shuttle.scheduler} can reach them, and may change in any release.
 * Shuttle's API is {@code dev.shuttle.scheduler} and {@code dev.shuttle.lock}.
 *
 * <h2>Ownership</h2>
 * Every carrier thread owns one {@link dev.shuttle.timers.TimerHeap}. The heap's arrays (the
 * timers and, beside them, their deadlines), its size, its ascending queue (the timers armed in
 * deadline order, kept in a FIFO ring outside the 4-ary heap) and each timer's {@code heapIndex}
 * are mutated only by the holder of the heap's lock. That is
 * normally the owning carrier, which takes the lock uncontended on each scheduling round;
 * occasionally it is an idle carrier that steals and fires the expired timers of a busy one,
 * as Go's idle Ps run the expired timers of other Ps. The lock is a flag taken by
 * {@code tryLock} only: nobody waits for it. A thread that cannot take it either arms through
 * the inbox or, when stealing, moves on to another carrier.
 *
 * <h2>The inbox</h2>
 * Threads that do not hold the lock arm a timer by pushing it on the heap's inbox, an
 * intrusive Treiber stack linked through the timer itself, so arming allocates nothing beyond
 * the timer (JCTools' {@code MpscUnboundedArrayQueue} would allocate a chunk every few
 * thousand arms and keep the largest burst's chunks reachable; order does not matter here
 * because the heap sorts). The lock holder takes the whole stack with one swap and sifts
 * each timer in. Next to the stack lives the inbox's published earliest deadline, which
 * arming lowers with a CAS-min loop.
 *
 * <h2>Timer states</h2>
 * <pre>
 *   PENDING --bind--> ARMING --bind--> ARMED --fire-----> FIRED
 *      ^                 |               |  \--cancel---> CANCELLED
 *      |                 +--fire/cancel--+-----------------^   (also from PENDING)
 *      +--------remove (lock holder)-----+
 * </pre>
 * FIRED and CANCELLED are terminal and reached only by CAS from a non-terminal state, so a
 * timer fires at most once and exactly one of a racing fire and cancel wins. ARMING is held
 * only while the arming thread records which heap the timer joins; it stops two concurrent
 * arms from both enqueueing the timer. A cancel that wins from ARMED leaves a lazily deleted
 * entry (a zombie) behind and counts it on that heap; the lock holder drops zombies as they
 * reach the top and rebuilds the heap in O(n) once they exceed a quarter of it, on its next
 * add, drain or firing. The owner must drain when {@code isZombieHeavy()} says so even if no
 * timer is due: cancelled timeouts otherwise keep what their actions reference (a woken
 * thread) reachable until their deadlines.
 *
 * <h2>Races and how each is closed</h2>
 * <ul>
 * <li><b>Cancel versus fire.</b> Both CAS the state away from its non-terminal value; the
 *     loser reads the winner's terminal state and backs off. {@code cancel} returns true only
 *     when it won, so it tells the caller whether the action will run.</li>
 * <li><b>Steal versus fire.</b> Two carriers may both try to fire the same heap: the owner
 *     and a thief. The heap lock admits one; the other fails {@code tryLock} and does
 *     nothing. Even were the timer reachable twice, the state CAS lets only one
 *     {@code fire()} run the action.</li>
 * <li><b>Arm versus drain.</b> The drainer resets the inbox's earliest deadline to
 *     {@link dev.shuttle.timers.TimerHeap#NONE} <em>before</em> it swaps the stack out, and an
 *     arming thread pushes <em>before</em> it lowers that deadline. So a push the swap misses
 *     lowers the deadline after the reset and stays advertised, and a push the swap takes ends
 *     up in the heap, whose top the drainer republishes. No armed timer is ever both out of
 *     the heap and unadvertised once the drain returns.</li>
 * <li><b>Arm versus a carrier parking until {@code earliestDeadline()}.</b> An owner that
 *     read the earliest deadline and then parks until it would sleep through a timer armed
 *     meanwhile with an earlier deadline. This package cannot close that race: the scheduler
 *     must, by having the arming thread wake the owner when the new deadline is earlier than
 *     the one the owner sleeps toward (with the owner publishing that deadline, then
 *     re-checking {@code earliestDeadline()} before parking, Dekker-style). The published
 *     deadlines are volatile so such a handshake has a total order to rely on.</li>
 * <li><b>Stale deadlines.</b> A cancelled timer at the top of the heap, or a drained inbox
 *     whose bound was lowered after the swap, may leave a published deadline that is too
 *     early. That costs a spurious wake-up and never a missed one.</li>
 * </ul>
 *
 * <h2>Time</h2>
 * Deadlines are {@link System#nanoTime()} values, compared as {@code a - b < 0} so that the
 * order survives the counter wrapping; {@link java.lang.Long#MAX_VALUE} is reserved to mean
 * "no deadline" in published values.
 */
package dev.shuttle.timers;
