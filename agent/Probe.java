package mixprof.jmap;

import jdk.internal.misc.Unsafe;

/*
 * The helper every probed method calls at entry (agent/probe_class.h):
 * `sipush SITE; invokestatic mixprof/jmap/Probe.hit(I)V`. The count is an
 * atomic add in Java (an intrinsic: one locked add once compiled), so the
 * common case never leaves Java; only sites armed for stacks call the
 * native that fires the USDT probe. It uses nothing but Unsafe, which the
 * agent never instruments, so a probe cannot recurse into itself.
 * Built into libjmap.so as bytes; defined in the bootstrap loader.
 */
public final class Probe {
	private static final Unsafe U = Unsafe.getUnsafe();
	private static final long BASE = base();
	static final long[] counts = new long[0x8000];
	static final byte[] armed = new byte[0x8000];

	private Probe() {
	}

	/* Called once by the agent: runs the static initialiser. */
	static void init() {
	}

	public static void hit(int site) {
		U.getAndAddLong(counts, BASE + ((long) site << 3), 1L);
		if (armed[site] != 0)
			fire(site);
	}

	private static native void fire(int site);

	/* Unsafe.ARRAY_LONG_BASE_OFFSET, whose type differs between JDKs. */
	private static native long base();
}
