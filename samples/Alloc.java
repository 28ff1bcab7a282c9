import java.lang.management.ManagementFactory;

/*
 * One thread, "alloc-worker", allocates in two methods at a known split
 * of bytes, for the --alloc test: big() allocates byte[] arrays, small()
 * long[] arrays, big() three times the bytes of small(), interleaved
 * every few microseconds so any window of the run has the same split.
 * The truth is measured, not assumed: the thread's allocated bytes
 * (com.sun.management.ThreadMXBean) before and after each method, summed
 * and printed every second: "split BIG_BYTES SMALL_BYTES".
 * Usage: java Alloc SECONDS
 */
public class Alloc {
	static volatile Object sink;
	static final com.sun.management.ThreadMXBean MX =
	    (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

	static void big() {
		for (int i = 0; i < 96; i++)
			sink = new byte[1000];
	}

	static void small() {
		for (int i = 0; i < 32; i++)
			sink = new long[125];
	}

	static long bytes() {
		return MX.getCurrentThreadAllocatedBytes();
	}

	public static void main(String[] args) throws Exception {
		long end = System.nanoTime() + (long)(Double.parseDouble(args[0]) * 1e9);
		Thread t = new Thread(() -> {
			long b = 0, s = 0, next = System.nanoTime();
			System.out.println("ready");
			while (System.nanoTime() < end) {
				long t0 = bytes();
				big();
				long t1 = bytes();
				small();
				long t2 = bytes();
				b += t1 - t0;
				s += t2 - t1;
				if (System.nanoTime() > next) {
					System.out.println("split " + b + " " + s);
					next += 1000000000L;
				}
			}
			System.out.println("split " + b + " " + s);
		}, "alloc-worker");
		t.start();
		t.join();
	}
}
