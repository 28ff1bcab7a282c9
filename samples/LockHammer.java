import java.util.concurrent.locks.ReentrantLock;

/*
 * Contention as a throughput, for the --lock bench: THREADS threads
 * ("hammer-N") each take a monitor and then a ReentrantLock around a
 * tiny critical section, as fast as they can, for SECS seconds; at the
 * end, "ops TOTAL SECONDS" (acquisitions of both, counted by the
 * threads). With more threads than CPUs most acquisitions contend.
 * Usage: java LockHammer THREADS SECS
 */
public class LockHammer {
	static final Object MON = new Object();
	static final ReentrantLock LOCK = new ReentrantLock();
	static long shared;

	static long work(long end) {
		long n = 0;
		while ((n & 1023) != 0 || System.nanoTime() < end) {
			synchronized (MON) {
				shared++;
			}
			LOCK.lock();
			try {
				shared--;
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
		long start = System.nanoTime(), end = start + (long)(secs * 1e9);
		long[] ops = new long[threads];
		Thread[] t = new Thread[threads];
		for (int i = 0; i < threads; i++) {
			final int k = i;
			t[i] = new Thread(() -> ops[k] = work(end), "hammer-" + i);
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
