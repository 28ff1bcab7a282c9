import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.Deflater;

/*
 * A small service warming up: parsing, maps, sorting, regular expressions,
 * compression (native zlib) and file I/O on a few threads, printing its
 * throughput each second so the warmup curve is visible.
 * Usage: java Warmup [SECONDS]
 */
public class Warmup {
	static volatile long sink;
	static final Pattern KV = Pattern.compile("(\\w+)=(\\d+)");

	static Map<String, Long> parse(String line) {
		Map<String, Long> m = new HashMap<>();
		Matcher x = KV.matcher(line);
		while (x.find())
			m.put(x.group(1), Long.parseLong(x.group(2)));
		return m;
	}

	static String record(Random r) {
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < 8; i++)
			sb.append("key").append(r.nextInt(50)).append('=').append(r.nextInt(100000)).append(' ');
		return sb.toString();
	}

	static long parseWork(Random r) {
		long s = 0;
		for (int i = 0; i < 200; i++)
			for (long v : parse(record(r)).values())
				s += v;
		return s;
	}

	static long sortWork(Random r) {
		List<Integer> l = new ArrayList<>();
		for (int i = 0; i < 20000; i++)
			l.add(r.nextInt());
		Collections.sort(l);
		return l.get(l.size() / 2);
	}

	static long compressWork(Random r) {
		byte[] in = new byte[64 << 10];
		for (int i = 0; i < in.length; i++)
			in[i] = (byte) ('a' + r.nextInt(4));
		Deflater d = new Deflater();
		d.setInput(in);
		d.finish();
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		byte[] buf = new byte[8192];
		while (!d.finished())
			out.write(buf, 0, d.deflate(buf));
		d.end();
		return out.size();
	}

	static long ioWork(File f, Random r) throws Exception {
		try (FileOutputStream o = new FileOutputStream(f)) {
			for (int i = 0; i < 64; i++)
				o.write(record(r).getBytes());
		}
		return f.length();
	}

	public static void main(String[] args) throws Exception {
		long end = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "15") * 1e9);
		long[] ops = new long[4];
		Thread[] ts = new Thread[4];
		File scratch = File.createTempFile("mixprof-warmup", ".txt");
		scratch.deleteOnExit();
		for (int k = 0; k < ts.length; k++) {
			final int id = k;
			ts[k] = new Thread(() -> {
				Random r = new Random(id);
				try {
					while (System.nanoTime() < end) {
						switch (id) {
						case 0: sink += parseWork(r); break;
						case 1: sink += sortWork(r); break;
						case 2: sink += compressWork(r); break;
						default: sink += ioWork(scratch, r); break;
						}
						ops[id]++;
					}
				} catch (Exception e) {
					throw new RuntimeException(e);
				}
			}, new String[] { "parser", "sorter", "compressor", "writer" }[k]);
			ts[k].start();
		}
		for (int sec = 1; System.nanoTime() < end; sec++) {
			Thread.sleep(1000);
			System.out.printf("t=%ds parse=%d sort=%d compress=%d io=%d%n", sec, ops[0], ops[1], ops[2], ops[3]);
		}
		for (Thread t : ts)
			t.join();
		scratch.delete();
	}
}
