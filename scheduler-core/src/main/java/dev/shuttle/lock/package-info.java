/**
 * The spin-bit lock: Go's runtime mutex (runtime/lock_spinbit.go, Go 1.24) as a Java
 * synchronizer, for platform threads and for virtual threads on any scheduler.
 *
 * <h2>Why</h2>
 *
 * <p>{@link java.util.concurrent.locks.ReentrantLock} queues every waiter FIFO and parks it; an
 * unlock with waiters unparks one. With a fast critical section and many contenders that means a
 * wake-up per hand-off, and with virtual threads every park and unpark is a trip through the
 * scheduler. Go's spin-bit design lets at most one waiter spin while the others sleep, skips the
 * wake-up while that spinner exists, keeps sleepers on a LIFO stack (the most recently asleep is
 * the cheapest to wake), and periodically wakes the oldest so nobody starves.
 *
 * <h2>The fields</h2>
 *
 * <p>Go keeps the lock byte and the waiters' bits in one word and releases with a byte-wide
 * exchange that leaves the waiters' bits alone. Java cannot exchange part of a long, so
 * {@link dev.shuttle.lock.SpinBitSynchronizer} has four volatile fields, changed by CAS or volatile
 * store through VarHandles:
 *
 * <ul>
 * <li><b>state</b> ({@code int}): the lock bits, owned by the subclass ({@link
 *     dev.shuttle.lock.SpinBitLock}: 0 free, 1 held). Set by an acquiring CAS; cleared by the
 *     holder's volatile store.
 * <li><b>spinning</b> ({@code int}, Go's mutexSpinning): the spin role, 0 or 1. Set only by a CAS
 *     from 0, either by a waiter for itself or by a waker for the sleeper it pops; cleared only by
 *     the thread that holds it, with a volatile store. Holding it entitles a thread to spin on the
 *     lock bits, and also to pop the sleeper stack.
 * <li><b>head</b>: the newest {@link dev.shuttle.lock.WaiterNode} of the LIFO sleeper stack, a
 *     Treiber stack linked by {@code next}. Pushed by CAS by anyone; popped by CAS only by the
 *     holder of the spin role, so pops never race each other.
 * <li><b>handoff</b>: the reservation of a starving waiter: null, its thread, or GRANTED once a
 *     release has passed it the lock still held.
 * </ul>
 *
 * <p>A node is allocated per sleep, pushed at most once and never reused. So a CAS of the head
 * cannot succeed on a node that left and came back (no ABA), and a node's status, once it has left
 * SLEEPING, never returns to it. Every move off SLEEPING is a CAS of the status, and its winner
 * decides: to GRANTED by the popper that also took the spin role for the sleeper, to WOKEN by the
 * time-bound wake, to CANCELLED by the sleeper itself when it times out or is interrupted. The
 * status is what the woken thread reads, so whether it holds the spin role travels in the same
 * CAS that wakes it. A node that is no longer SLEEPING may stay on the stack, dead; poppers discard
 * it, and the time-bound wake cuts off the dead nodes at the bottom.
 *
 * <p>Owner thread and hold count live in plain fields of the subclass written only by the holder,
 * published to the next holder by the release's volatile store and the acquiring CAS; a reentrant
 * acquire writes no shared field. The fields are not padded: locks are numerous and small, as AQS's
 * are; callers that put a hot lock beside hot data should pad around it (the benchmarks do).
 *
 * <h2>Transitions</h2>
 *
 * <dl>
 * <dt>Acquire</dt>
 * <dd>A blind CAS of the lock bits from 0 (no load first), on the fast path and on every attempt of
 *     the slow path. Barges past sleepers, the spinner and a reservation, like Go's fast path.</dd>
 * <dt>Spin</dt>
 * <dd>A waiter that finds the role free takes it by CAS and spins: {@code 4 x 30}
 *     {@code Thread.onSpinWait} (Go's procyield), then, on a platform thread only, one
 *     {@code Thread.yield} (Go's osyield). A virtual thread skips the yield and parks, which
 *     unmounts it: it never holds its carrier longer than those 120 pauses. A waiter that finds the
 *     role taken sleeps at once. A spinner that acquires clears the role: its own release will
 *     make the wake decision.</dd>
 * <dt>Sleep</dt>
 * <dd>Clear the role if held, push a new node (CAS of the head), read the lock bits, and if they
 *     are free make the wake decision below (which may pop our own node); then park until the
 *     status leaves SLEEPING.</dd>
 * <dt>Release</dt>
 * <dd>If a reservation exists, pass the lock to the reserver still held (GRANTED, unpark) and stop.
 *     Else store the freed bits, then read the reservation (if one appeared, take the lock back by
 *     CAS and release again, which passes it), then the head and the role: if the stack is not
 *     empty and nobody spins, make the wake decision. So the usual contended release, which sees a
 *     spinner, writes nothing but the lock bits.</dd>
 * <dt>Wake decision (Go's unlock2Wake)</dt>
 * <dd>If the stack is not empty and the role is free, take the role by CAS on behalf of the sleeper
 *     we are about to wake, pop nodes until one's status CAS from SLEEPING to GRANTED succeeds, and
 *     unpark it: it wakes as the spinner, so the releases before it runs do not wake a herd. If no
 *     live node is left, give the role back, and if the lock bits are free and the stack not empty,
 *     decide again: a pusher may have skipped its own decision because we held the role.</dd>
 * <dt>Time-bound wake</dt>
 * <dd>At most once a millisecond, a release that sees sleepers also walks the stack and moves its
 *     deepest SLEEPING node to WOKEN (without the role), even if a spinner exists: Go's
 *     anti-starvation wake, which Go makes on 1 contended unlock in 16: with critical sections of
 *     nanoseconds that is a futex wake every few hundred nanoseconds (docs/design.md, "The spin-bit lock"). Releases
 *     that see a spinner read the clock only every N-th time, N adapted (16 to 4096) so that the
 *     clock is read about every 100 us.
 *     The nodes below the next live node up are all dead, so the walk cuts them off: the stack does
 *     not grow while contention keeps it from draining. The cut writes the {@code next} of a node the
 *     walk saw, never the head, so a node pushed during the walk stays on the stack above the cut
 *     ({@code TailWakeVersusPushStress}, with a sleeper above the oldest giving up meanwhile). A thread woken so may spin without the role
 *     (Go's atTail), so two threads can be polling then, but never two holders of the role.</dd>
 * <dt>Reservation</dt>
 * <dd>A thread woken after more than 4 ms in an uninterruptible, untimed acquire takes the
 *     reservation by CAS (if nobody holds it), gives up the role if it holds it (leave, below: nobody
 *     parks holding the role), then looks once (GRANTED, or the lock bits free and taken by CAS) and
 *     parks until a look succeeds; then it clears the reservation. Arrivals may still barge while
 *     the lock is free, but every release passes it to the reserver, so its wait is bounded by one
 *     more critical section. This is the time bound that Go's sync.Mutex gets from its starvation
 *     mode; the runtime mutex has none.</dd>
 * <dt>Leave (a spinner that gives up without acquiring)</dt>
 * <dd>On timeout, interrupt, reservation or an exception: clear the role, read the lock bits, and if
 *     they are free make the wake decision.</dd>
 * <dt>Give up while asleep (timeout or interrupt)</dt>
 * <dd>CAS our status from SLEEPING to CANCELLED. If a waker won instead, carry on as woken (and as
 *     the spinner if GRANTED). A cancelled node is not unlinked; the next popper discards it. No
 *     release ever counted on a sleeper, so giving up needs no wake decision.</dd>
 * <dt>Condition await and signal</dt>
 * <dd>{@link dev.shuttle.lock.SpinBitCondition} keeps a FIFO queue guarded by the lock. Await
 *     enqueues a new node (status CONDITION), saves and clears the hold count, releases. Signal CASes
 *     the status CONDITION to SLEEPING and pushes the node onto the sleeper stack while the signaller
 *     still holds the lock, so the waiter is woken once, by a release, instead of being unparked only
 *     to find the lock held. A timeout or interrupt CASes CONDITION to CANCELLED; whichever CAS wins
 *     decides. A cancelled waiter reacquires the lock and then unlinks its node.</dd>
 * </dl>
 *
 * <h2>No lost wake-up</h2>
 *
 * <p>The invariant: whenever the lock bits are free and a SLEEPING node is on the stack, some
 * thread is bound to make the wake decision or to acquire (after which its own release decides).
 * The fields are volatile and their accesses totally ordered (the Java memory model's
 * synchronization order), so each race below is a Dekker pair: both sides write their own field,
 * then read the other's, and at least one sees the other's write. Each pair has a jcstress test
 * in {@code scheduler-stress} (package {@code dev.shuttle.lock}) on the real classes, whose
 * FORBIDDEN outcome is the lost wake-up, and which reports it with the step removed.
 *
 * <ol>
 * <li><b>Push against release.</b> The waiter pushes, then reads the bits; the releaser stores the
 *     bits, then reads the head. If the releaser read the head before the push, the waiter's read
 *     comes after the store and sees the bits free (or a newer holder, whose release sees the node),
 *     and decides itself. ({@code PushVersusReleaseStress})
 * <li><b>Spinner leaving against release.</b> A releaser that read the role as held skipped its
 *     decision. The spinner clears the role after that read, then reads the bits, which it therefore
 *     sees free (or a newer holder), and decides. A spinner that acquires instead holds the lock, so
 *     its own release comes after every push the skipping release saw. ({@code
 *     SpinnerLeavesVersusReleaseStress})
 * <li><b>A waker's borrowed role against a pusher.</b> The wake decision takes the role before it
 *     knows whether a live node is left; a pusher that reads the bits free meanwhile sees the role
 *     held and skips its decision. So a waker that found nobody gives the role back and then reads
 *     the head and the bits, and decides again: the pusher's node was pushed before the pusher read
 *     the role, which was before the waker gave it back. ({@code WakerVersusPushStress})
 * <li><b>Giving up against being popped.</b> The status CAS has one winner. If the sleeper wins, the
 *     popper's CAS fails and it pops on, and if nobody is left it gives the role back (pair 3): the
 *     role never stays with a thread that has left, which is the defect that sank the previous
 *     two-field design (SPINNING set, held by nobody, every release skipping its wake-up). ({@code
 *     CancelVersusWakeStress})
 * <li><b>Reserver against release.</b> The reserver takes the reservation, then reads the bits; the
 *     releaser checks the reservation, stores the bits, and reads the reservation again. If the
 *     reserver's look came before the store, the second read sees the reservation, and the releaser
 *     takes the lock back (unless someone else took it, whose release passes it) and passes it.
 *     ({@code ReserveVersusReleaseStress})
 * </ol>
 *
 * <p>A condition signal pushes while holding the lock, so the signaller's own release is on the
 * releaser's side of pair 1. The end-to-end tests ({@code UnlockVersusWaiterTest},
 * {@code SpinnerInvariantTest}, {@code ConditionSignalVersusAwaitTest}, {@code LockVersusLockTest}
 * in {@code dev.shuttle.stress.lock}; the JUnit tests of this package) run the whole lock.
 *
 * <h2>Memory ordering</h2>
 *
 * <p>Each acquisition (a CAS) synchronizes with the release before it (a volatile store, or for a
 * pass the GRANTED CAS that the reserver reads), which publishes the critical section and the plain
 * owner fields. A node's {@code next} is written before the CAS that pushes it; the only later
 * write shortens it past dead nodes, so a racy reader sees either value and skips only dead nodes.
 * The pacing fields of the time-bound wake are plain and racy on purpose: a lost update only moves
 * a clock read.
 */
package dev.shuttle.lock;
