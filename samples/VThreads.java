import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/*
 * Tasks on virtual threads (JDK 21+; platform threads on older JDKs),
 * for the virtual-thread tests: each task goes DEPTH frames deep
 * (VThreads.deep), then loops: CPU work in VThreads.work (called from
 * VThreads.handler) between 1 ms sleeps, so its virtual thread unmounts
 * and remounts all the time. A stack that deep is frozen into a chunk too
 * big to thaw at once: HotSpot thaws the top frames on remount and the
 * lowest of them returns into the continuation return barrier. The first
 * task prints its own stack once, from work, as Thread.getStackTrace()
 * gives it ("stack: pkg/Class.method;..." innermost first), then
 * "ready"; the JVM exits after SECS.
 * Usage: java VThreads SECS [TASKS [DEPTH]]
 */
public class VThreads {
	static volatile boolean stop;
	static volatile boolean printed;
	static volatile long sink;

	/* the hot method: a few ms of arithmetic */
	static long work(int id) {
		long x = id;
		for (int i = 0; i < 2_000_000; i++)
			x = x * 6364136223846793005L + 1442695040888963407L;
		if (!printed && id == 0) {
			printed = true;
			printStack();
		}
		return x;
	}

	static void printStack() {
		StringBuilder sb = new StringBuilder("stack: ");
		boolean on = false;
		for (StackTraceElement e : Thread.currentThread().getStackTrace()) {
			on |= e.getClassName().equals("VThreads") &&
			      e.getMethodName().equals("work");
			if (!on)
				continue;
			sb.append(e.getClassName().replace('.', '/')).append('.')
			    .append(e.getMethodName()).append(';');
		}
		sb.setLength(sb.length() - 1);
		System.out.println(sb);
		System.out.println("ready");
		System.out.flush();
	}

	static void handler(int id) throws InterruptedException {
		sink += work(id);
		Thread.sleep(1);
	}

	/* frames with locals, so the chunk is too big to thaw whole */
	static long deep(int id, int n) throws InterruptedException {
		long a = n, b = a * 3, c = b ^ a, d = c + 7;
		if (n > 0)
			return deep(id, n - 1) + a + b + c + d;
		while (!stop)
			handler(id);
		return a + b + c + d;
	}

	static ExecutorService executor(int tasks) {
		try {
			return (ExecutorService)Executors.class
			    .getMethod("newVirtualThreadPerTaskExecutor")
			    .invoke(null);
		} catch (ReflectiveOperationException e) {
			return Executors.newFixedThreadPool(tasks);
		}
	}

	public static void main(String[] args) throws Exception {
		int secs = Integer.parseInt(args[0]);
		int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 4;
		int depth = args.length > 2 ? Integer.parseInt(args[2]) : 200;
		ExecutorService ex = executor(tasks);

		for (int i = 0; i < tasks; i++) {
			final int id = i;
			ex.submit(() -> deep(id, depth));
		}
		Thread.sleep(secs * 1000L);
		stop = true;
		ex.shutdown();
		System.exit(0);
	}
}
