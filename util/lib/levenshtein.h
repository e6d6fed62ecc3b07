/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef TPERF_LEVENSHTEIN_H
#define TPERF_LEVENSHTEIN_H

#include <stddef.h>


/**
 * closest_match - the candidate nearest to @word, or NULL when none is close
 * @word: what the user typed
 * @cands: candidate names
 * @n: number of candidates
 *
 * A candidate is close when @word is a prefix of it, or when the distance is
 * at most a third of the longer length (and at most 3).
 */
const char *closest_match(const char *word, const char *const *cands, size_t n);

#endif
