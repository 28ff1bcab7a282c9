import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/*
 * Tasks on virtual threads (JDK 21+; a thread pool before) that sleep,
 * for the off-CPU test of virtual threads' waits. Each task loops: CPU
 * work (spin), then a sleep: 5 ms ones in idle until file TRIGGER exists,
 * then, for SECS, 20 ms ones in nap, each measured with System.nanoTime
 * around Thread.sleep. A virtual thread unmounts for each sleep, so no
 * kernel thread waits for it. Prints "ready" once every task slept once,
 * then, after SECS from the trigger, "slept NANOS SLEEPS" (all the tasks'
 * measured naps) and "done"; exits after a few more seconds.
 * Usage: java VWaits TRIGGER SECS [TASKS]
 */
public class VWaits {
	static volatile boolean go;
	static volatile long end;
	static volatile long sink;

	/* about half a millisecond of arithmetic */
	static long spin(long x) {
		for (int i = 0; i < 300_000; i++)
			x = x * 6364136223846793005L + 1442695040888963407L;
		return x;
	}

	static void idle() throws InterruptedException {
		Thread.sleep(5);
	}

	/* the measured wait: its time, in ns */
	static long nap() throws InterruptedException {
		long t0 = System.nanoTime();
		Thread.sleep(20);
		return System.nanoTime() - t0;
	}

	/* the task's measured naps: {ns, count} */
	static long[] task(int id, Runnable started) throws InterruptedException {
		long[] slept = new long[2];
		boolean first = true;

		while (!go) {
			sink += spin(id);
			idle();
			if (first)
				started.run();
			first = false;
		}
		while (System.nanoTime() < end) {
			sink += spin(id);
			slept[0] += nap();
			slept[1]++;
		}
		return slept;
	}

	public static void main(String[] args) throws Exception {
		Path trigger = Path.of(args[0]);
		int secs = Integer.parseInt(args[1]);
		int tasks = args.length > 2 ? Integer.parseInt(args[2]) : 4;
		/* virtual threads on JDK 21+, a pool before */
		ExecutorService ex = VThreads.executor(tasks);
		java.util.concurrent.CountDownLatch started =
		    new java.util.concurrent.CountDownLatch(tasks);
		@SuppressWarnings("unchecked")
		java.util.concurrent.Future<long[]>[] f =
		    new java.util.concurrent.Future[tasks];

		for (int i = 0; i < tasks; i++) {
			final int id = i;
			f[i] = ex.submit(() -> task(id, started::countDown));
		}
		started.await();
		System.out.println("ready");
		System.out.flush();
		while (!Files.exists(trigger))
			Thread.sleep(10);
		end = System.nanoTime() + TimeUnit.SECONDS.toNanos(secs);
		go = true;
		long ns = 0, n = 0;
		for (int i = 0; i < tasks; i++) {
			long[] s = f[i].get();
			ns += s[0];
			n += s[1];
		}
		System.out.println("slept " + ns + " " + n);
		System.out.println("done");
		System.out.flush();
		Thread.sleep(5000);
		System.exit(0);
	}
}
