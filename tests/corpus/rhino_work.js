// A JavaScript workload for Rhino (Debian's rhino: a JavaScript engine in
// Java), for the corpus_rhino test: for SECONDS (the first argument),
// rounds of recursion, object churn, JSON, regular expressions, string
// building and sorting with a comparator. Under -opt 0 and up Rhino
// compiles each script and function into JVM classes of its own, loaded
// by its own class loader; under -opt -1 its Interpreter runs them
// (Interpreter.interpretLoop, one Java frame per JavaScript call). Prints
// "done ROUNDS".
function fib(n) {
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function points(n) {
	var a = [], sum = 0, i;
	for (i = 0; i < n; i++)
		a.push({x: i, y: i * 2, name: "p" + i});
	for (i = 0; i < a.length; i++)
		sum += a[i].x * a[i].y + a[i].name.length;
	return sum;
}

function text(n) {
	var rows = [], i, back, out = 0;
	for (i = 0; i < n; i++)
		rows.push({id: i, tags: ["a" + i, "b" + (i % 7)], note: "row " + i + " of " + n});
	back = JSON.parse(JSON.stringify(rows));
	for (i = 0; i < back.length; i++)
		out += back[i].note.replace(/row (\d+) of/, "$1:").length;
	return out;
}

function sorted(n) {
	var a = [], i;
	for (i = 0; i < n; i++)
		a.push((i * 7919) % n);
	a.sort(function (p, q) { return p - q; });
	return a[n >> 1];
}

var end = Date.now() + 1000 * Number(arguments[0] || 4), rounds = 0, sink = 0;
while (Date.now() < end) {
	sink += fib(18) + points(2000) + text(300) + sorted(4000);
	rounds++;
}
print("done " + rounds + " " + (sink > 0));
