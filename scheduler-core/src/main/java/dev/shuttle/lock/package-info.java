/**
 * The spin-bit lock: Go's runtime mutex (runtime/lock_spinbit.go, Go 1.24) as a Java
 * synchronizer, for platform threads and for virtual threads on any scheduler.
 *
 * <h2>Why</h2>
 *
 * <p>{@link java.util.concurrent.locks.ReentrantLock} queues every waiter FIFO and parks it; an
 * unlock with waiters unparks one. With a fast critical section and many contenders that means a
 * wake-up per handoff, and with virtual threads every park and unpark is a trip through the
 * scheduler. Go's spin-bit design lets at most one waiter spin while the others sleep deeply,
 * skips the wake-up while that spinner exists, keeps sleepers on a LIFO stack (the most recently
 * asleep is the cheapest to wake), and periodically wakes the oldest so nobody starves.
 *
 * <h2>The state word</h2>
 *
 * <p>{@link dev.shuttle.lock.SpinBitSynchronizer} keeps everything shared in one
 * {@code volatile long}, changed only by CAS or atomic add through a VarHandle:
 *
 * <pre>
 *  63                              32 31        19  18        17            16       15       0
 * +----------------------------------+-----------+---------+--------------+--------+----------+
 * | id of the newest sleeper (0: none)|  unused   | HANDOFF | STACK_LOCKED | SPINNING| lock bits|
 * +----------------------------------+-----------+---------+--------------+--------+----------+
 * </pre>
 *
 * <ul>
 * <li><b>lock bits</b> belong to the subclass ({@link dev.shuttle.lock.SpinBitLock}: 0 free, 1 held).
 *     A subclass says, as a pure function of them, whether it can be acquired; a release subtracts.
 *     They may also hold claims in flight (see Fast acquire), each adding what an acquisition from
 *     free would set, so a subclass must read any value above that as "not acquirable". Claims are
 *     made by threads between two adjacent atomic adds; 16 bits allow 65535 of them at once.
 * <li><b>SPINNING</b> (Go's mutexSpinning) is a try-lock that entitles one waiter to spin on the
 *     word. A waiter that finds it set goes to sleep at once.
 * <li><b>STACK_LOCKED</b> (Go's mutexStackLocked) entitles its holder to pop or unlink sleepers.
 *     Pushing needs no stack lock.
 * <li><b>HANDOFF</b> reserves the next acquisition for one starving waiter (see below). Go's
 *     runtime mutex has no such bit; it is the time bound that Go's sync.Mutex gets from its
 *     starvation mode.
 * <li>The upper half names the top of the <b>sleeper stack</b>. A long cannot hold a reference, so
 *     sleepers are {@link dev.shuttle.lock.WaiterNode}s with small integer ids, resolved through
 *     {@link dev.shuttle.lock.WaiterTable} and linked by {@code WaiterNode.next}. Nodes are lent
 *     for one wait and returned, so ids are recycled and a contended wait allocates nothing in the
 *     steady state. Go recovers an M pointer from the high bits instead.
 * </ul>
 *
 * <p>Ownership: the lock bits change only by the acquiring CAS or claim, by the withdrawal of a
 * failed claim, and by the holder's release. Owner thread and hold count live in plain fields of
 * the subclass written only by the holder, and
 * are published to the next holder by the release (a volatile read-modify-write) and the acquiring
 * CAS; a reentrant acquire never touches the shared word. {@code WaiterNode.next} of a node on
 * the stack is written by its pusher before the pushing CAS and afterwards only under
 * STACK_LOCKED. The word is not padded: locks are numerous and small, as AQS's are; callers that
 * put a hot lock beside hot data should pad around it (the benchmarks do, as Go's do).
 *
 * <h2>Transitions</h2>
 *
 * <dl>
 * <dt>Fast acquire</dt>
 * <dd>Take the lock bits from free to held, if HANDOFF is clear. Barges past sleepers and the
 *     spinner, like Go's Xchg8 fast path; that barging is where the throughput comes from. Java
 *     cannot swap the low byte of a long, and a CAS needs the whole word. So: if the last release
 *     left the word 0 we CAS blindly from 0 (one locked instruction, no load). Otherwise (sleepers,
 *     a spinner or HANDOFF in the word, the usual case under contention) a CAS would need a load
 *     of the word first, which cost 1.0 ns of a 6.1 ns lock/unlock here; instead we <b>claim</b>
 *     with an atomic add of the held bits (one locked instruction, no load, 5.0 ns). The claim
 *     acquired if the word before it had free lock bits and no HANDOFF. Otherwise it is withdrawn
 *     at once by an atomic subtract. Until then the lock looks held, as if the claimer had held
 *     it for that instant, which keeps every transition below as it was: a push during a claim is
 *     legal, and if the withdrawal is what leaves the lock bits free (the holder released in
 *     between), the withdrawal runs the release's wake decision, so no wake-up is lost. If the
 *     bits stay taken, the holder or a later claimer decides when it leaves. A claimer preempted
 *     between its two adds keeps the lock looking held, like a holder preempted in a critical
 *     section of two instructions. The release writes the clean/dirty hint only when it changes:
 *     a plain store still in the store buffer delays the next lock's CAS.</dd>
 * <dt>Take the spin role</dt>
 * <dd>A waiter that sees SPINNING clear CASes it set and spins: {@code 4 x 30} {@code
 *     Thread.onSpinWait} rounds (Go's procyield), then, on a platform thread only, one
 *     {@code Thread.yield} (Go's osyield). A virtual thread skips the yield and parks, which unmounts
 *     it: it never holds its carrier longer than those 120 pauses.</dd>
 * <dt>Acquire from the slow path</dt>
 * <dd>One CAS sets the lock bits and, if we were the spinner, clears SPINNING.</dd>
 * <dt>Sleep (push)</dt>
 * <dd>One CAS, legal only while the lock bits say held (or HANDOFF is set): puts our node's id on
 *     top, with {@code next} pointing at the old top, and clears SPINNING if it was ours. Then park
 *     until the node's status is WOKEN. Because the push CAS fails if a release changed the word,
 *     a release either happened before (we retry and see the lock free) or after (it sees the
 *     sleeper): <b>no lost wake-up</b>.</dd>
 * <dt>Release</dt>
 * <dd>An atomic add subtracts from the lock bits and returns the old word. If HANDOFF was set, unpark
 *     the reserving thread. Else, if sleepers existed, run the wake decision (Go's unlock2Wake): if
 *     SPINNING is set in that old word and this is not an anti-starvation turn, do nothing (<b>no
 *     wake-up while a spinner exists</b>; this test is inlined into unlock, the rest is not);
 *     otherwise take STACK_LOCKED by CAS (give up if it is taken: its holder decides instead)
 *     and, in one CAS that also clears STACK_LOCKED, pop the top sleeper and,
 *     if SPINNING was clear, set SPINNING on its behalf. Then mark the node WOKEN and unpark it.
 *     The woken thread starts as the spinner, so the releases that follow before it runs do not
 *     wake a herd.</dd>
 * <dt>Anti-starvation wake</dt>
 * <dd>At most once a millisecond a release walks to the bottom of the stack, unlinks the oldest
 *     sleeper under STACK_LOCKED and wakes it even if a spinner exists. Go does this on 1
 *     contended unlock in 16 at random; with critical sections of a few nanoseconds that was a
 *     futex wake every ~100 ns and measurably halved throughput here. Releases that see a spinner
 *     read the clock only every N-th time, N adapted (16 to 4096, doubling or halving) so that
 *     the clock is read about every 100 us, or every 4096 such releases where they come faster:
 *     a woken thread holds SPINNING for its whole wake-up
 *     latency, so such releases are the common case and reading the clock on 1 in 16 of them cost
 *     more than a nanosecond per lock/unlock. A thread woken from the bottom may spin without the
 *     spin bit (Go's atTail), so two threads can be awake and polling then, but never two
 *     holders of SPINNING.</dd>
 * <dt>Handoff reservation</dt>
 * <dd>A thread woken after waiting more than 4 ms in an uninterruptible, untimed acquire claims
 *     the {@code handoffTo} slot by CAS, then sets HANDOFF by CAS while the lock is held. From then
 *     on no arrival, spinner or tryLock can acquire; the holder's release sees HANDOFF and unparks
 *     the reserving thread, which acquires and clears HANDOFF in one CAS, then frees the slot.
 *     This bounds waiting by time: the LIFO stack and barging alone do not.</dd>
 * <dt>Withdraw (timeout or interrupt while asleep)</dt>
 * <dd>Take STACK_LOCKED (spinning briefly: it is held only for short walks), unlink our node (CAS
 *     of the head if we are on top, else a relink under the lock), release STACK_LOCKED. If our
 *     node is gone, a waker already popped it: wait for WOKEN and carry on as woken. Either way,
 *     run the wake decision afterwards, because releases that found STACK_LOCKED taken, or that
 *     counted on us, skipped theirs. A spinner that gives up clears SPINNING and does the same.</dd>
 * <dt>Condition await and signal</dt>
 * <dd>{@link dev.shuttle.lock.SpinBitCondition} keeps a FIFO queue guarded by the lock. Await
 *     enqueues a node (status CONDITION), saves and clears the hold count, releases. Signal CASes
 *     the node's status CONDITION to SLEEPING and pushes it onto the sleeper stack while the
 *     signaller still holds the lock, so the waiter is woken once, by a release, instead of being
 *     unparked only to find the lock held. A timeout or interrupt CASes CONDITION to CANCELLED;
 *     whichever CAS wins decides. A cancelled waiter reacquires the lock and then unlinks its node.</dd>
 * </dl>
 *
 * <h2>Memory ordering</h2>
 *
 * <p>The state word is read with volatile loads and changed by CAS or getAndAdd (volatile
 * semantics): each acquisition synchronizes with the release before it, which publishes the
 * critical section and the plain owner fields. A node's {@code thread} and {@code next} are written
 * before the CAS that publishes it. The waker reads {@code thread} and sets {@code spinGranted},
 * then stores WOKEN with release semantics and unparks; the owner reads WOKEN (volatile) before
 * touching the node, and may immediately return it to the table, so the waker never touches the
 * node after that store.
 */
package dev.shuttle.lock;
