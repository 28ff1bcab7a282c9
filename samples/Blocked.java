import java.io.File;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/*
 * Threads that block once and never wake, for the off-CPU test of waits
 * still open when a run stops. Once the file TRIGGER exists,
 * "blocked-socket" reads a loopback socket nobody writes to (in
 * socketRead) and "blocked-wait" calls Object.wait() without a timeout
 * on a monitor nobody notifies (in waitForever); each first prints
 * "NAME System.nanoTime()" (CLOCK_MONOTONIC on Linux) as it blocks. The
 * JVM exits after SECONDS.
 * Usage: java Blocked TRIGGER SECONDS
 */
public class Blocked {
	static final Object MONITOR = new Object();

	static void socketRead(InputStream in) throws Exception {
		System.out.println("blocked-socket " + System.nanoTime());
		in.read();
	}

	static void waitForever() throws Exception {
		synchronized (MONITOR) {
			System.out.println("blocked-wait " + System.nanoTime());
			MONITOR.wait();
		}
	}

	static void await(File trigger) throws Exception {
		while (!trigger.exists())
			Thread.sleep(2);
	}

	public static void main(String[] args) throws Exception {
		File trigger = new File(args[0]);
		ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		Socket client = new Socket(server.getInetAddress(), server.getLocalPort());
		Socket peer = server.accept();
		Thread s = new Thread(() -> {
			try {
				await(trigger);
				socketRead(client.getInputStream());
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		}, "blocked-socket");
		Thread w = new Thread(() -> {
			try {
				await(trigger);
				waitForever();
			} catch (Exception e) {
				throw new RuntimeException(e);
			}
		}, "blocked-wait");
		s.setDaemon(true);
		w.setDaemon(true);
		s.start();
		w.start();
		System.out.println("ready");
		Thread.sleep((long)(Double.parseDouble(args[1]) * 1000));
		peer.close();
		System.exit(0);
	}
}
