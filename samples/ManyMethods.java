import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/*
 * ManyMethods: a JVM holding many compiled methods, for the benchmark of
 * mixprof's memory with 100k nmethods in the target. DIR holds classes
 * G0 .. G<n-1>, each a LongUnaryOperator whose applyAsLong calls every
 * small static method of its class (bench/names_rss.sh writes them);
 * they are loaded COPIES times, each time by a class loader of its own,
 * so each copy has Method*s and compiled code of its own. Every method is
 * called once, then "ready" is printed, then all of them are called in
 * turn until killed (samples spread over all of them). Run it with
 * -Xcomp so each method is compiled at its first call, and -XX:-Inline
 * so each stays an nmethod of its own.
 *
 *     java -Xcomp -XX:-Inline ManyMethods DIR COPIES
 */
public class ManyMethods {
	static volatile long sink;

	public static void main(String[] args) throws Exception {
		File dir = new File(args[0]);
		int copies = Integer.parseInt(args[1]);
		URL[] path = {dir.toURI().toURL()};
		int n = 0;
		while (new File(dir, "G" + n + ".class").isFile())
			n++;
		List<LongUnaryOperator> ops = new ArrayList<>();
		for (int c = 0; c < copies; c++) {
			ClassLoader l = new URLClassLoader(path, null);
			for (int i = 0; i < n; i++)
				ops.add((LongUnaryOperator)l.loadClass("G" + i)
						.getDeclaredConstructor()
						.newInstance());
		}
		for (LongUnaryOperator op : ops)
			sink += op.applyAsLong(1);
		System.out.println("ready " + ops.size() + " classes");
		for (long x = 0;; x++)
			for (LongUnaryOperator op : ops)
				sink += op.applyAsLong(x);
	}
}
