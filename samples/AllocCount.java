import java.io.File;
import java.lang.management.ManagementFactory;

/*
 * A known number of allocation events, for the --alloc objects count:
 * thread "alloc-huge" waits for the file TRIGGER to exist, then makes
 * exactly N byte arrays of 8 MiB in huge() (each larger than any TLAB,
 * so each is one allocation outside a TLAB: one hook hit), prints
 * "huge N BYTES" (BYTES: its own allocated bytes around them,
 * com.sun.management.ThreadMXBean) and idles. Meanwhile "alloc-small"
 * makes small arrays in small() the whole time (TLAB refills).
 * Usage: java AllocCount TRIGGER N SECONDS
 */
public class AllocCount {
	static volatile Object sink;
	static volatile boolean stop;
	static final com.sun.management.ThreadMXBean MX =
	    (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

	static void huge(int n) {
		for (int i = 0; i < n; i++)
			sink = new byte[8 << 20];
	}

	static void small() {
		for (int i = 0; i < 64; i++)
			sink = new long[32];
	}

	public static void main(String[] args) throws Exception {
		File trigger = new File(args[0]);
		int n = Integer.parseInt(args[1]);
		long end = System.nanoTime() + (long)(Double.parseDouble(args[2]) * 1e9);
		Thread s = new Thread(() -> {
			while (!stop)
				small();
		}, "alloc-small");
		Thread h = new Thread(() -> {
			try {
				while (!trigger.exists())
					Thread.sleep(5);
			} catch (InterruptedException e) {
				return;
			}
			long b0 = MX.getCurrentThreadAllocatedBytes();
			huge(n);
			long b1 = MX.getCurrentThreadAllocatedBytes();
			System.out.println("huge " + n + " " + (b1 - b0));
		}, "alloc-huge");
		s.start();
		h.start();
		System.out.println("ready");
		while (System.nanoTime() < end)
			Thread.sleep(50);
		stop = true;
		s.join();
	}
}
