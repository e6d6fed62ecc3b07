// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for the report model: symbols, maps, callchain graphs. */
#include <errno.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/report/callchain.h"
#include "util/model/map.h"
#include "util/symbol/symbol.h"

static int add(struct symtab *t, u64 start, u64 len, u8 bind, const char *name)
{
	return symtab__add(t, symbol__new(start, len, bind, STT_FUNC, name));
}

TPERF_TEST(symtab_fixup, "report: symbols at one address and zero-size symbols, as perf keeps them")
{
	struct symtab t = { 0 };
	struct symbol *s;

	TEST_ASSERT_VAL("add", !add(&t, 0x100, 0, STB_GLOBAL, "zero"));
	TEST_ASSERT_VAL("add", !add(&t, 0x200, 0x10, STB_WEAK, "weak"));
	TEST_ASSERT_VAL("add", !add(&t, 0x200, 0x10, STB_GLOBAL, "__global"));
	TEST_ASSERT_VAL("add", !add(&t, 0x200, 0x10, STB_GLOBAL, "_global"));
	TEST_ASSERT_VAL("add", !add(&t, 0x300, 0, STB_LOCAL, "last"));
	symtab__fixup(&t, false);
	TEST_ASSERT_EQUAL("one per address", t.nr, 3);
	s = symtab__find(&t, 0x1ff);		/* zero size: up to the next one */
	TEST_ASSERT_STR("zero-size", s ? s->name : "", "zero");
	s = symtab__find(&t, 0x20f);		/* global over weak, fewer underscores */
	TEST_ASSERT_STR("best name", s ? s->name : "", "_global");
	TEST_ASSERT_VAL("gap", !symtab__find(&t, 0x210));
	s = symtab__find(&t, 0x1fff);		/* the last one: to the page after */
	TEST_ASSERT_STR("last", s ? s->name : "", "last");
	TEST_ASSERT_VAL("past the page", !symtab__find(&t, 0x2000));
	symtab__exit(&t);
	return 0;
}

TPERF_TEST(symtab_kallsyms, "report: kallsyms symbols, kernel/module boundary")
{
	char path[] = "/tmp/tperf-kallsyms-XXXXXX";
	struct symtab t = { 0 };
	struct symbol *s;

	TEST_ASSERT_VAL("tmp", !test_tmp_file(path, "ffffffff81000000 T _text\nffffffff81000100 t local_fn\n"
			"ffffffff81000200 r rodata_skipped\nffffffff81000300 W weak_fn\n"
			"ffffffffc0000000 t mod_fn\t[mod]\n"));
	TEST_ASSERT_EQUAL("loaded", symtab__load_kallsyms(&t, path), 4);
	unlink(path);
	s = symtab__find(&t, 0xffffffff81000250);	/* 'r' is not taken */
	TEST_ASSERT_STR("local", s ? s->name : "", "local_fn");
	s = symtab__find(&t, 0xffffffff81000fff);	/* kernel's last: next page */
	TEST_ASSERT_STR("weak", s ? s->name : "", "weak_fn");
	TEST_ASSERT_VAL("not to the module", !symtab__find(&t, 0xffffffff81002000));
	s = symtab__find(&t, 0xffffffffc0000010);
	TEST_ASSERT_STR("module", s ? s->name : "", "mod_fn\t[mod]");
	symtab__exit(&t);
	return 0;
}

TPERF_TEST(symtab_kallsyms_ref, "report: kallsyms reference symbol, also when a duplicate")
{
	char path[] = "/tmp/tperf-kallsyms-XXXXXX";
	struct symtab t = { 0 };
	u64 addr = 0;

	/* _text shares its address with two others: one of them is kept */
	TEST_ASSERT_VAL("tmp", !test_tmp_file(path, "ffffffff81000000 T srso_alias_untrain_ret\n"
			"ffffffff81000000 T _stext\nffffffff81000000 T _text\n"
			"ffffffff81000100 t local_fn\nxyz no address\nffffffff810001000000 T too_long\n"));
	TEST_ASSERT_EQUAL("loaded", symtab__load_kallsyms_ref(&t, path, "_text", &addr), 4);
	TEST_ASSERT_VAL("_text address", addr == 0xffffffff81000000ull);
	TEST_ASSERT_VAL("too long an address is no symbol", !symtab__find(&t, 0xffffffff81000fff) ||
			strcmp(symtab__find(&t, 0xffffffff81000fff)->name, "too_long"));
	symtab__exit(&t);
	TEST_ASSERT_EQUAL("absent", symtab__load_kallsyms_ref(&t, path, "_etext", &addr), -ENOENT);
	TEST_ASSERT_EQUAL("left empty", (int)t.nr, 0);
	unlink(path);
	return 0;
}

static struct map *clone(void *ctx, const struct map *m)
{
	struct map *c = malloc(sizeof(*c));

	(void)ctx;
	if (c)
		*c = *m;
	return c;
}

