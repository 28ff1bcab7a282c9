/*
 * A thread recursing DEPTH frames deep (default 800) that spins at the leaf,
 * so every sample has a deep Java stack. Usage: java Recurse SECONDS [DEPTH]
 */
public class Recurse {
	static volatile long sink;

	static long leaf(long end) {
		long x = 7;
		while (System.nanoTime() < end)
			for (int i = 0; i < 500; i++)
				x = x * 13 + i;
		return x;
	}

	/* Spins a short while at the bottom, then climbs back up and down again,
	 * so the recursive method is called often enough to be JIT-compiled. */
	static long down(int n, long end) {
		if (n == 0)
			return leaf(Math.min(end, System.nanoTime() + 2_000_000));
		return down(n - 1, end) + 1;
	}

	public static void main(String[] args) throws Exception {
		double secs = Double.parseDouble(args.length > 0 ? args[0] : "10");
		int depth = args.length > 1 ? Integer.parseInt(args[1]) : 800;
		long end = System.nanoTime() + (long) (secs * 1e9);
		Thread t = new Thread(() -> {
			while (System.nanoTime() < end)
				sink += down(depth, end);
		}, "recurse-worker");
		t.start();
		System.out.println("ready");
		System.out.flush();
		t.join();
	}
}
