// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <string.h>

#include "util/lib/levenshtein.h"

/* Edit distance between @a and @b (insert, delete, substitute, swap: cost 1). */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *base, *prev2, *prev, *cur, d;

	base = calloc(3 * (lb + 1), sizeof(int));
	if (!base)
		return (int)(la > lb ? la : lb);
	prev2 = base;
	prev = prev2 + lb + 1;
	cur = prev + lb + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = (int)i;
		for (size_t j = 1; j <= lb; j++) {
			int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			int del = prev[j] + 1, ins = cur[j - 1] + 1;
			int best = sub < del ? sub : del;

			if (ins < best)
				best = ins;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    prev2[j - 2] + 1 < best)
				best = prev2[j - 2] + 1;
			cur[j] = best;
		}
		int *t = prev2;

		prev2 = prev;
		prev = cur;
		cur = t;
	}
	d = prev[lb];
	free(base);
	return d;
}

const char *closest_match(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	int best_d = 1 << 30;
	size_t wl = strlen(word);

	if (!wl)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t cl = strlen(cands[i]);
		size_t longer = wl > cl ? wl : cl;
		int d, limit;

		if (!strncmp(cands[i], word, wl))
			d = 0;
		else
			d = edit_distance(word, cands[i]);
		limit = (int)(longer / 3);
		if (limit > 3)
			limit = 3;
		if (limit < 1)
			limit = 1;
		if (d <= limit && d < best_d) {
			best = cands[i];
			best_d = d;
		}
	}
	return best;
}
