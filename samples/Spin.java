package de.mixprof.sample;

import java.util.HashMap;
import java.util.Map;

/*
 * CPU in a package outside the prefixes flamegraph.pl's java palette
 * takes for Java (java/ javax/ jdk/ net/ org/ com/ io/ sun/): thread
 * "spin-worker" counts words in a map (its own methods, a few JDK ones
 * called and inlined). Frames read de/mixprof/sample/Spin.count...
 * Usage: java -cp build/samples de.mixprof.sample.Spin SECONDS
 */
public class Spin {
	static volatile long sink;

	static String word(int i) {
		return Integer.toString(i % 97, 36);
	}

	static long count(Map<String, Integer> m, int n) {
		long s = 0;
		for (int i = 0; i < n; i++)
			s += m.merge(word(i), 1, Integer::sum);
		return s;
	}

	public static void main(String[] args) throws Exception {
		final long stop = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1e9);
		Thread t = new Thread(() -> {
			Map<String, Integer> m = new HashMap<>();
			while (System.nanoTime() < stop) {
				sink += count(m, 1000);
				m.clear();
			}
		}, "spin-worker");
		t.start();
		System.out.println("ready");
		System.out.flush();
		t.join();
	}
}
