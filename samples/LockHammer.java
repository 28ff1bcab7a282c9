import java.util.concurrent.locks.ReentrantLock;

/*
 * Contention as a throughput, for the --lock bench: THREADS threads
 * ("hammer-N") each take a monitor and then a ReentrantLock around a
 * critical section of WORK_NS nanoseconds of spinning, as fast as they
 * can, for SECS seconds; at the end, "ops TOTAL SECONDS" (acquisitions
 * of both, counted by the threads). With sections of tens of
 * microseconds, waiters park (a monitor's spin gives up): each such
 * acquisition is a wait --lock counts.
 * Usage: java LockHammer THREADS SECS WORK_NS
 */
public class LockHammer {
	static final Object MON = new Object();
	static final ReentrantLock LOCK = new ReentrantLock();
	static long shared;

	static void spin(long ns) {
		long until = System.nanoTime() + ns;
		while (System.nanoTime() < until)
			shared++;
	}

	static long work(long end, long ns) {
		long n = 0;
		while (System.nanoTime() < end) {
			synchronized (MON) {
				spin(ns);
			}
			LOCK.lock();
			try {
				spin(ns);
			} finally {
				LOCK.unlock();
			}
			n += 2;
		}
		return n;
	}

	public static void main(String[] args) throws Exception {
		int threads = Integer.parseInt(args[0]);
		double secs = Double.parseDouble(args[1]);
		long ns = Long.parseLong(args[2]);
		long start = System.nanoTime(), end = start + (long)(secs * 1e9);
		long[] ops = new long[threads];
		Thread[] t = new Thread[threads];
		for (int i = 0; i < threads; i++) {
			final int k = i;
			t[i] = new Thread(() -> ops[k] = work(end, ns), "hammer-" + i);
			t[i].start();
		}
		System.out.println("ready");
		long total = 0;
		for (int i = 0; i < threads; i++) {
			t[i].join();
			total += ops[i];
		}
		System.out.printf("ops %d %.3f%n", total, (System.nanoTime() - start) / 1e9);
	}
}
