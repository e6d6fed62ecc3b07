// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for util/srcline (libdw line tables) and util/sort (columns). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/symbol/dso.h"
#include "util/report/hist.h"
#include "util/symbol/srcline.h"

/* The file offset of @addr in this program (its mapping in /proc/self/maps). */
static int self_offset(unsigned long addr, unsigned long *off)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long start, end, pgoff;
	char line[512];
	int err = -1;

	if (!f)
		return -1;
	while (err && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %lx", &start, &end, &pgoff) == 3 &&
		    addr >= start && addr < end) {
			*off = addr - start + pgoff;
			err = 0;
		}
	fclose(f);
	return err;
}

static int __attribute__((noinline)) probe_line(void)
{
	return 0;	/* the line table puts the function here or just above */
}
static const unsigned int probe_line_end = __LINE__ - 1;	/* the closing brace */

static int test_srcline_self(void)
{
	char path[4096], want[64];
	unsigned long off;
	const char *s, *file;
	unsigned int line;
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	struct dso *d;

	if (n <= 0 || self_offset((unsigned long)probe_line, &off))
		return test_skip("cannot find this program's mapping");
	path[n] = '\0';
	d = dso__new(path, DSO_USER, 0);
	TEST_ASSERT_VAL("dso", d != NULL);
	d->bin_path = strdup(path);
	if (srcline__find(d, off, &file, &line)) {
		dso__delete(d);
		return test_skip("tperf was built without debug info");
	}
	TEST_ASSERT_STR("file", file, "srcline.c");
	TEST_ASSERT_VAL("line in probe_line", line >= probe_line_end - 3 && line <= probe_line_end);
	snprintf(want, sizeof(want), "srcline.c:%u", line);
	s = dso__srcline(d, off, NULL);
	TEST_ASSERT_STR("srcline", s, want);
	TEST_ASSERT_VAL("cached", dso__srcline(d, off, NULL) == s);
	TEST_ASSERT_STR("srcfile", dso__srcfile(d, off), "srcline.c");
	dso__delete(d);
	return 0;
}
TPERF_TEST(test_srcline_self, "srcline: file:line of a function of tperf from its line table");

static int test_srcline_unknown(void)
{
	struct dso *d = dso__new("/nonexistent/libx.so", DSO_USER, 0);
	struct symbol *sym = symbol__new(0x1000, 0x100, 0, 0, "fn");

	TEST_ASSERT_VAL("objects", d && sym);
	TEST_ASSERT_STR("sym+decimal", dso__srcline(d, 0x1010, sym), "fn+16");
	TEST_ASSERT_STR("dso[hex]", dso__srcline(d, 0x2010, NULL), "libx.so[2010]");
	TEST_ASSERT_STR("no file", dso__srcfile(d, 0x1010), "");
	free(sym);
	dso__delete(d);
	return 0;
}
TPERF_TEST(test_srcline_unknown, "srcline: perf's strings without line information");

static int test_hist_format(void)
{
	struct hist_format f;
	char bad[64];

	/* default: Children, Self, then comm,dso,sym; ordered by them */
	TEST_ASSERT_EQUAL("default", hist_format__setup(&f, NULL, NULL, true, 0, bad,
							 sizeof(bad)), 0);
	TEST_ASSERT_EQUAL("fields", f.nr_fields, 5);
	TEST_ASSERT_EQUAL("first", f.fields[0], SORT_OVERHEAD_CHILDREN);
	TEST_ASSERT_EQUAL("keys", f.nr_keys, 3);
	TEST_ASSERT_VAL("Self", f.self_header);
	/* strict -F: those columns only, no other key */
	hist_format__setup(&f, NULL, "sym,overhead", true, 0, bad, sizeof(bad));
	TEST_ASSERT_EQUAL("strict fields", f.nr_fields, 2);
	TEST_ASSERT_EQUAL("strict order", f.sorts[0], SORT_SYM);
	TEST_ASSERT_EQUAL("strict keys", f.nr_keys, 1);
	TEST_ASSERT_VAL("no Self", !f.self_header);
	/* -F with --sort: the sort keys follow the fields */
	hist_format__setup(&f, "dso", "overhead,sym", false, 0, bad, sizeof(bad));
	TEST_ASSERT_EQUAL("with sort", f.nr_fields, 3);
	TEST_ASSERT_EQUAL("dso last", f.fields[2], SORT_DSO);
	TEST_ASSERT_EQUAL("dso first in order", f.sorts[0], SORT_DSO);
	/* +fields, -n, --show-total-period */
	hist_format__setup(&f, NULL, "+period", false, HIST_FMT_SAMPLES | HIST_FMT_PERIOD, bad,
			   sizeof(bad));
	TEST_ASSERT_EQUAL("plus", f.fields[1], SORT_SAMPLE);
	TEST_ASSERT_EQUAL("plus period", f.fields[2], SORT_PERIOD);
	TEST_ASSERT_EQUAL("bad", hist_format__setup(&f, "comm,nope", NULL, false, 0,
						     bad, sizeof(bad)), -EINVAL);
	TEST_ASSERT_STR("bad name", bad, "nope");
	return 0;
}
TPERF_TEST(test_hist_format, "report: --sort and -F columns and order as perf sets them up");
