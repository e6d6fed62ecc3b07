// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the SDT reader (util/probe/sdt.c): the input is taken as
 * the contents of a .note.stapsdt section (64-bit, then 32-bit), and every
 * marker's arguments are converted to uprobe fetch arguments, whose text
 * must then hold no character uprobe_events would misread.  Seeds:
 * tests/fuzz/corpus/stapsdt/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/probe/sdt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct sdt_note *n)
{
	char out[4096];

	if (sdt__convert_args(n->args, out, sizeof(out)) < 0)
		return;
	for (const char *c = out; *c; c++)
		if ((unsigned char)*c < ' ' || strchr("\n;&|`$'\"", *c))
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int is64 = 1; is64 >= 0; is64--) {
		struct sdt_note *notes = NULL;
		int nr = 0;

		if (sdt__parse_notes(data, size, is64, &notes, &nr) == 0)
			for (int i = 0; i < nr; i++)
				check(&notes[i]);
		sdt__free_notes(notes, nr);
	}
	return 0;
}
