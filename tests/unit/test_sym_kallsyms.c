/* kallsyms: parsing a fixture, module names, bounds, the symbolizer hook. */
#include "check.h"
#include "symbolizer/kallsyms.h"
#include "test_sym_util.h"
#include "symbolizer/symbolizer.h"

int main(void)
{
	size_t len;
	char *text = sym_fixture("kallsyms.txt", &len);
	uint64_t bad = 0;
	struct symtab *t;
	struct symbolizer *s;
	struct frame f;

	CHECK(text != NULL);
	if (!text)
		return check_report();
	t = kallsyms__parse(text, len, &bad);
	CHECK(t != NULL);
	CHECK_INT(bad, 2);
	/* text symbols only; _stext and startup_64 share an address */
	CHECK_INT(symtab__count(t), 9);
	CHECK_INT(symtab__min(t), 0xffffffff81000000);
	CHECK_STR(symtab__find(t, 0xffffffff81000000), "_stext");
	CHECK_STR(symtab__find(t, 0xffffffff81000150), "secondary_startup_64");
	CHECK_STR(symtab__find(t, 0xffffffff81001100), "do_syscall_64");
	/* data symbols do not name code; the text before them stretches */
	CHECK_STR(symtab__find(t, 0xffffffff81002010), "entry_SYSCALL_64");
	CHECK_STR(symtab__find(t, 0xffffffff81003010), "weak_text_fn");
	CHECK_STR(symtab__find(t, 0xffffffffc0a01010), "ext4_readpage");
	CHECK_STR(symtab__find(t, 0xffffffffc0a01180), "ext4_file_read_iter");
	CHECK_STR(symtab__find(t, 0xffffffffc0b00004), "nf_hook");
	/* bounded: far past the last symbol of a region is nothing */
	CHECK(symtab__find(t, 0xffffffffc0b00000 + (1 << 20)) == NULL);
	CHECK(symtab__find(t, 0xffffffff80ffffff) == NULL);
	symtab__free(t);

	s = symbolizer__new(NULL);
	CHECK_INT(symbolizer__load_kallsyms(s, text, len), 0);
	CHECK_INT(symbolizer__kernel(s, 0xffffffff81001004, &f), 1);
	CHECK_STR(f.name, "do_syscall_64");
	CHECK_INT(f.kind, FRAME_KERNEL);
	symbolizer__kernel(s, 0x1000, &f);
	CHECK_STR(f.name, "[kernel.kallsyms]");
	CHECK_INT(f.kind, FRAME_UNKNOWN);
	symbolizer__free(s);

	/* the real one, when readable: some symbol names do_syscall_64 */
	s = symbolizer__new(NULL);
	symbolizer__kernel(s, 0, &f);
	symbolizer__free(s);
	free(text);
	return check_report();
}
