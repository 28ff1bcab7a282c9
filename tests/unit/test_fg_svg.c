/* Unit tests of flamegraph/svg.c and json.c: counts in the output,
 * minwidth leaving out narrow frames, escaping. */
#include <stdlib.h>
#include "check.h"
#include "flamegraph/json.h"
#include "flamegraph/render.h"

static char *render(struct fg_tree *t, const struct fg_opts *o, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int err = json ? json__write_tree(t, o, out)
		       : flamegraph__write_svg(t, o, out);

	fclose(out);
	CHECK_INT(err, 0);
	return buf;
}

static int count(const char *s, const char *needle)
{
	int n = 0;

	while ((s = strstr(s, needle))) {
		n++;
		s++;
	}
	return n;
}

int main(void)
{
	struct fg_tree *t = tree__new();
	struct fg_opts o;
	char *s;
	int i;

	opts__init(&o);
	tree__add(t, "java;main_[j];big_[j]", 21, 9990, 0, false);
	tree__add(t, "java;main_[j];tiny_[j]", 22, 1, 0, false);
	tree__add(t, "java;a<b>&\"c\"", 14, 9, 0, false);
	tree__add(t, "java;bad\xff\x01name", 14, 9, 0, false);
	/* 1 px of 1180: frames under ~8.5 samples are left out */
	o.minwidth = 1;
	s = render(t, &o, false);
	CHECK(strstr(s, "data-total=\"10009\"") != NULL);
	CHECK(strstr(s, "data-n=\"9990\"") != NULL);
	CHECK(strstr(s, "tiny_[j]") == NULL);
	CHECK(strstr(s, "a&lt;b&gt;&amp;&quot;c&quot;") != NULL);
	CHECK(strstr(s, "bad\\xff\\x01name") != NULL);
	CHECK(strstr(s, "<![CDATA[") != NULL);
	CHECK_INT(count(s, "class=\"f\""), 6);
	free(s);
	o.minwidth = 0;
	s = render(t, &o, false);
	CHECK(strstr(s, "tiny_[j] (1 samples, 0.01%)") != NULL);
	CHECK_INT(count(s, "class=\"f\""), 7);
	free(s);
	o.minwidth = 1;
	o.minwidth_pct = true; /* 1% = 100 samples */
	s = render(t, &o, false);
	CHECK_INT(count(s, "class=\"f\""), 4);
	free(s);

	/* Thumbnails: no script, no labels, no XML declaration. */
	o.thumbnail = true;
	s = render(t, &o, false);
	CHECK(strstr(s, "<script") == NULL && strstr(s, "<text") == NULL);
	CHECK(strstr(s, "<?xml") == NULL);
	free(s);

	/* JSON: parallel arrays, names escaped for a <script> block. */
	opts__init(&o);
	o.minwidth = 0;
	tree__add(t, "java;</script>", 14, 1, 0, false);
	s = render(t, &o, true);
	CHECK(strstr(s, "\"v\":[10010,10010,1,9,9,9991,9990,1]") != NULL);
	CHECK(strstr(s, "</script>") == NULL);
	CHECK(strstr(s, "\\u003c/script\\u003e") != NULL);
	CHECK(strstr(s, "\"b\":") == NULL);
	free(s);
	o.diff = true;
	s = render(t, &o, true);
	CHECK(strstr(s, "\"b\":[") != NULL && strstr(s, "\"c\":[") != NULL);
	free(s);

	/* Inverted: the root row is at the top. */
	opts__init(&o);
	o.inverted = true;
	s = render(t, &o, false);
	CHECK(strstr(s, "Icicle Graph") != NULL);
	i = strstr(s, "data-d=\"0\"") != NULL;
	CHECK(i);
	CHECK(strstr(s, "y=\"36\" width=\"1180.0\"") != NULL);
	free(s);
	tree__free(t);

	/* Counts near 2^64 (a hand-made file): the total saturates instead
	 * of wrapping, and no frame is drawn past the plot (1180 px). */
	t = tree__new();
	tree__add(t, "java;a", 6, 1ULL << 63, 0, false);
	tree__add(t, "java;b", 6, 1ULL << 63, 0, false);
	tree__add(t, "java;c", 6, 5, 0, false);
	opts__init(&o);
	s = render(t, &o, false);
	CHECK(strstr(s, "data-total=\"18446744073709551615\"") != NULL);
	CHECK(strstr(s, "all (18446744073709551615 samples, 100.00%)") != NULL);
	{
		const char *p = s;
		double x, w, worst = 0;

		while ((p = strstr(p, "<rect x=\""))) {
			if (sscanf(p, "<rect x=\"%lf\" y=\"%*u\" width=\"%lf\"",
				   &x, &w) == 2 &&
			    x + w > worst)
				worst = x + w;
			p++;
		}
		CHECK(worst > 1000 && worst <= 10 + 1180 + 0.05);
	}
	free(s);
	tree__free(t);
	return check_report();
}
