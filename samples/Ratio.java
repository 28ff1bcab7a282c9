import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/*
 * One thread, "ratio-worker", spends its CPU time in three methods at known
 * ratios 1:2:3 (one, two, three), for the profiler's accuracy test. Shares
 * are measured in the thread's own CPU time, not wall time, so the split
 * holds however busy the machine is.
 * Usage: java Ratio SECONDS
 */
public class Ratio {
	static volatile long sink;
	static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

	static long cpu() {
		return CPU.getCurrentThreadCpuTime();
	}

	/* Each method burns its own share in its own loop, so it is the leaf. */
	static void one(long nanos) {
		long end = cpu() + nanos, x = 1;
		while (cpu() < end)
			for (int i = 0; i < 5000; i++)
				x = x * 31 + i;
		sink += x;
	}

	static void two(long nanos) {
		long end = cpu() + nanos, x = 2;
		while (cpu() < end)
			for (int i = 0; i < 5000; i++)
				x = x * 37 + i;
		sink += x;
	}

	static void three(long nanos) {
		long end = cpu() + nanos, x = 3;
		while (cpu() < end)
			for (int i = 0; i < 5000; i++)
				x = x * 41 + i;
		sink += x;
	}

	public static void main(String[] args) throws Exception {
		final long stop = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1e9);
		final long unit = 1_000_000; /* 1 ms: many switches per second */
		Thread t = new Thread(() -> {
			while (System.nanoTime() < stop) {
				one(unit);
				two(2 * unit);
				three(3 * unit);
			}
		}, "ratio-worker");
		t.start();
		System.out.println("ready");
		System.out.flush();
		t.join();
	}
}
