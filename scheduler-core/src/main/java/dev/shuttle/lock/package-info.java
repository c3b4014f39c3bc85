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
 * <h2>Two fields</h2>
 *
 * <p>Go keeps everything in one word but releases with a byte-wide exchange on the lock byte
 * ({@code atomic.Xchg8}), which leaves the waiters' bits alone. Java cannot exchange part of a
 * long, so {@link dev.shuttle.lock.SpinBitSynchronizer} keeps the lock byte as a field of its own:
 *
 * <pre>
 * state (int):    the lock bits, owned by the subclass; 0 is free
 *
 * waiters (long):
 *  63                               32 31          3    2          1              0
 * +-----------------------------------+-------------+----------+--------------+----------+
 * | id of the newest sleeper (0: none) |   unused    | RESERVED | STACK_LOCKED | SPINNING |
 * +-----------------------------------+-------------+----------+--------------+----------+
 * </pre>
 *
 * <ul>
 * <li><b>lock bits</b> belong to the subclass ({@link dev.shuttle.lock.SpinBitLock}: 0 free, 1 held).
 *     A subclass says, as a pure function of them, whether it can be acquired; a release subtracts.
 *     They change only by an acquiring CAS and by the holder's release, which is a volatile store:
 *     while they are taken nobody else writes them.
 * <li><b>SPINNING</b> (Go's mutexSpinning) is a try-lock that entitles one waiter to spin on the
 *     lock bits. A waiter that finds it set goes to sleep at once.
 * <li><b>STACK_LOCKED</b> (Go's mutexStackLocked) entitles its holder to pop or unlink sleepers.
 *     Pushing needs no stack lock.
 * <li><b>RESERVED</b> says that a starving waiter holds the handoff reservation (see below). Go's
 *     runtime mutex has no such flag; it is the time bound that Go's sync.Mutex gets from its
 *     starvation mode.
 * <li>The upper half names the top of the <b>sleeper stack</b>. A long cannot hold a reference, so
 *     sleepers are {@link dev.shuttle.lock.WaiterNode}s with small integer ids, resolved through
 *     {@link dev.shuttle.lock.WaiterTable} and linked by {@code WaiterNode.next}. Nodes are lent
 *     for one wait and returned, so ids are recycled and a contended wait allocates nothing in the
 *     steady state. Go recovers an M pointer from the high bits instead.
 * </ul>
 *
 * <p>Ownership: owner thread and hold count live in plain fields of the subclass written only by
 * the holder, and are published to the next holder by the release's volatile store (or the grant
 * of a reservation) and the acquiring CAS; a reentrant acquire writes no shared field.
 * {@code WaiterNode.next} of a node on the stack is written by its pusher before the pushing CAS
 * and afterwards only under STACK_LOCKED. The handoff slot ({@code handoff}) is taken by CAS by the
 * reserving thread, moved to GRANTED only by a holder, and cleared only by the reserver. The
 * fields are not padded: locks are numerous and small, as AQS's are; callers that put a hot lock
 * beside hot data should pad around it (the benchmarks do, as Go's do).
 *
 * <h2>Transitions</h2>
 *
 * <dl>
 * <dt>Fast acquire</dt>
 * <dd>A CAS of the lock bits from 0, blind (no load first): barges past sleepers and the spinner,
 *     like Go's Xchg8 fast path; that barging is where the throughput comes from. The waiters word
 *     is not read, so a fast acquire and a fast release touch nothing but the lock bits and one
 *     load of the waiters word.</dd>
 * <dt>Take the spin role</dt>
 * <dd>A waiter that sees SPINNING clear CASes it set and spins: {@code 4 x 30} {@code
 *     Thread.onSpinWait} rounds (Go's procyield), then, on a platform thread only, one
 *     {@code Thread.yield} (Go's osyield). A virtual thread skips the yield and parks, which unmounts
 *     it: it never holds its carrier longer than those 120 pauses.</dd>
 * <dt>Acquire from the slow path</dt>
 * <dd>A CAS of the lock bits; a spinner then drops SPINNING with one atomic add. It holds the lock
 *     by then, so its own release decides on wakes.</dd>
 * <dt>Sleep (push, then look)</dt>
 * <dd>One CAS puts our node's id on top, with {@code next} pointing at the old top, and clears
 *     SPINNING if it was ours. Then we read the lock bits: if they are free, a release may have
 *     missed us, so we make its wake decision ourselves (below), which pops us or a newer sleeper
 *     as woken. Then park until the node's status is WOKEN.</dd>
 * <dt>Release</dt>
 * <dd>If RESERVED is set, pass the lock to the reserver (see Handoff) and stop. Else a volatile
 *     store subtracts from the lock bits, and one load of the waiters word decides: if RESERVED is
 *     now set, take the lock back by CAS (unless someone already has) and pass it over; else, if
 *     sleepers exist, run the wake decision (Go's
 *     unlock2Wake): if SPINNING is set and this is not an anti-starvation turn, do nothing (<b>no
 *     wake-up while a spinner exists</b>; this test is inlined into unlock, the rest is not);
 *     otherwise take STACK_LOCKED by CAS (give up if it is taken: its holder decides instead) and,
 *     in one CAS that also clears STACK_LOCKED, pop the top sleeper and, if SPINNING was clear,
 *     set SPINNING on its behalf. Then mark the node WOKEN and unpark it. The woken thread starts
 *     as the spinner, so the releases that follow before it runs do not wake a herd.</dd>
 * <dt>Anti-starvation wake</dt>
 * <dd>At most once a millisecond a release walks to the bottom of the stack, unlinks the oldest
 *     sleeper under STACK_LOCKED and wakes it even if a spinner exists. Go does this on 1
 *     contended unlock in 16 at random; with critical sections of a few nanoseconds that is a
 *     futex wake every ~100 ns. Releases that see a spinner read the clock only every N-th time,
 *     N adapted (16 to 4096, doubling or halving) so that the clock is read about every 100 us:
 *     a woken thread holds SPINNING for its whole wake-up latency, so such releases are the common
 *     case. A thread woken from the bottom may spin without the spin bit (Go's atTail), so two
 *     threads can be awake and polling then, but never two holders of SPINNING.</dd>
 * <dt>Handoff reservation</dt>
 * <dd>A thread woken after waiting more than 4 ms in an uninterruptible, untimed acquire takes the
 *     {@code handoff} slot by CAS (null to itself; if another thread holds it, it carries on as a
 *     woken waiter), sets RESERVED with one atomic or, and reads the lock bits: free, it takes them
 *     by CAS; taken, it parks. A release that sees RESERVED before its store CASes the slot to
 *     GRANTED and unparks the reserver without freeing the lock bits, so no arrival, spinner or
 *     tryLock can barge in between: the reserver now holds the lock. A release that sees RESERVED
 *     only after its store takes the lock back by CAS and grants the same way (or, if the
 *     reservation has ended meanwhile, releases again). Once it holds the lock the
 *     reserver clears RESERVED and then the slot (in that order, so the next reserver's flag is
 *     never cleared by the previous one). This bounds waiting by time: the LIFO stack and barging
 *     alone do not.</dd>
 * <dt>Withdraw (timeout or interrupt while asleep)</dt>
 * <dd>Take STACK_LOCKED (spinning briefly: it is held only for short walks), unlink our node (CAS
 *     of the head if we are on top, else a relink under the lock), release STACK_LOCKED. If our
 *     node is gone, a waker already popped it: wait for WOKEN and carry on as woken. Either way,
 *     run the wake decision afterwards, because releases that found STACK_LOCKED taken, or that
 *     counted on us, skipped theirs. Counting sleepers for monitoring takes STACK_LOCKED too and
 *     so makes the wake decision afterwards. A spinner that gives up clears SPINNING and does the
 *     same.</dd>
 * <dt>Condition await and signal</dt>
 * <dd>{@link dev.shuttle.lock.SpinBitCondition} keeps a FIFO queue guarded by the lock. Await
 *     enqueues a node (status CONDITION), saves and clears the hold count, releases. Signal CASes
 *     the node's status CONDITION to SLEEPING and pushes it onto the sleeper stack while the
 *     signaller still holds the lock, so the waiter is woken once, by a release, instead of being
 *     unparked only to find the lock held. A timeout or interrupt CASes CONDITION to CANCELLED;
 *     whichever CAS wins decides. A cancelled waiter reacquires the lock and then unlinks its node.</dd>
 * </dl>
 *
 * <h2>How each race is closed</h2>
 *
 * <p>The stress tests named here are in {@code scheduler-stress}; each reports its forbidden
 * outcome when the step it names is removed.
 *
 * <ul>
 * <li><b>Push versus release (no lost wake-up).</b> With one word, the push CAS failed whenever a
 *     release had changed the word, so one CAS closed this race. With two fields it is a Dekker
 *     pair: the waiter writes the waiters word (its push, a locked CAS) and then reads the lock
 *     bits; the releaser writes the lock bits (a volatile store, whose fence orders it before the
 *     next load) and then reads the waiters word. Under sequential consistency of volatile
 *     accesses at least one of them sees the other's write: the releaser sees the sleeper and
 *     wakes it, or the waiter sees the free bits and makes the wake decision itself. Both may: two
 *     wake decisions pop at most one thread that SPINNING does not hold back, because the first
 *     sets SPINNING for the thread it wakes. ({@code PushVersusReleaseStress}; end to end,
 *     {@code UnlockVersusWaiterTest}.)
 * <li><b>Reservation versus release.</b> The same pair: the reserver sets RESERVED (an atomic or)
 *     and then reads the lock bits; the releaser stores the lock bits and then reads RESERVED.
 *     Either the reserver sees the bits free and takes them, or the releaser sees RESERVED, takes
 *     the lock back (if nobody else did; whoever did will grant at its release) and grants. A
 *     release that already saw RESERVED before its store grants without freeing. The grant is a
 *     CAS on the slot, so at most one release grants.
 *     ({@code ReserveVersusReleaseStress}.)
 * <li><b>A spinner leaving versus the release that counted on it.</b> A release that sees SPINNING
 *     skips its wake-up. The spinner leaves by acquiring (its release will decide), by pushing (and
 *     then the push-versus-release pair applies, since the push clears SPINNING), or by giving up,
 *     and then it drops SPINNING and makes the wake decision itself; both are on the waiters word,
 *     so no Dekker pair is needed there. ({@code SpinnerLeavesVersusReleaseStress}.)
 * <li><b>Two spinners.</b> SPINNING is only set by a CAS from clear, by a waiter for itself or by
 *     a waker for the thread it pops, and only cleared by its holder.
 *     ({@code SpinnerInvariantTest}; with eight threads, {@code SpinRoleTest}.)
 * <li><b>Withdrawal versus a waker.</b> Both need STACK_LOCKED to take a node off the stack, so
 *     exactly one of them does; a waiter whose node a waker took waits for WOKEN and proceeds as
 *     woken, because the waker may have handed it SPINNING.
 * <li><b>Signal versus a cancelled await.</b> The CAS on the node's status from CONDITION decides.
 *     ({@code ConditionSignalVersusAwaitTest}.)
 * </ul>
 *
 * <h2>Memory ordering</h2>
 *
 * <p>The lock bits are read with volatile loads and changed by CAS or volatile store: each
 * acquisition synchronizes with the release before it, which publishes the critical section and
 * the plain owner fields. A grant publishes them through the slot's CAS and the reserver's
 * volatile read of GRANTED. A node's {@code thread} and {@code next} are written before the CAS
 * that publishes it. The waker reads {@code thread} and sets {@code spinGranted}, then stores WOKEN
 * with release semantics and unparks; the owner reads WOKEN (volatile) before touching the node,
 * and may immediately return it to the table, so the waker never touches the node after that store.
 */
package dev.shuttle.lock;
