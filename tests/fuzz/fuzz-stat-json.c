// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for what tperf stat diff reads (util/stat/stat-json.c
 * through util/lib/json.c) and the comparison of what it read
 * (util/stat/stat-compare.c).  The input is a base file, and after a NUL
 * byte the new one (without one, the base against itself).  A set
 * compared with itself has no change; whatever the numbers, the verdicts
 * add up and an interval holds its change.  Seeds: tests/fuzz/corpus/stat-json/.
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/stat/stat-compare.h"
#include "util/stat/stat-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct stat_counts *a, const struct stat_counts *b, bool same)
{
	const char *hib[] = { a->nr ? a->c[0].event : NULL, NULL };
	struct stat_diff_opts o = { .threshold = 5, .confidence = 95, .higher_is_better = hib,
				    .base_name = "a", .new_name = "b" };
	struct stat_diff d;
	char msg[256];
	int regressions = 0;

	if (stat_diff__compute(&d, a, b, &o, msg, sizeof(msg))) {
		if (!msg[0] || d.rows || d.nr)
			abort();
		return;
	}
	for (int i = 0; i < d.nr; i++) {
		const struct stat_diff_row *r = &d.rows[i];

		regressions += r->verdict == STAT_REGRESSION;
		if (same && r->verdict != STAT_NOT_SIGNIFICANT)
			abort();
		if (!(r->lo <= r->w.diff && r->w.diff <= r->hi) && isfinite(r->w.diff))
			abort();
	}
	if (regressions != d.nr_regressions)
		abort();
	stat_diff__exit(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *nul = memchr(data, '\0', size);
	size_t la = nul ? (size_t)(nul - text) : size;
	struct stat_counts a, b;
	char msg[256];

	if (stat_counts__parse(&a, text, la, msg, sizeof(msg))) {
		if (!msg[0] || a.nr || a.c)
			abort();
		return 0;
	}
	check(&a, &a, true);
	if (nul && !stat_counts__parse(&b, nul + 1, size - la - 1, msg, sizeof(msg))) {
		check(&a, &b, false);
		stat_counts__exit(&b);
	}
	stat_counts__exit(&a);
	return 0;
}
