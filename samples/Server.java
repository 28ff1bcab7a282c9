import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/*
 * A small line server on loopback: a pool of threads ("srv-N") serves
 * connections, each request parsed with a regex, counted in collections and
 * answered; client threads ("cli-N") send requests as fast as answers come.
 * Socket I/O, regex and collections across a thread pool, as a real
 * server's request pipeline has them. Usage: java Server SECONDS
 */
public class Server {
	static final Pattern REQ = Pattern.compile("GET /item/(\\w+)\\?n=(\\d+)");
	static volatile long sink;

	/* One request: parse, count, answer. */
	static String handle(String line, Map<String, Integer> counts) {
		Matcher m = REQ.matcher(line);
		if (!m.matches())
			return "400";
		counts.merge(m.group(1), Integer.parseInt(m.group(2)), Integer::sum);
		TreeMap<String, Integer> top = new TreeMap<>(counts);
		return "200 " + top.firstKey() + " " + top.size();
	}

	static void serve(Socket s) {
		Map<String, Integer> counts = new HashMap<>();
		try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream()));
		     PrintWriter out = new PrintWriter(s.getOutputStream(), true)) {
			String line;
			while ((line = in.readLine()) != null)
				out.println(handle(line, counts));
		} catch (Exception e) {
			/* the client went away */
		}
	}

	static void client(int port, long stop, int id) {
		try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
		     PrintWriter out = new PrintWriter(s.getOutputStream(), true);
		     BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream()))) {
			for (long i = 0; System.nanoTime() < stop; i++) {
				out.println("GET /item/k" + (i % 97) + "x" + id + "?n=" + (i % 13));
				sink += in.readLine().length();
			}
		} catch (Exception e) {
			throw new RuntimeException(e);
		}
	}

	public static void main(String[] args) throws Exception {
		final long stop = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1e9);
		final int n = 3;
		ServerSocket ss = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		ExecutorService pool = Executors.newFixedThreadPool(n, r -> {
			Thread t = new Thread(r);
			t.setName("srv-" + t.getId());
			t.setDaemon(true);
			return t;
		});
		Thread[] clients = new Thread[n];
		for (int i = 0; i < n; i++) {
			final int id = i;
			clients[i] = new Thread(() -> client(ss.getLocalPort(), stop, id), "cli-" + i);
			clients[i].start();
			Socket s = ss.accept();
			pool.execute(() -> serve(s));
		}
		System.out.println("ready");
		System.out.flush();
		for (Thread c : clients)
			c.join();
		pool.shutdownNow();
	}
}
