// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the kallsyms loader: the text parsed in segments by two
 * threads gives the symbols a plain one-line-at-a-time parse gives.
 */
#include <ctype.h>
#include <errno.h>
#include <elf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/symbol/symbol.h"

/* kallsyms as the loader read it before segments: one symbol__new() per line. */
static int kallsyms_plain(struct symtab *t, const char *text)
{
	char *buf = strdup(text), *line, *save = NULL;

	if (!buf)
		return -ENOMEM;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long addr = 0;
		int digits = 0;
		char *q = line, type;

		while (isxdigit((unsigned char)*q) && digits < 17) {
			addr = addr << 4 | (isdigit((unsigned char)*q) ? *q - '0' : (*q | 0x20) - 'a' + 10);
			q++;
			digits++;
		}
		if (!digits || digits > 16 || *q != ' ' || !q[1] || q[2] != ' ')
			continue;
		type = toupper((unsigned char)q[1]);
		if ((type != 'T' && type != 'W' && type != 'D' && type != 'B') || !q[3] || q[3] == '$')
			continue;
		if (symtab__add(t, symbol__new(addr, 0, type == 'W' ? STB_WEAK :
					       isupper((unsigned char)q[1]) ? STB_GLOBAL : STB_LOCAL,
					       type == 'T' || type == 'W' ? STT_FUNC : STT_OBJECT, q + 3)))
			return -ENOMEM;
	}
	free(buf);
	symtab__fixup(t, true);
	return 0;
}

/* A kallsyms text of @n lines: aliases, all types, modules (@sorted or not), bad lines. */
static char *kallsyms_text(unsigned int n, bool sorted, u64 *ref)
{
	static const char types[] = "TTTtttWwDdBbrRAa";
	size_t size = (size_t)n * 64 + 1, len = 0;
	char *text = malloc(size);
	unsigned int seed = 1;
	u64 a = 0xffffffff81000000ull;

	if (!text)
		return NULL;
	for (unsigned int i = 0; i < n; i++) {
		unsigned int r = (seed = seed * 1103515245 + 12345) >> 8;

		if (r % 5)
			a += 16 * (r % 64);		/* else an alias */
		if (i == n / 2 || i == n / 2 + n / 4) {	/* the first one counts */
			len += snprintf(text + len, size - len, "%016llx t the_ref\n",
					(unsigned long long)a);
			if (i == n / 2)
				*ref = a;
		} else if (r % 97 == 0 && !sorted)
			len += snprintf(text + len, size - len, "%llx %c short_%u\n",
					(unsigned long long)(a & 0xfffff), types[r % 16], i);
		else if (r % 97 == 0 && i <= n - n / 8)
			len += snprintf(text + len, size - len, "%016llX %c upper_%u\n",
					(unsigned long long)a, types[r % 16], i);
		else if (r % 83 == 0)		/* not hex: skipped */
			len += snprintf(text + len, size - len, "%08llx%s%06llx T bad_%u\n",
					(unsigned long long)(a >> 32), r % 2 ? "zz" : "G:",
					(unsigned long long)(a & 0xffffff), i);
		else if (r % 89 == 0)
			len += snprintf(text + len, size - len, "%016llx T\n", (unsigned long long)a);
		else if (i > n - n / 8)
			len += snprintf(text + len, size - len, "%016llx %c m_%u\t[mod%u]\n",
					(unsigned long long)(sorted ? a + 0x3e000000ull :
					0xffffffffc8000000ull - (a - 0xffffffff81000000ull)),
					types[r % 16], i, r % 3);
		else
			len += snprintf(text + len, size - len, "%016llx %c %s%u\n", (unsigned long long)a,
					types[r % 16], r % 7 ? "fn_" : r % 2 ? "__x_" : "[br]_", i);
	}
	return text;
}

struct kload_arg {
	struct kallsyms_load *l;
};

static void *kload_work(void *arg)
{
	kallsyms_load__work(((struct kload_arg *)arg)->l);
	return NULL;
}

