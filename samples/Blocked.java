import java.io.File;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/*
 * Threads that block once and never wake, for the off-CPU test of waits
 * still open when a run stops. Once the file TRIGGER exists,
 * "blocked-socket" reads a loopback socket nobody writes to any more (in
 * socketRead) and "blocked-wait" calls Object.wait() without a timeout
 * on a monitor nobody notifies (in waitForever). Each first goes the same
 * way once without blocking for long (a byte to read, a 1 ms wait), so
 * that nothing but the wait lies between its System.nanoTime() and the
 * block; the main thread prints "NAME NANOS" for both (CLOCK_MONOTONIC on
 * Linux) once they are taken. The JVM exits after SECONDS.
 * Usage: java Blocked TRIGGER SECONDS
 */
public class Blocked {
	static final Object MONITOR = new Object();
	static volatile long socketT0, waitT0;

	static void socketRead(InputStream in, boolean last) throws Exception {
		if (last)
			socketT0 = System.nanoTime();
		in.read();
	}

	static void waitForever(boolean last) throws Exception {
		synchronized (MONITOR) {
			if (!last) {
				MONITOR.wait(1);
				return;
			}
			waitT0 = System.nanoTime();
			MONITOR.wait();
		}
	}

	static void await(File trigger) throws Exception {
		while (!trigger.exists())
			Thread.sleep(2);
	}

	public static void main(String[] args) throws Exception {
		File trigger = new File(args[0]);
		long end = System.nanoTime() + (long)(Double.parseDouble(args[1]) * 1e9);
		ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		Socket client = new Socket(server.getInetAddress(), server.getLocalPort());
		Socket peer = server.accept();
		OutputStream out = peer.getOutputStream();
		Thread s = new Thread(() -> {
			try {
				InputStream in = client.getInputStream();
				socketRead(in, false);
				await(trigger);
				socketRead(in, true);
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		}, "blocked-socket");
		Thread w = new Thread(() -> {
			try {
				waitForever(false);
				await(trigger);
				waitForever(true);
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		}, "blocked-wait");
		s.setDaemon(true);
		w.setDaemon(true);
		s.start();
		w.start();
		out.write('x');
		out.flush();
		System.out.println("ready");
		while (socketT0 == 0 || waitT0 == 0)
			Thread.sleep(2);
		System.out.println("blocked-socket " + socketT0);
		System.out.println("blocked-wait " + waitT0);
		while (System.nanoTime() < end)
			Thread.sleep(50);
		peer.close();
		System.exit(0);
	}
}
