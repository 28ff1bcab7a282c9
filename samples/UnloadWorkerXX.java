import java.util.function.LongSupplier;

/*
 * The template Unload renames and loads once per phase (UnloadWorker00,
 * UnloadWorker01...); never loaded under this name. Public, with a public
 * constructor, because each copy lives in its own class loader's package.
 */
public class UnloadWorkerXX implements LongSupplier {
	private long x = 1;

	public UnloadWorkerXX() {
	}

	long step() {
		for (int i = 0; i < 1000; i++)
			x = x * 31 + i;
		return x;
	}

	public long getAsLong() {
		long end = System.nanoTime() + 200_000, s = 0;
		while (System.nanoTime() < end)
			s += step();
		return s;
	}
}