TPERF_TEST(symtab_kallsyms_segments, "report: kallsyms parsed in segments by two threads, as in one go")
{
	for (int sorted = 0; sorted < 2; sorted++) {
		struct symtab t = { 0 }, ref = { 0 };
		u64 addr = 0, ref_addr = 0;
		char path[] = "/tmp/tperf-kallsyms-XXXXXX", *text = kallsyms_text(60000, sorted, &ref_addr);
		struct kload_arg arg;
		pthread_t th;
		int nr;

		TEST_ASSERT_VAL("text", text && !test_tmp_file(path, text));
		TEST_ASSERT_VAL("plain", !kallsyms_plain(&ref, text));
		free(text);
		arg.l = kallsyms_load__open(path, "the_ref", NULL);
		unlink(path);
		TEST_ASSERT_VAL("open", arg.l);
		TEST_ASSERT_VAL("thread", !pthread_create(&th, NULL, kload_work, &arg));
		kallsyms_load__work(arg.l);
		pthread_join(th, NULL);
		nr = kallsyms_load__finish(arg.l, &t, &addr, NULL);
		TEST_ASSERT_VAL("loaded", nr > 40000);
		TEST_ASSERT_VAL("reference", addr == ref_addr);
		TEST_ASSERT_EQUAL("count", (int)t.nr, (int)ref.nr);
		for (size_t i = 0; i < t.nr; i++) {
			const struct symbol *x = t.syms[i], *y = ref.syms[i];

			if (x->start != y->start || x->end != y->end || x->binding != y->binding ||
			    x->type != y->type || strcmp(x->name, y->name) ||
			    !(x->flags & SYMBOL_KMODULE) != !strchr(x->name, '\t')) {
				fprintf(stderr, "symbol %zu: %s %llx-%llx, expected %s %llx-%llx\n", i,
					x->name, (unsigned long long)x->start,
					(unsigned long long)x->end, y->name,
					(unsigned long long)y->start, (unsigned long long)y->end);
				TEST_ASSERT_VAL("same symbol", 0);
			}
		}
		symtab__exit(&t);
		symtab__exit(&ref);
	}
	return 0;
}

TPERF_TEST(symtab_kallsyms_bounded, "report: kallsyms from a device, a FIFO or a 3 GB file refused, long lines skipped")
{
	char *dir = test_mkdtemp(), fifo[128], big[128], path[] = "/tmp/tperf-kallsyms-XXXXXX";
	char *text = malloc(16384), msg[256];
	struct symtab t = { 0 };
	size_t len;
	int nr, ret = TEST_FAIL;

	TEST_ASSERT_VAL("setup", dir && text);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(big, sizeof(big), "%s/big", dir);
	if (mkfifo(fifo, 0600) || test_sparse_file(big, 3ll << 30))
		goto out;
	/* refused before a byte is read: the FIFO has no writer, open() must not wait */
	errno = 0;
	if (kallsyms_load__open("/dev/zero", NULL, NULL) || errno != EINVAL ||
	    kallsyms_load__open(fifo, NULL, NULL) || errno != EINVAL ||
	    kallsyms_load__open(dir, NULL, NULL) || errno != EINVAL)
		goto out;
	if (kallsyms_load__open(big, NULL, NULL) || errno != EFBIG)
		goto out;
	kallsyms__strerror(-EFBIG, big, msg, sizeof(msg));
	if (!strstr(msg, "/big' is larger than 256 MiB"))
		goto out;
	if (kallsyms__check("/dev/zero", msg, sizeof(msg)) != -EINVAL ||
	    strcmp(msg, "'/dev/zero' is not a regular file") ||
	    kallsyms__check(big, msg, sizeof(msg)) != -EFBIG || kallsyms__check("/dev/null", msg, sizeof(msg)))
		goto out;
	if (symtab__load_kallsyms(&t, "/dev/null") != 0 || t.nr)	/* empty, as perf */
		goto out;
	/* a line of KALLSYMS_LINE_MAX bytes is read, a longer one skipped */
	len = snprintf(text, 16384, "ffffffff81000000 T first\nffffffff81000100 T ");
	memset(text + len, 'a', KALLSYMS_LINE_MAX - 19);
	len += KALLSYMS_LINE_MAX - 19;
	len += snprintf(text + len, 16384 - len, "\nffffffff81000200 T ");
	memset(text + len, 'b', KALLSYMS_LINE_MAX - 18);
	len += KALLSYMS_LINE_MAX - 18;
	snprintf(text + len, 16384 - len, "\nffffffff81000300 T last\n");
	if (test_tmp_file(path, text))
		goto out;
	nr = symtab__load_kallsyms(&t, path);
	unlink(path);
	if (nr != 3 || strcmp(t.syms[0]->name, "first") || t.syms[1]->name[0] != 'a' ||
	    strlen(t.syms[1]->name) != KALLSYMS_LINE_MAX - 19 || strcmp(t.syms[2]->name, "last")) {
		fprintf(stderr, "%d symbols\n", nr);
		goto out;
	}
	ret = TEST_OK;
out:
	symtab__exit(&t);
	free(text);
	test_rm_rf(dir);
	return ret;
}
