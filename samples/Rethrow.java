/*
 * Exceptions through compiled code, run with -XX:-Inline: depth3 throws a
 * preallocated exception (no stack trace) on three calls in four; depth2
 * and depth1 have no handler, so C2 rethrows it to their callers through
 * its rethrow stub and the exception blob; main catches it. Every Java
 * stack is a prefix of main, depth1, depth2, depth3.
 */
public class Rethrow {
	static final RuntimeException EX = new RuntimeException("rethrown", null, false, false) {
	};

	static int depth3(int i) {
		if ((i & 3) != 0)
			throw EX;
		return i;
	}

	static int depth2(int i) {
		return depth3(i) + 1;
	}

	static int depth1(int i) {
		return depth2(i) * 2;
	}

	public static void main(String[] args) {
		long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
		long sum = 0;
		while (System.nanoTime() < end)
			for (int i = 0; i < 10000; i++)
				try {
					sum += depth1(i);
				} catch (RuntimeException e) {
					sum--;
				}
		System.out.println(sum);
	}
}
