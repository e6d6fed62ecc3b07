// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the name filters of tperf probe -F/--filter
 * (util/probe/probe-filter.c): an expression parsed, or refused with a position
 * inside it; a parsed one matched against a few names, then or-ed with
 * itself.  Seeds: tests/fuzz/corpus/probe-filter/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/probe/probe-filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = { "main", "_init", "printf@plt", "ns::C::add", "" };
	struct probe_filter *f = NULL;
	char *s = malloc(size + 1);
	int pos;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (probe_filter__add(&f, s, &pos) == 0) {
		bool m[5];

		for (int i = 0; i < 5; i++)
			m[i] = probe_filter__match(f, names[i]);
		/* F | F matches what F matches */
		if (probe_filter__add(&f, s, &pos))
			abort();
		for (int i = 0; i < 5; i++)
			if (probe_filter__match(f, names[i]) != m[i])
				abort();
	} else if (pos < 0 || (size_t)pos > strlen(s) || f) {
		abort();
	}
	probe_filter__delete(f);
	free(s);
	return 0;
}
