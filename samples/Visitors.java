/*
 * Code shaped like a compiler's: a tree of eight node kinds walked by
 * four visitors, recursively, through megamorphic virtual and interface
 * calls (vtable and itable stubs), tiny methods called at a very high
 * rate (samples caught in their prologues and epilogues), and two methods
 * the JVM is told not to compile (-XX:CompileCommand=exclude,
 * Visitors.interp*), called from compiled code and calling it back (the
 * C2I and I2C adapters between them). Thread "visitors-worker", until
 * SECS pass; prints "ready" once it runs.
 * Usage: java Visitors SECS
 */
public class Visitors {
	interface Visitor {
		long leaf(Node n);

		long pair(Node a, Node b, int kind);
	}

	static abstract class Node {
		final Node l, r;
		final int v;

		Node(Node l, Node r, int v) {
			this.l = l;
			this.r = r;
			this.v = v;
		}

		abstract long accept(Visitor w);
	}

	static final class N0 extends Node {
		N0(Node l, Node r, int v) { super(l, r, v); }
		long accept(Visitor w) { return l == null ? w.leaf(this) : w.pair(l, r, 0); }
	}

	static final class N1 extends Node {
		N1(Node l, Node r, int v) { super(l, r, v); }
		long accept(Visitor w) { return l == null ? w.leaf(this) : w.pair(r, l, 1); }
	}

	static final class N2 extends Node {
		N2(Node l, Node r, int v) { super(l, r, v); }
		long accept(Visitor w) { return l == null ? w.leaf(this) + 2 : w.pair(l, r, 2); }
	}

	static final class N3 extends Node {
		N3(Node l, Node r, int v) { super(l, r, v); }
		long accept(Visitor w) { return l == null ? w.leaf(this) ^ 3 : w.pair(r, l, 3); }
	}

	static final class N4 extends Node {
		N4(Node l, Node r, int v) { super(l, r, v); }
		long accept(Visitor w) { return l == null ? w.leaf(this) - 4 : w.pair(l, r, 4); }
	}

	static final class N5 extends Node {
		N5(Node l, Node r, int v) { super(l, r, v); }
		long accept(Visitor w) { return l == null ? w.leaf(this) * 5 : w.pair(r, l, 5); }
	}

	static final class N6 extends Node {
		N6(Node l, Node r, int v) { super(l, r, v); }
		long accept(Visitor w) { return l == null ? w.leaf(this) | 6 : w.pair(l, r, 6); }
	}

	static final class N7 extends Node {
		N7(Node l, Node r, int v) { super(l, r, v); }
		long accept(Visitor w) { return l == null ? w.leaf(this) + v : w.pair(r, l, 7); }
	}

	/* visitors: tiny bodies, so calls and returns are much of the time */
	static final class Sum implements Visitor {
		public long leaf(Node n) { return n.v; }
		public long pair(Node a, Node b, int k) { return a.accept(this) + b.accept(this) + k; }
	}

	static final class Xor implements Visitor {
		public long leaf(Node n) { return n.v * 31L; }
		public long pair(Node a, Node b, int k) { return a.accept(this) ^ b.accept(this) ^ k; }
	}

	static final class Depth implements Visitor {
		public long leaf(Node n) { return 1; }
		public long pair(Node a, Node b, int k) { return 1 + Math.max(a.accept(this), b.accept(this)); }
	}

	/* every few nodes, through an interpreted method (when excluded) */
	static final class Mixed implements Visitor {
		public long leaf(Node n) { return n.v == 0 ? interpLeaf(n, this) : n.v; }
		public long pair(Node a, Node b, int k) { return k == 0 ? interpPair(a, b, this) : a.accept(this) - b.accept(this); }
	}

	static long interpLeaf(Node n, Visitor w) {
		return n.v + 1;
	}

	static long interpPair(Node a, Node b, Visitor w) {
		return a.accept(w) + b.accept(w);
	}

	static Node build(int depth, int[] seed) {
		seed[0] = seed[0] * 1103515245 + 12345;
		int k = (seed[0] >>> 16) & 7;
		Node l = depth > 0 ? build(depth - 1, seed) : null;
		Node r = depth > 0 ? build(depth - 1, seed) : null;
		switch (k) {
		case 0: return new N0(l, r, k);
		case 1: return new N1(l, r, k);
		case 2: return new N2(l, r, k);
		case 3: return new N3(l, r, k);
		case 4: return new N4(l, r, k);
		case 5: return new N5(l, r, k);
		case 6: return new N6(l, r, k);
		default: return new N7(l, r, k);
		}
	}

	static volatile long sink;

	public static void main(String[] args) throws Exception {
		final long stop = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1e9);
		final Node tree = build(12, new int[] {42});
		final Visitor[] vs = {new Sum(), new Xor(), new Depth(), new Mixed()};
		Thread t = new Thread(() -> {
			long x = 0;
			while (System.nanoTime() < stop)
				for (Visitor v : vs)
					x += tree.accept(v);
			sink = x;
		}, "visitors-worker");
		t.start();
		System.out.println("ready");
		t.join();
	}
}
