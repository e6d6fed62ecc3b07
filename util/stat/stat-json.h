/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading back what `tperf stat -j` wrote (perf's JSON lines, with tperf's
 * "runs", "mean" and "stddev" after -r): one entry per counter and row,
 * for `tperf stat diff` and `--compare`.  The files come from elsewhere (a
 * CI job's saved baseline): everything is checked, nothing trusted.
 */
#ifndef TPERF_STAT_JSON_H
#define TPERF_STAT_JSON_H

#include <stdbool.h>
#include <stddef.h>

/* One line of stat -j: a counter, or one row of it (-A, --per-core ...). */
struct stat_count {
	char *event;		/* "event" */
	char *unit;		/* "unit", "" when absent */
	char *row;		/* the aggregation ("cpu 0", "core S0-D0-C0", ...), "" for none */
	bool counted;		/* a value, not "<not counted>" or "<not supported>" */
	double value;		/* "counter-value" when counted */
	int runs;		/* "runs" (tperf -j -r), 0 when absent */
	double mean, stddev;	/* "mean", "stddev": with runs only */
	double *values;		/* "values": each run's value, in run order (malloc'ed) */
	int nr_values;		/* how many (0: none given) */
	int line;		/* its line in the text, from 1 */
};

struct stat_counts {
	struct stat_count *c;
	int nr;
};

/*
 * Read the JSON lines of @len bytes of @text into @counts (zeroed first;
 * free with stat_counts__exit()).  Blank lines and lines starting with '#'
 * (the "# started on" line of -o) are skipped; every other line must be a
 * JSON object with a string "event" and a "counter-value" that is a number
 * or perf's <not counted> / <not supported>; "runs" (1 to 1000000) comes
 * with a "mean" and a "stddev" (>= 0); no number is beyond 1e100.  Interval rows (-I), a counter and
 * row given twice (an --append file) and a text without a counter are
 * refused.  0, -EINVAL with "line N: what" (or "line N, byte B: what" for
 * text that is not JSON) in @msg, or -ENOMEM.
 */
int stat_counts__parse(struct stat_counts *counts, const char *text, size_t len, char *msg,
		       size_t size);
/*
 * The same from the file @path, a regular file of at most 64 MiB (not a
 * FIFO or a device: -EINVAL, -EFBIG); @msg starts with "'PATH': ".
 */
int stat_counts__read(struct stat_counts *counts, const char *path, char *msg, size_t size);
void stat_counts__exit(struct stat_counts *counts);
/* The entry of @event in row @row ("" for none), or NULL. */
const struct stat_count *stat_counts__find(const struct stat_counts *counts, const char *event,
					   const char *row);
/* "task-clock", or "task-clock (cpu 0)" for a row; in @buf. */
const char *stat_count__name(const struct stat_count *c, char *buf, size_t size);

#endif
