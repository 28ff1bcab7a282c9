/*
 * JvmEvents GCS: HotSpot events to check mixprof --events against. Calls
 * System.gc() GCS times (prints "gc N"), then warms hot() on Circles
 * only, long enough for C2 to compile it with Circle.area inlined behind
 * a class check, then passes it Squares: an uncommon trap (class_check).
 * Prints "switch" before the first Square, "done" at the end.
 */
public class JvmEvents {
	interface Shape {
		double area();
	}

	static final class Circle implements Shape {
		final double r;

		Circle(double r) {
			this.r = r;
		}

		public double area() {
			return 3.14159 * r * r;
		}
	}

	static final class Square implements Shape {
		final double a;

		Square(double a) {
			this.a = a;
		}

		public double area() {
			return a * a;
		}
	}

	static double hot(Shape[] shapes) {
		double sum = 0;
		for (int i = 0; i < shapes.length; i++)
			sum += shapes[i].area();
		return sum;
	}

	static double run(Shape[] shapes, long nanos) {
		double sum = 0;
		long end = System.nanoTime() + nanos;
		while (System.nanoTime() < end)
			sum += hot(shapes);
		return sum;
	}

	public static void main(String[] args) throws Exception {
		int gcs = Integer.parseInt(args[0]);
		for (int i = 0; i < gcs; i++) {
			System.gc();
			Thread.sleep(20);
		}
		System.out.println("gc " + gcs);
		Shape[] circles = new Shape[1000], squares = new Shape[1000];
		for (int i = 0; i < 1000; i++) {
			circles[i] = new Circle(i);
			squares[i] = new Square(i);
		}
		double sum = run(circles, 1500_000_000L);
		System.out.println("switch");
		sum += run(squares, 300_000_000L);
		System.out.println("done " + (sum > 0));
	}
}
