import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.function.LongSupplier;

/*
 * Loads, runs and unloads classes in their own class loaders, so compiled
 * code is freed (and its addresses reused) while a profiler runs.
 * Each phase defines a fresh copy of UnloadWorkerXX renamed UnloadWorkerNN,
 * runs it hot until JIT-compiled and beyond, drops it and collects it.
 * Prints, per phase: "phase N UnloadWorkerNN START_NS END_NS" where the
 * times are System.nanoTime() (CLOCK_MONOTONIC on Linux) around the run.
 * With "reflect", each call goes through Method.invoke: JNI first, then
 * generated accessors (JDK 17) or method handles (JDK 18+), made anew
 * for each phase's class and unloaded with it.
 * Usage: java Unload [PHASES [SECONDS_PER_PHASE [reflect]]]
 */
public class Unload {
	static volatile long sink;

	static final class OneShotLoader extends ClassLoader {
		OneShotLoader(ClassLoader parent) {
			super(parent);
		}

		Class<?> define(String name, byte[] b) {
			return defineClass(name, b, 0, b.length);
		}
	}

	/* Same-length renaming keeps the constant pool valid. */
	static byte[] renamed(byte[] template, String from, String to) {
		byte[] b = template.clone();
		byte[] f = from.getBytes(), t = to.getBytes();
		for (int i = 0; i + f.length <= b.length; i++) {
			int j = 0;
			while (j < f.length && b[i + j] == f[j])
				j++;
			if (j == f.length)
				System.arraycopy(t, 0, b, i, t.length);
		}
		return b;
	}

	static byte[] template() throws Exception {
		try (InputStream in = Unload.class.getResourceAsStream("UnloadWorkerXX.class")) {
			return in.readAllBytes();
		}
	}

	static void runPhase(byte[] tmpl, int n, long nanos, boolean reflect)
	    throws Exception {
		/* two digits keep the renaming's length; each phase has its
		 * own loader, so a name can come back (soaks run 100s) */
		String name = String.format("UnloadWorker%02d", n % 100);
		OneShotLoader l = new OneShotLoader(Unload.class.getClassLoader());
		Class<?> c = l.define(name, renamed(tmpl, "UnloadWorkerXX", name));
		LongSupplier w = (LongSupplier) c.getDeclaredConstructor().newInstance();
		Method m = c.getMethod("getAsLong");
		long start = System.nanoTime(), end = start + nanos;
		while (System.nanoTime() < end)
			sink += reflect ? (Long) m.invoke(w) : w.getAsLong();
		System.out.printf("phase %d %s %d %d%n", n, name, start, System.nanoTime());
		System.out.flush();
	}

	public static void main(String[] args) throws Exception {
		int phases = args.length > 0 ? Integer.parseInt(args[0]) : 8;
		double secs = args.length > 1 ? Double.parseDouble(args[1]) : 1.0;
		boolean reflect = args.length > 2 && args[2].equals("reflect");
		byte[] tmpl = template();
		for (int n = 0; n < phases; n++) {
			runPhase(tmpl, n, (long) (secs * 1e9), reflect);
			/* The loader is unreachable now: a full GC unloads it and
			 * frees its compiled code. */
			System.gc();
		}
		System.out.println("done");
	}
}
