import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/*
 * Threads that wait in known ways, for the off-CPU tests. Each measures
 * its own blocked time with System.nanoTime around every wait (less its
 * own CPU time there, for the monitor it contends), in the
 * method named for the wait, and the totals are printed at the end
 * ("NAME METHOD NANOS WALL_NANOS RUNQ_NANOS", the last the run-queue
 * time within the waits where it may or may not be blocked time):
 *   waits-sleep    sleeper: Thread.sleep(10), again and again
 *   waits-monitor  monitorWait: Object.wait(20) on a monitor nobody
 *                  notifies
 *   waits-socket   socketRead: a blocking read on loopback; waits-feeder
 *                  writes one byte every 15 ms
 *   waits-contend  contend: enters a monitor that waits-holder keeps
 *                  for 25 ms at a time (sleeping inside it)
 * Every thread first settles for a second (settle), so a profiler has
 * learnt it before the measured waits begin, then works for SECONDS.
 * Usage: java Waits SECONDS
 */
public class Waits {
	static final Object MONITOR = new Object();
	static final Object LOCK = new Object();
	/* loaded before any measured wait: its classes are not waits */
	static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
	static long runNanos;
	static volatile boolean stop;

	static final String[] NAMES = {"waits-sleep", "waits-monitor",
				       "waits-socket", "waits-contend"};
	static final String[] METHODS = {"sleeper", "monitorWait",
					 "socketRead", "contend"};
	static final long[] blocked = new long[4];
	static final long[] wall = new long[4];
	static final long[] runq = new long[4];
	static final Path SCHEDSTAT = Path.of("/proc/thread-self/schedstat");

	static void settle() throws InterruptedException {
		Thread.sleep(1000);
	}

	static long sleeper(long end) throws Exception {
		long t = 0;
		while (System.nanoTime() < end) {
			long t0 = System.nanoTime();
			Thread.sleep(10);
			t += System.nanoTime() - t0;
		}
		return t;
	}

	static long monitorWait(long end) throws Exception {
		long t = 0;
		synchronized (MONITOR) {
			while (System.nanoTime() < end) {
				long t0 = System.nanoTime();
				MONITOR.wait(20);
				t += System.nanoTime() - t0;
			}
		}
		return t;
	}

	static long socketRead(long end, InputStream in) throws Exception {
		long t = 0;
		while (System.nanoTime() < end) {
			long t0 = System.nanoTime();
			if (in.read() < 0)
				break;
			t += System.nanoTime() - t0;
		}
		return t;
	}

	/*
	 * The nanoseconds this thread has waited on a run queue: the third
	 * column of /proc/thread-self/schedstat (0 where the kernel has no
	 * schedstat).
	 */
	static long runDelay() {
		try {
			String[] f = Files.readString(SCHEDSTAT).trim().split(" ");
			return Long.parseLong(f[1]);
		} catch (Exception e) {
			return 0;
		}
	}

	/*
	 * HotSpot spins on a contended monitor before it parks, and a spinner
	 * can be preempted: neither is blocked time, so the thread's own CPU
	 * time in each wait is taken out of it. The run-queue time in it is
	 * counted apart (runq): a preempted spinner's is not blocked time,
	 * a woken waiter's is, and no clock here tells them apart.
	 */
	static long contend(long end) {
		long t = 0;
		while (System.nanoTime() < end) {
			long q0 = runDelay();
			long c0 = MX.getCurrentThreadCpuTime();
			long t0 = System.nanoTime();
			synchronized (LOCK) {
				t += System.nanoTime() - t0;
				t -= MX.getCurrentThreadCpuTime() - c0;
			}
			runq[3] += runDelay() - q0;
			Thread.onSpinWait();
		}
		return t;
	}

	static void holder() throws Exception {
		while (!stop) {
			synchronized (LOCK) {
				Thread.sleep(25);
			}
			Thread.sleep(1); /* let the contender in */
		}
	}

	static void feeder(OutputStream out) throws Exception {
		while (!stop) {
			Thread.sleep(15);
			out.write(1);
			out.flush();
		}
		out.write(1); /* the reader's last read returns */
		out.flush();
	}

	interface Work {
		long run(long end) throws Exception;
	}

	static Thread worker(int i, CountDownLatch go, Work w) {
		Thread t = new Thread(() -> {
			try {
				settle();
				go.countDown();
				go.await();
				long t0 = System.nanoTime();
				blocked[i] = w.run(t0 + runNanos);
				wall[i] = System.nanoTime() - t0;
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		}, NAMES[i]);
		t.start();
		return t;
	}

	static Thread helper(String name, Work w) {
		Thread t = new Thread(() -> {
			try {
				w.run(0);
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		}, name);
		t.start();
		return t;
	}

	public static void main(String[] args) throws Exception {
		runNanos = (long)(Double.parseDouble(args[0]) * 1e9);
		ServerSocket ss = new ServerSocket(0, 1,
						   InetAddress.getLoopbackAddress());
		Socket client = new Socket(InetAddress.getLoopbackAddress(),
					   ss.getLocalPort());
		Socket server = ss.accept();
		InputStream in = server.getInputStream();
		OutputStream out = client.getOutputStream();
		CountDownLatch go = new CountDownLatch(4);
		Thread[] t = {
			worker(0, go, Waits::sleeper),
			worker(1, go, Waits::monitorWait),
			worker(2, go, end -> socketRead(end, in)),
			worker(3, go, Waits::contend),
		};
		Thread h = helper("waits-holder", end -> { holder(); return 0; });
		Thread f = helper("waits-feeder",
				  end -> { feeder(out); return 0; });
		System.out.println("ready");
		for (Thread x : t)
			x.join();
		stop = true;
		h.join();
		f.join();
		for (int i = 0; i < 4; i++)
			System.out.println(NAMES[i] + " " + METHODS[i] + " " +
					   blocked[i] + " " + wall[i] + " " +
					   runq[i]);
		client.close();
		server.close();
		ss.close();
	}
}
