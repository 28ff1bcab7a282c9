import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/*
 * JNames: compiled code with inlining for the agentless namer's tests,
 * run by threads whose names share their first 15 characters (the
 * kernel's comm) and differ after. Runs until killed; prints "ready"
 * once the workers started.
 *
 *     java JNames [THREADS]
 */
public class JNames {
	static final class Point {
		final int x, y;

		Point(int x, int y) { this.x = x; this.y = y; }
		int x() { return x; }
		int y() { return y; }
		int dist2(Point o) { int dx = x() - o.x(), dy = y() - o.y(); return dx * dx + dy * dy; }
	}

	static int mix(int a, int b) { return Integer.rotateLeft(a * 31 + b, 7) ^ b; }

	static long points(int n, int seed) {
		List<Point> l = new ArrayList<>();
		for (int i = 0; i < n; i++)
			l.add(new Point(mix(i, seed) & 1023, mix(seed, i) & 1023));
		long s = 0;
		for (int i = 1; i < l.size(); i++)
			s += l.get(i).dist2(l.get(i - 1));
		return s;
	}

	static long words(int n, int seed) {
		Map<String, Integer> m = new HashMap<>();
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < n; i++) {
			sb.setLength(0);
			sb.append('w').append(mix(i, seed) & 255);
			m.merge(sb.toString(), 1, Integer::sum);
		}
		long s = 0;
		for (Map.Entry<String, Integer> e : m.entrySet())
			s += e.getKey().hashCode() * (long)e.getValue();
		return s;
	}

	static volatile long sink;

	static void work() {
		for (int seed = 0;; seed++) {
			sink += points(2000, seed);
			sink += words(2000, seed);
		}
	}

	public static void main(String[] args) throws Exception {
		int n = args.length > 0 ? Integer.parseInt(args[0]) : 2;
		for (int i = 1; i <= n; i++) {
			/* "mixprof-names-w" is 15 characters: the comm of each */
			Thread t = new Thread(JNames::work, "mixprof-names-worker-" + (i == 2 ? 10 : i));
			t.setDaemon(true);
			t.start();
		}
		System.out.println("ready");
		Thread.sleep(Long.MAX_VALUE);
	}
}
