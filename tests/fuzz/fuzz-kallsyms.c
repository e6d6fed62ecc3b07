// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the kallsyms reader (util/symbol/symbol.c): the input is a
 * kallsyms file (a build-id cache's copy may come from anywhere), loaded
 * from a memfd as a mapped regular file, with and without a reference
 * symbol.  The symbols must come out sorted, each start before its end.
 * Seeds: tests/fuzz/corpus/kallsyms/.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "util/symbol/symbol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(struct symtab *t)
{
	for (size_t i = 0; i < t->nr; i++) {
		/* perf's rounding of an end to the next page wraps at the top */
		if (t->syms[i]->start > t->syms[i]->end && t->syms[i]->start < UINT64_MAX - 8192)
			abort();
		if (i && t->syms[i - 1]->start > t->syms[i]->start)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = fuzz_input_file("kallsyms", data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	for (int with_ref = 0; with_ref < 2; with_ref++) {
		struct symtab t = { 0 };
		u64 addr = 0;

		if (symtab__load_kallsyms_ref(&t, path, with_ref ? "_text" : NULL, &addr) >= 0)
			check(&t);
		symtab__exit(&t);
	}
	close(fd);
	return 0;
}
