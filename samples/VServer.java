import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/*
 * A small HTTP server whose requests run on virtual threads (JDK 21+: the
 * JDK's own com.sun.net.httpserver with a virtual-thread-per-task
 * executor; a thread pool before), for the virtual-thread server test:
 * each request (any path) does CPU work in VServer.compute between two
 * short blocking waits (Thread.sleep(1) in VServer.pause: its virtual
 * thread unmounts, its frames are frozen, and thawed a few at a time on
 * remount), then answers with "ok NNN". Listens on 127.0.0.1, a port
 * the kernel picks; prints "port N" and "ready"; exits after SECS.
 * Usage: java VServer SECS
 */
public class VServer {
	static volatile long sink;

	/* about a millisecond of arithmetic */
	static long compute(long x) {
		for (int i = 0; i < 600_000; i++)
			x = x * 6364136223846793005L + 1442695040888963407L;
		return x;
	}

	static void pause() throws InterruptedException {
		Thread.sleep(1);
	}

	static long serve(long seed) throws InterruptedException {
		long x = compute(seed);
		pause();
		x += compute(x);
		pause();
		return x;
	}

	static void handle(HttpExchange ex) throws java.io.IOException {
		long x;
		try {
			x = serve(System.nanoTime());
		} catch (InterruptedException e) {
			x = -1;
		}
		sink += x;
		/* one length for all: ab counts a different one as failed */
		byte[] body = String.format("ok %03d\n", x & 0xff)
				  .getBytes(StandardCharsets.US_ASCII);
		ex.sendResponseHeaders(200, body.length);
		try (OutputStream os = ex.getResponseBody()) {
			os.write(body);
		}
	}

	public static void main(String[] args) throws Exception {
		int secs = Integer.parseInt(args[0]);
		HttpServer srv = HttpServer.create(
		    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
		srv.createContext("/", VServer::handle);
		srv.setExecutor(VThreads.executor(8));
		srv.start();
		System.out.println("port " + srv.getAddress().getPort());
		System.out.println("ready");
		System.out.flush();
		Thread.sleep(secs * 1000L);
		System.exit(0);
	}
}
