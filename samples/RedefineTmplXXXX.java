import java.util.function.LongSupplier;

/*
 * The template Redefine renames and defines once a round
 * (RedefineTmpl0000, 0001...) in its own class loader, where the methods
 * of the redefined class were freed; never loaded under this name. Its
 * methods are RedefineWorker's, one for one, so their memory fits. Not a
 * renamed RedefineWorker: with that one class (a LongSupplier too) the
 * freed methods' memory was not reused (JDK 17 -Xint) and names_redefine
 * could no longer fail on a build without its fix; with these two, 358
 * of 781 samples under fresh() were named wrong there.
 */
public class RedefineTmplXXXX implements LongSupplier {
	public RedefineTmplXXXX() {
	}

	static long step(long x) {
		for (int i = 0; i < 200; i++)
			x = x * 37 + i;
		return x;
	}

	static long mid(long x) {
		return step(x) + step(x + 1);
	}

	public long getAsLong() {
		long s = 0;
		for (int i = 0; i < 50; i++)
			s += mid(i);
		return s;
	}
}
