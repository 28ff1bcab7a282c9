/* The class Redefine redefines, round after round (with its own bytes). */
public class RedefineWorker {
	static long leaf(long x) {
		for (int i = 0; i < 200; i++)
			x = x * 31 + i;
		return x;
	}

	static long mid(long x) {
		return leaf(x) + leaf(x + 1);
	}

	public static long work() {
		long s = 0;
		for (int i = 0; i < 50; i++)
			s += mid(i);
		return s;
	}
}
