/*
 * Ttsp GCS [TRIGGER]: a thread "ttsp-copier" copies 96 MiB arrays with
 * System.arraycopy in a loop (a stub that never polls for a safepoint:
 * each copy holds every safepoint back until it ends), while main calls
 * System.gc() GCS times, 50 ms apart: safepoints with a long time to
 * safepoint. With TRIGGER, prints "ready" and waits for that file to
 * exist before the GCs. Prints "done".
 */
public class Ttsp {
	static volatile long sink;

	public static void main(String[] args) throws Exception {
		int gcs = Integer.parseInt(args[0]);
		final byte[] a = new byte[96 << 20], b = new byte[96 << 20];
		Thread t = new Thread(() -> {
			for (;;) {
				System.arraycopy(a, 0, b, 0, a.length);
				sink += b[7];
			}
		}, "ttsp-copier");
		t.setDaemon(true);
		t.start();
		Thread.sleep(300);
		if (args.length > 1) {
			System.out.println("ready");
			while (!new java.io.File(args[1]).exists())
				Thread.sleep(20);
		}
		for (int i = 0; i < gcs; i++) {
			System.gc();
			Thread.sleep(50);
		}
		System.out.println("done");
	}
}
