/*
 * Safepoints at polls in compiled loops, run with -XX:-Inline: main calls
 * g, which calls f, in a loop (C2 puts a poll in main's loop and at each
 * return) while thread polls-dumper asks for every thread's stack
 * (Thread.getAllStackTraces) without pause, so main stops at those polls
 * again and again (HotSpot's safepoint handler blobs). Every Java stack
 * of main's is a prefix of main, g, f.
 */
public class Polls {
	static int f(int i) {
		return i * 3 + 1;
	}

	static int g(int i) {
		return f(i) ^ (i >>> 3);
	}

	public static void main(String[] args) {
		long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
		Thread dumper = new Thread(() -> {
			while (System.nanoTime() < end)
				Thread.getAllStackTraces();
		}, "polls-dumper");
		dumper.setDaemon(true);
		dumper.start();
		long sum = 0;
		while (System.nanoTime() < end)
			for (int i = 0; i < 100000; i++)
				sum += g(i);
		System.out.println(sum);
	}
}
