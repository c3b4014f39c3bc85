package dev.shuttle.lock;

import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

/**
 * The process-wide registry that maps node ids to {@link WaiterNode}s, and the pool that lends
 * nodes to waiting threads.
 *
 * <p>Why our own table: a state word can carry the stack head only as an integer, so every node
 * needs a stable id that any thread can resolve, and ids must be reused or virtual threads (which
 * come and go by the million) would exhaust them. Neither JCTools nor Agrona has an id-addressed
 * object registry; the free list itself is JCTools' {@link MpmcUnboundedXaddArrayQueue}, whose
 * chunks are pooled so steady-state lending allocates nothing.
 *
 * <p>Ids start at 1 so that 0 can mean "empty stack". The table only grows; its size is the
 * largest number of nodes ever lent out at once, which is bounded by the number of threads
 * simultaneously waiting on any spin-bit lock or condition.
 *
 * <p>Visibility: a node is stored into {@link #nodes} before its id is ever written into a state
 * word, and the id reaches other threads only through a volatile CAS of that word, so a reader
 * that learned the id by a volatile read also sees the node in the (volatile) array.
 */
final class WaiterTable {
    private static final int MAX_NODES = Integer.MAX_VALUE - 8;

    private static volatile WaiterNode[] nodes = new WaiterNode[64];
    private static int created;                 // guarded by the class lock
    private static final MpmcUnboundedXaddArrayQueue<WaiterNode> FREE =
            new MpmcUnboundedXaddArrayQueue<>(256, 4);

    private WaiterTable() {
    }

    /** Lends a node to {@code thread}; the caller must {@link #give} it back when done. */
    static WaiterNode take(Thread thread) {
        WaiterNode n = FREE.relaxedPoll();
        if (n == null) {
            n = FREE.poll();
            if (n == null) {
                n = create();
            }
        }
        n.thread = thread;
        n.spinGranted = false;
        n.setStatusPlain(WaiterNode.IDLE);
        return n;
    }

    /** Returns a node that is on no stack and no queue and that no waker will touch again. */
    static void give(WaiterNode n) {
        n.thread = null;
        n.next = null;
        n.nextWaiter = null;
        FREE.offer(n);
    }

    /** Resolves an id read from a state word; 0 resolves to null. */
    static WaiterNode get(int id) {
        return id == 0 ? null : nodes[id];
    }

    /** Number of nodes ever created: for tests that check nodes are reused, not leaked. */
    static synchronized int created() {
        return created;
    }

    private static synchronized WaiterNode create() {
        if (created == MAX_NODES) {
            throw new IllegalStateException("too many threads waiting on spin-bit locks");
        }
        int id = ++created;
        WaiterNode[] a = nodes;
        if (id >= a.length) {
            WaiterNode[] b = new WaiterNode[(int) Math.min(MAX_NODES + 1L, a.length * 2L)];
            System.arraycopy(a, 0, b, 0, a.length);
            a = b;
        }
        WaiterNode n = new WaiterNode(id);
        a[id] = n;
        nodes = a;                               // volatile store publishes the element too
        return n;
    }
}
