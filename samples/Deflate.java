import java.util.Random;
import java.util.zip.Deflater;

/*
 * One thread, "deflate-worker", compresses a buffer again and again with
 * java.util.zip.Deflater: most of its time is in libz, native code entered
 * from Java (JNI) and built without frame pointers. Usage: java Deflate SECONDS
 */
public class Deflate {
	static volatile long sink;

	static long compress(byte[] in, byte[] out) {
		Deflater d = new Deflater(6);
		d.setInput(in);
		d.finish();
		long n = 0;
		while (!d.finished())
			n += d.deflate(out);
		d.end();
		return n;
	}

	public static void main(String[] args) throws Exception {
		final long stop = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1e9);
		final byte[] in = new byte[1 << 20], out = new byte[64 << 10];
		Random r = new Random(42);
		for (int i = 0; i < in.length; i++) /* compressible, not trivial */
			in[i] = (byte) ('a' + r.nextInt(12));
		Thread t = new Thread(() -> {
			while (System.nanoTime() < stop)
				sink += compress(in, out);
		}, "deflate-worker");
		t.start();
		System.out.println("ready");
		System.out.flush();
		t.join();
	}
}