TPERF_TEST(maps_overlap, "report: a new map splits the maps it covers")
{
	struct maps *maps = maps__new();
	struct map a = { 0x1000, 0x5000, 0, false, NULL }, b = { 0x2000, 0x3000, 0x100, false, NULL };
	struct map *m;

	TEST_ASSERT_VAL("new", maps);
	TEST_ASSERT_VAL("insert", !maps__insert(maps, &a, clone, NULL));
	TEST_ASSERT_VAL("insert", !maps__insert(maps, &b, clone, NULL));
	TEST_ASSERT_EQUAL("three pieces", maps->nr, 3);
	m = maps__find(maps, 0x2800);
	TEST_ASSERT_VAL("middle is the new map", m == &b);
	TEST_ASSERT_EQUAL("map_ip", map__map_ip(m, 0x2800), 0x900);
	m = maps__find(maps, 0x4000);
	TEST_ASSERT_VAL("after", m && m != &a && m->start == 0x3000 && m->pgoff == 0x2000);
	TEST_ASSERT_EQUAL("after map_ip", map__map_ip(m, 0x4000), 0x3000);
	m = maps__find(maps, 0x1800);
	TEST_ASSERT_VAL("before", m && m->end == 0x2000);
	TEST_ASSERT_VAL("outside", !maps__find(maps, 0x5000));
	for (size_t i = 0; i < maps->nr; i++)
		if (maps->m[i] != &b)
			free(maps->m[i]);
	maps__put(maps);
	return 0;
}

TPERF_TEST(callchain_graph, "report: callchain graph output as perf prints it")
{
	struct symbol *f = symbol__new(0x10, 0x10, STB_GLOBAL, STT_FUNC, "leaf");
	struct cc_frame c1[] = { { NULL, f, 0x15 }, { NULL, NULL, 0x100 } };
	struct cc_frame c2[] = { { NULL, f, 0x18 }, { NULL, NULL, 0x200 } };
	struct cc_frame c3[] = { { NULL, f, 0x18 } };
	struct callchain_param p = { .mode = CHAIN_GRAPH_ABS, .min_percent = 0.5 };
	struct cc_node root = { 0 };
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	TEST_ASSERT_VAL("setup", f && out);
	TEST_ASSERT_VAL("append", !cc_node__append(&root, c1, 2, 3, CCKEY_FUNCTION));
	TEST_ASSERT_VAL("append", !cc_node__append(&root, c2, 2, 1, CCKEY_FUNCTION));
	TEST_ASSERT_VAL("append", !cc_node__append(&root, c3, 1, 1, CCKEY_FUNCTION));
	callchain__fprintf_graph(out, &root, 10, 5, 0, false, &p);
	fclose(out);
	TEST_ASSERT_STR("graph", buf,
			"            |\n"
			"            ---leaf\n"
			"               |          \n"
			"               |--30.00%--0x100\n"
			"               |          \n"
			"                --10.00%--0x200\n"
			"\n");
	free(buf);
	cc_node__free_children(&root);
	free(f);
	return 0;
}

static char *folded(struct cc_node *root, enum chain_value value)
{
	struct callchain_param p = { .mode = CHAIN_FOLDED, .value = value };
	char *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	if (!out)
		return NULL;
	callchain__fprintf_folded(out, root, 4, 0, &p);
	fclose(out);
	return buf;
}

TPERF_TEST(callchain_folded_merge, "report: folded ties in perf's order, merged chains count once")
{
	struct symbol *a = symbol__new(0x10, 0x10, STB_GLOBAL, STT_FUNC, "a");
	struct symbol *b = symbol__new(0x20, 0x10, STB_GLOBAL, STT_FUNC, "b");
	struct symbol *c = symbol__new(0x30, 0x10, STB_GLOBAL, STT_FUNC, "c");
	struct cc_frame ab[] = { { NULL, a, 0x11 }, { NULL, b, 0x21 } };
	struct cc_frame ac[] = { { NULL, a, 0x11 }, { NULL, c, 0x31 } };
	struct cc_node root = { 0 }, other = { 0 };
	char *s;

	TEST_ASSERT_VAL("setup", a && b && c);
	TEST_ASSERT_VAL("append", !cc_node__append(&root, ab, 1, 1, CCKEY_FUNCTION));
	TEST_ASSERT_VAL("append", !cc_node__append(&root, ab, 2, 1, CCKEY_FUNCTION));
	TEST_ASSERT_VAL("append", !cc_node__append(&root, ac, 2, 1, CCKEY_FUNCTION));
	/*
	 * equal periods: the chains through a child before the one ending
	 * above it; children in perf's tree order (a higher address first)
	 */
	s = folded(&root, CCVAL_PERIOD);
	TEST_ASSERT_STR("ties", s, "1 a;c\n1 a;b\n1 a\n");
	free(s);
	/* two samples merged from another entry are one chain: count 1 */
	TEST_ASSERT_VAL("append", !cc_node__append(&other, ab, 2, 1, CCKEY_FUNCTION));
	TEST_ASSERT_VAL("append", !cc_node__append(&other, ab, 2, 1, CCKEY_FUNCTION));
	TEST_ASSERT_VAL("merge", !cc_node__merge(&root, &other, CCKEY_FUNCTION));
	s = folded(&root, CCVAL_COUNT);
	TEST_ASSERT_STR("counts", s, "2 a;b\n1 a;c\n1 a\n");
	free(s);
	s = folded(&root, CCVAL_PERIOD);
	TEST_ASSERT_STR("periods", s, "3 a;b\n1 a;c\n1 a\n");
	free(s);
	TEST_ASSERT_VAL("emptied", !other.nr);
	cc_node__free_children(&root);
	free(a);
	free(b);
	free(c);
	return 0;
}
