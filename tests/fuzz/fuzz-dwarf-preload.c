// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the DWARF preload's walk of a data section
 * (util/symbol/dwarf-preload.c): the input is the start of a perf.data data
 * section.  Each name it reports must be a string inside the input, an
 * absolute path; the walk must stay inside the input.
 * Seeds: tests/fuzz/corpus/dwarf-preload/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/symbol/dwarf-preload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const char *start, *end;
};

static void check(const char *name, void *arg)
{
	const struct input *in = arg;

	if (name < in->start || name >= in->end || name[0] != '/' ||
	    !memchr(name, '\0', in->end - name))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* records are 8-byte aligned in a file: copy to an aligned buffer */
	uint64_t *copy = malloc(size + 8);
	struct input in;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	in.start = (const char *)copy;
	in.end = in.start + size;
	if (dwarf_preload__mapped_files(copy, size, NULL, check, &in) > size)
		abort();
	/* and at an odd place: nothing there is looked at */
	if (size > 1 && dwarf_preload__mapped_files((const char *)copy + 1, size - 1, NULL, check,
						    &in) > size - 1)
		abort();
	free(copy);
	return 0;
}
