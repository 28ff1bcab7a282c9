import java.io.File;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/*
 * Spends its time in the kernel: small write/read system calls on a file,
 * and page faults on freshly mapped memory. Usage: java Syscalls SECONDS
 */
public class Syscalls {
	static volatile long sink;

	static void writeRead(RandomAccessFile f, byte[] buf) throws Exception {
		for (int i = 0; i < 2000; i++) {
			f.seek(0);
			f.write(buf);
			f.seek(0);
			sink += f.read(buf);
		}
	}

	static void pageFaults(File dir) throws Exception {
		File m = File.createTempFile("mixprof-pf", ".bin", dir);
		try (RandomAccessFile f = new RandomAccessFile(m, "rw")) {
			MappedByteBuffer b = f.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, 16 << 20);
			for (int i = 0; i < b.capacity(); i += 4096)
				b.put(i, (byte) i);
		} finally {
			m.delete();
		}
	}

	public static void main(String[] args) throws Exception {
		long end = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1e9);
		File dir = new File(System.getProperty("java.io.tmpdir"));
		File scratch = File.createTempFile("mixprof-sys", ".bin", dir);
		scratch.deleteOnExit();
		byte[] buf = new byte[64];
		System.out.println("ready");
		System.out.flush();
		try (RandomAccessFile f = new RandomAccessFile(scratch, "rw")) {
			while (System.nanoTime() < end) {
				writeRead(f, buf);
				pageFaults(dir);
			}
		}
		scratch.delete();
	}
}
