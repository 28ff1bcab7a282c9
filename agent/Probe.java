package mixprof.jmap;

import jdk.internal.misc.Unsafe;

/*
 * The helper every probed method calls at entry (agent/probe_class.h):
 * `sipush SITE; invokestatic mixprof/jmap/Probe.hit(I)V`.
 *
 * Counting must be exact under any number of threads and cheap enough
 * for methods called hundreds of millions of times a second: an atomic
 * add per call (a locked instruction, ~20 cycles) made a tiny method
 * 2.5-3.5x slower. So a thread counts in counters of its own, with plain
 * adds (only it writes them): a slot picked by its thread id, taken on
 * its first call. Compiled, the common case is a few loads, a compare
 * and an add, which the JIT often hoists out of the caller's loop. A
 * thread whose slot another thread holds, and sites past LOCAL_SITES,
 * fall back to the atomic add on the shared counts. The agent's control
 * thread sums everything with collect() and frees the slots of threads
 * that ended, folding their counts into retired.
 *
 * Only sites armed for stacks call the native that fires the USDT probe.
 * The fast path uses nothing but Unsafe and the native
 * Thread.currentThread(), which cannot be probed, so a probe cannot
 * recurse into itself. Built into libjmap.so as bytes; defined in the
 * bootstrap loader.
 */
public final class Probe {
	private static final int SITES = 0x8000;
	private static final int SLOTS = 256; /* threads with counters of their own */
	private static final int LOCAL_SITES = 4096; /* bounds a slot: 32 KiB */
	private static final Unsafe U = Unsafe.getUnsafe();
	private static final long BASE = base();
	private static final long TID = U.objectFieldOffset(Thread.class, "tid");
	static final byte[] armed = new byte[SITES];
	static final long[] totals = new long[SITES]; /* collect()'s result */
	private static final long[] shared = new long[SITES]; /* atomic adds */
	private static final long[] retired = new long[SITES]; /* ended threads' */
	private static final Thread[] owners = new Thread[SLOTS];
	private static final long[][] local = new long[SLOTS][];

	private Probe() {
	}

	/* Called once by the agent: runs the static initialiser. */
	static void init() {
	}

	public static void hit(int site) {
		Thread t = Thread.currentThread();
		int slot = (int) U.getLong(t, TID) & (SLOTS - 1);
		long[] c = local[slot];

		/* a slot's owner sees its own writes, so no barrier is needed:
		 * another thread never finds itself as the owner */
		if (owners[slot] == t && c != null && site < c.length)
			c[site]++;
		else
			miss(t, slot, site);
		if (armed[site] != 0)
			fire(site);
	}

	/*
	 * A thread's first call (take the slot if free), a site past its
	 * counters (grow them) or a thread whose slot is held by another
	 * (count in the shared array, atomically).
	 */
	private static void miss(Thread t, int slot, int site) {
		Thread o = owners[slot];

		if (site < LOCAL_SITES && (o == null || o == t) && own(t, slot, site))
			return;
		U.getAndAddLong(shared, BASE + ((long) site << 3), 1L);
	}

	/* Take or grow the slot and count the call; false if it is taken. */
	private static synchronized boolean own(Thread t, int slot, int site) {
		long[] c = local[slot], n;
		int len = 64, i;

		if (owners[slot] != null && owners[slot] != t)
			return false;
		if (c == null || site >= c.length) {
			while (len <= site)
				len <<= 1;
			n = new long[len];
			for (i = 0; c != null && i < c.length; i++)
				n[i] = c[i];
			local[slot] = c = n;
		}
		owners[slot] = t;
		c[site]++;
		return true;
	}

	/*
	 * The agent's read (control thread): the totals of sites [0, n) into
	 * totals. Reads of other threads' counters race with their adds and
	 * may be a few calls behind, never torn (aligned longs). A thread
	 * that has ended adds nothing more: its counts move to retired and
	 * its slot is freed (counters before owner, both under the lock a
	 * thread takes a slot with).
	 */
	static synchronized void collect(int n) {
		int s, i;

		for (i = 0; i < n; i++)
			totals[i] = shared[i] + retired[i];
		for (s = 0; s < SLOTS; s++) {
			long[] c = local[s];

			for (i = 0; c != null && i < c.length && i < n; i++)
				totals[i] += c[i];
			if (c != null && !owners[s].isAlive())
				retire(s, c);
		}
	}

	/* Slot s's thread has ended: keep its counts, free the slot. */
	private static void retire(int s, long[] c) {
		for (int i = 0; i < c.length; i++)
			retired[i] += c[i];
		local[s] = null;
		owners[s] = null;
	}

	private static native void fire(int site);

	/* Unsafe.ARRAY_LONG_BASE_OFFSET, whose type differs between JDKs. */
	private static native long base();
}
