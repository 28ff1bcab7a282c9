/*
 * One thread ("probed-loop") calls a tiny method from a loop that never
 * returns, so the JIT compiles the loop on stack replacement (OSR) with
 * the call inlined. The main thread prints the loop's speed every PERIOD
 * ms (default 500):
 *
 *     rate CALLS_PER_SECOND
 *
 * and "ready" once the loop has run 1.5 s (compiled). Probes on the tiny
 * method, and their removal, retransform its class while the loop runs;
 * the rates tell whether the loop gets fast code back afterwards.
 *
 *     ProbedLoop [SECS [callee|local [PERIOD]]]
 *
 * callee (default): the loop calls ProbedLoop$Callee.tiny, in another
 * class than the loop. local: it calls ProbedLoop.local, in its own class.
 * Runs SECS seconds (default 60).
 */
public class ProbedLoop {
	static volatile long calls;
	static volatile boolean stop;
	static int sink;

	static final class Callee {
		static int tiny(int x) {
			return x * 31 + 7;
		}
	}

	static int local(int x) {
		return x * 31 + 7;
	}

	/* Neither loop returns until stop: only an OSR compile makes it fast. */
	static void loopCallee() {
		int acc = 0;
		long n = 0;

		while (!stop) {
			for (int i = 0; i < 1_000_000; i++)
				acc = Callee.tiny(acc ^ i);
			n += 1_000_000;
			calls = n;
		}
		sink = acc;
	}

	static void loopLocal() {
		int acc = 0;
		long n = 0;

		while (!stop) {
			for (int i = 0; i < 1_000_000; i++)
				acc = local(acc ^ i);
			n += 1_000_000;
			calls = n;
		}
		sink = acc;
	}

	static void report(long secs, long period) throws InterruptedException {
		long start = System.nanoTime(), end = start + secs * 1_000_000_000L;
		long last = calls, t0 = start;
		boolean ready = false;

		while (System.nanoTime() < end) {
			Thread.sleep(period);
			long now = System.nanoTime(), c = calls;
			System.out.println("rate " + (c - last) * 1_000_000_000L /
					   Math.max(1, now - t0));
			last = c;
			t0 = now;
			if (!ready && now - start > 1_500_000_000L) {
				System.out.println("ready");
				ready = true;
			}
		}
		stop = true;
	}

	public static void main(String[] args) throws Exception {
		long secs = args.length > 0 ? Long.parseLong(args[0]) : 60;
		boolean local = args.length > 1 && args[1].equals("local");
		long period = args.length > 2 ? Long.parseLong(args[2]) : 500;
		Thread t = new Thread(local ? ProbedLoop::loopLocal
					    : ProbedLoop::loopCallee,
				      "probed-loop");

		t.start();
		report(secs, period);
		t.join();
	}
}
