import java.io.InputStream;
import java.lang.instrument.ClassDefinition;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandles;
import java.util.function.LongSupplier;

/*
 * Class redefinition under a profiler. The JVM frees a redefined class's
 * old methods once they are off every stack, and their memory can go to
 * the methods of a class defined after, in the same class loader: a
 * profiler that keeps a Method*'s name from sample to sample must see it.
 * Run as an executable jar whose manifest names this class as its
 * Launcher-Agent-Class, with Can-Redefine-Classes (the test makes it).
 * For the first half of SECONDS it runs RedefineWorker.work through
 * worker(), nothing redefined. Then, round after round: RedefineWorker is
 * redefined (with its own bytes), the old methods collected (System.gc),
 * a fresh copy of RedefineTmplXXXX (renamed RedefineTmpl0000, 0001...)
 * defined in the same loader and run through fresh(), and RedefineWorker
 * run again through worker(). So under fresh() only RedefineTmplNNNN
 * frames are right, under worker() only RedefineWorker ones.
 * Prints "redefined N" (the rounds) at the end. Unload.class must be in the
 * jar too (its renaming).
 * Usage: java -jar JAR SECONDS
 */
public class Redefine {
	static Instrumentation inst;
	static volatile long sink;

	public static void agentmain(String args, Instrumentation i) {
		inst = i;
	}

	static long worker(long until) {
		long s = 0;
		while (System.nanoTime() < until)
			s += RedefineWorker.work();
		return s;
	}

	static long fresh(LongSupplier w, long until) {
		long s = 0;
		while (System.nanoTime() < until)
			s += w.getAsLong();
		return s;
	}

	static byte[] bytes(String name) throws Exception {
		try (InputStream in = Redefine.class.getResourceAsStream(name + ".class")) {
			return in.readAllBytes();
		}
	}

	public static void main(String[] a) throws Exception {
		long ns = (long) (Double.parseDouble(a[0]) * 1e9), start = System.nanoTime();
		byte[] w = bytes("RedefineWorker"), t = bytes("RedefineTmplXXXX");
		MethodHandles.Lookup l = MethodHandles.lookup();
		int n = 0;

		sink += worker(start + ns / 2);
		for (; System.nanoTime() < start + ns && n < 10000; n++) {
			inst.redefineClasses(new ClassDefinition(RedefineWorker.class, w));
			System.gc();
			Class<?> c = l.defineClass(Unload.renamed(t, "RedefineTmplXXXX", String.format("RedefineTmpl%04d", n)));
			LongSupplier s = (LongSupplier) c.getDeclaredConstructor().newInstance();
			sink += fresh(s, System.nanoTime() + 60_000_000L);
			sink += worker(System.nanoTime() + 30_000_000L);
		}
		System.out.println("redefined " + n);
	}
}
