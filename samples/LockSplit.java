import java.util.concurrent.locks.ReentrantLock;

/*
 * Lock contention with a known split, for the --lock test. Three locks:
 * two monitors of different classes (LockSplit$Alpha, LockSplit$Beta)
 * and a ReentrantLock ("gamma"), each held by its own holder thread
 * ("holder-alpha", "holder-beta", "holder-gamma") for 6, 3 and 4 ms at a
 * time, then left free for a millisecond. Once file TRIGGER exists,
 * one thread, "lock-waiter", takes them in turn for SECONDS, each in its
 * own method (takeAlpha, takeBeta, takeGamma), and times every
 * acquisition itself with System.nanoTime; it prints the sums, "split
 * ALPHA_NS BETA_NS GAMMA_NS", every second and at the end, and then
 * all threads end. Only a holder holds a lock the waiter waits for, so
 * the owner of every such wait is that lock's holder. The trigger lets
 * a profiler attach first: its profile and the waiter's own sums then
 * cover the same waits.
 * Usage: java LockSplit SECONDS TRIGGER
 */
public class LockSplit {
	static final class Alpha {
	}

	static final class Beta {
	}

	static final Alpha ALPHA = new Alpha();
	static final Beta BETA = new Beta();
	static final ReentrantLock GAMMA = new ReentrantLock();
	static volatile boolean done;

	static void pause(long ms) {
		try {
			Thread.sleep(ms);
		} catch (InterruptedException e) {
			done = true;
		}
	}

	static Thread holder(String name, Object mon, long ms) {
		return new Thread(() -> {
			while (!done) {
				synchronized (mon) {
					pause(ms);
				}
				pause(1);
			}
		}, name);
	}

	static long takeAlpha() {
		long t0 = System.nanoTime();
		synchronized (ALPHA) {
			return System.nanoTime() - t0;
		}
	}

	static long takeBeta() {
		long t0 = System.nanoTime();
		synchronized (BETA) {
			return System.nanoTime() - t0;
		}
	}

	static long takeGamma() {
		long t0 = System.nanoTime();
		GAMMA.lock();
		long t = System.nanoTime() - t0;
		GAMMA.unlock();
		return t;
	}

	public static void main(String[] args) throws Exception {
		long secs = (long)(Double.parseDouble(args[0]) * 1e9);
		java.io.File trigger = new java.io.File(args[1]);
		Thread gamma = new Thread(() -> {
			while (!done) {
				GAMMA.lock();
				try {
					pause(4);
				} finally {
					GAMMA.unlock();
				}
				pause(1);
			}
		}, "holder-gamma");
		Thread[] holders = {holder("holder-alpha", ALPHA, 6),
				    holder("holder-beta", BETA, 3), gamma};
		for (Thread t : holders)
			t.start();
		Thread w = new Thread(() -> {
			long a = 0, b = 0, g = 0;
			System.out.println("ready");
			while (!trigger.exists())
				pause(5);
			System.out.println("go");
			long next = System.nanoTime(), end = next + secs;
			while (System.nanoTime() < end) {
				a += takeAlpha();
				b += takeBeta();
				g += takeGamma();
				if (System.nanoTime() > next) {
					System.out.println("split " + a + " " + b + " " + g);
					next += 1000000000L;
				}
			}
			System.out.println("split " + a + " " + b + " " + g);
		}, "lock-waiter");
		w.start();
		w.join();
		done = true;
		for (Thread t : holders)
			t.join();
	}
}
