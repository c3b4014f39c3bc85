package dev.shuttle.timers;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A one-shot action due at a {@link System#nanoTime()} deadline, fired at most once by the
 * {@link TimerHeap} it is armed in, or cancelled by anyone first.
 *
 * <p>The state word decides every race: {@code PENDING} (not in any heap) or {@code ARMED}
 * (in exactly one heap, or in its inbox) end in exactly one of {@code FIRED} or
 * {@code CANCELLED}, by CAS, so whichever of {@link #fire()} and {@link #cancel(boolean)}
 * swaps first wins and the other sees a terminal state. {@code ARMING} is the brief claim an
 * arming thread holds while it writes {@link #heap}: it keeps two concurrent arms of the same
 * timer from both enqueueing it, and lets a cancel that wins during arming know the timer is
 * in no heap yet, so it counts no zombie. A removed timer goes back to {@code PENDING} and may
 * be armed again.
 *
 * <p>As a {@link java.util.concurrent.Future} the timer's outcome is the firing itself, not
 * the action's result: {@link #isDone()} becomes true, and {@link #get()} returns
 * {@code null}, as soon as the firing CAS is won, which is before the action has run; an
 * exception thrown by the action goes to whoever called {@link #fire()}, never to
 * {@code get()}. Nothing is allocated for waiting unless a thread actually waits.
 *
 * <p>Timers are not padded: there is one per sleep or timeout, and the only fields written
 * by several threads (state, latch) are written once or twice in a timer's life.
 *
 * <p><b>Not API.</b> Public only because scheduler-core arms and fires timers from another package; applications
 * must not use it. {@code ShuttleScheduler.schedule} returns a future that hides this class.
 */
public final class Timer implements ScheduledFuture<Void> {

    private static final int PENDING = 0;
    private static final int ARMING = 1;
    private static final int ARMED = 2;
    private static final int FIRED = 3;
    private static final int CANCELLED = 4;

    private static final VarHandle STATE;
    private static final VarHandle LATCH;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(Timer.class, "state", int.class);
            LATCH = lookup.findVarHandle(Timer.class, "latch", CountDownLatch.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Runnable action;
    private final long deadline;
    private volatile int state;
    /** Installed by the first waiter only; counted down by whoever completes the timer. */
    private volatile CountDownLatch latch;

    /**
     * The heap this timer was last armed in. Written before the release CAS to {@code ARMED}
     * and read only after observing {@code ARMED}, so it needs no ordering of its own; stale
     * (but harmless) once the timer is removed, fired or cancelled.
     */
    TimerHeap heap;
    /** Position in the owning heap's array, -1 when not in it. Touched only under the heap lock. */
    int heapIndex = -1;
    /** Link in the heap's intrusive inbox stack: arming allocates nothing beyond the timer. */
    Timer nextInInbox;

    /**
     * @param action   run once when the timer fires, on the thread that fires it
     * @param deadline in {@link System#nanoTime()} units
     * @throws NullPointerException if {@code action} is null
     */
    public Timer(Runnable action, long deadline) {
        this.action = Objects.requireNonNull(action, "action");
        this.deadline = deadline;
    }

    public long deadline() {
        return deadline;
    }

    public Runnable action() {
        return action;
    }

    /**
     * Fires the timer if nobody fired or cancelled it first: runs the action on this thread
     * and returns true; returns false without running anything if it lost.
     * The timer is already {@code FIRED} when the action runs, so an exception from the
     * action propagates to the caller without un-firing the timer.
     */
    public boolean fire() {
        if (!complete(FIRED)) {
            return false;
        }
        action.run();
        return true;
    }

    /**
     * Cancels the timer if it has not fired. Returns true only if this call prevented the
     * firing. {@code mayInterruptIfRunning} is ignored: once fired there is nothing to stop.
     */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return complete(CANCELLED);
    }

    /**
     * Moves a non-terminal state to {@code to}. The previous state tells the winner what it
     * took the timer away from: from {@code ARMED} a cancel leaves a lazily deleted entry
     * behind in {@link #heap}, which that heap must count to know when to clean up.
     */
    private boolean complete(int to) {
        int s = state;
        while (s < FIRED) {
            int witness = (int) STATE.compareAndExchange(this, s, to);
            if (witness == s) {
                if (to == CANCELLED && s == ARMED) {
                    heap.zombieCreated();
                }
                releaseWaiters();
                return true;
            }
            s = witness;
        }
        return false;
    }

    /**
     * Binds this timer to {@code h}: true when it is now {@code ARMED} there and the caller
     * must put it in the heap or its inbox; false when it already fired or was cancelled
     * (arming a finished timer is a no-op, it will never fire).
     *
     * @throws IllegalStateException if it is already armed (in any heap)
     */
    boolean bind(TimerHeap h) {
        int s = (int) STATE.compareAndExchange(this, PENDING, ARMING);
        if (s != PENDING) {
            if (s == ARMING || s == ARMED) {
                throw new IllegalStateException("timer already armed");
            }
            return false;
        }
        heap = h;
        // Release: a thread that sees ARMED also sees heap. If this CAS fails, a fire or
        // cancel won while we held ARMING; it counted no zombie and we enqueue nothing.
        return STATE.compareAndSet(this, ARMING, ARMED);
    }

    /**
     * Called by the heap's lock holder after taking this timer out of the heap without
     * firing it. Returns true if it was cancelled while in the heap: that cancel counted a
     * zombie, which the caller must now discount.
     */
    boolean unbind() {
        int s = (int) STATE.compareAndExchange(this, ARMED, PENDING);
        return s == CANCELLED;
    }

    /** True when armed (in a heap or an inbox) and neither fired nor cancelled. */
    boolean isArmed() {
        return state == ARMED;
    }

    @Override
    public boolean isCancelled() {
        return state == CANCELLED;
    }

    @Override
    public boolean isDone() {
        return state >= FIRED;
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    /**
     * Orders by deadline with {@code a - b} so that deadlines on both sides of a
     * {@code nanoTime} wrap-around still compare correctly (valid while they are within
     * 2^63 ns, about 292 years, of each other).
     */
    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        long diff = other instanceof Timer t
                ? deadline - t.deadline
                : getDelay(TimeUnit.NANOSECONDS) - other.getDelay(TimeUnit.NANOSECONDS);
        return Long.signum(diff);
    }

    @Override
    public Void get() throws InterruptedException {
        if (!isDone()) {
            waitLatch().await();
        }
        return result();
    }

    @Override
    public Void get(long timeout, TimeUnit unit) throws InterruptedException, TimeoutException {
        if (!isDone() && !waitLatch().await(timeout, unit) && !isDone()) {
            throw new TimeoutException();
        }
        return result();
    }

    @Override
    public State state() {
        return switch (state) {
            case FIRED -> State.SUCCESS;
            case CANCELLED -> State.CANCELLED;
            default -> State.RUNNING;
        };
    }

    @Override
    public Void resultNow() {
        if (state != FIRED) {
            throw new IllegalStateException("timer has not fired");
        }
        return null;
    }

    /** Always throws: a timer never completes exceptionally (the action's errors go to its firer). */
    @Override
    public Throwable exceptionNow() {
        throw new IllegalStateException(state == FIRED ? "timer fired normally" : "timer has no exception");
    }

    @Override
    public String toString() {
        return "Timer[deadline=" + deadline + ", state=" + state() + "]";
    }

    private Void result() {
        if (state == CANCELLED) {
            throw new CancellationException();
        }
        return null;
    }

    /**
     * The latch to wait on, installed on first use. Dekker-style handshake with
     * {@link #releaseWaiters()}: the completer writes the state and then reads the latch, a
     * waiter writes the latch and then reads the state, all volatile, so at least one of them
     * sees the other's write. If the completer read no latch, the waiter's re-check below sees
     * the terminal state, and the latch it returns is one it may count down itself.
     */
    private CountDownLatch waitLatch() {
        CountDownLatch l = latch;
        if (l == null) {
            CountDownLatch mine = new CountDownLatch(1);
            l = (CountDownLatch) LATCH.compareAndExchange(this, null, mine);
            if (l == null) {
                l = mine;
            }
        }
        if (isDone()) {
            l.countDown();
        }
        return l;
    }

    private void releaseWaiters() {
        CountDownLatch l = latch;
        if (l != null) {
            l.countDown();
        }
    }
}
