import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/*
 * One thread, "callers-worker", spends its CPU time in one helper, called
 * from three methods (a, b, c) for 1:2:3 of the time: a profile gets the
 * split right only if it finds the helper's callers. Shares are measured
 * in the thread's own CPU time, so they hold however busy the machine is.
 * Usage: java Callers SECONDS
 */
public class Callers {
	static volatile long sink;
	static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

	/* The leaf: spins for nanos of this thread's CPU time. */
	static long helper(long nanos, long seed) {
		long end = CPU.getCurrentThreadCpuTime() + nanos, x = seed;
		while (CPU.getCurrentThreadCpuTime() < end)
			for (int i = 0; i < 5000; i++)
				x = x * 31 + i;
		return x;
	}

	static void a(long unit) {
		sink += helper(unit, 1);
	}

	static void b(long unit) {
		sink += helper(2 * unit, 2);
	}

	static void c(long unit) {
		sink += helper(3 * unit, 3);
	}

	public static void main(String[] args) throws Exception {
		final long stop = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1e9);
		final long unit = 1_000_000; /* 1 ms: many switches per second */
		Thread t = new Thread(() -> {
			while (System.nanoTime() < stop) {
				a(unit);
				b(unit);
				c(unit);
			}
		}, "callers-worker");
		t.start();
		System.out.println("ready");
		System.out.flush();
		t.join();
	}
}
