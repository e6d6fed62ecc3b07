/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sort keys and value columns by name, and perf's printed columns and
 * output order from --sort and -F/--fields (sort.c).  The histogram
 * (hist.h) sorts by these; nothing here knows the histogram.
 */
#ifndef TPERF_SORT_H
#define TPERF_SORT_H

#include <stdbool.h>
#include <stddef.h>

/* SORT_DYN0.. are tracepoint keys (trace, event fields): util/report/sort-trace.h */
#define SORT_DYN_MAX 64
enum sort_key_id {
	SORT_COMM, SORT_DSO, SORT_SYM, SORT_PID, SORT_TID, SORT_CPU,
	SORT_SYMOFF, SORT_SRCLINE, SORT_SRCFILE, SORT_PARENT, SORT_SOCKET,
	SORT_WEIGHT, SORT_LOCAL_WEIGHT,
	SORT_DYN0, SORT_DYN_LAST = SORT_DYN0 + SORT_DYN_MAX - 1,
	/* columns that are not keys (perf's hpp fields): values of an entry */
	SORT_OVERHEAD, SORT_OVERHEAD_SYS, SORT_OVERHEAD_US, SORT_OVERHEAD_GUEST_SYS,
	SORT_OVERHEAD_GUEST_US, SORT_OVERHEAD_CHILDREN, SORT_SAMPLE, SORT_PERIOD,
	SORT_NR_KEYS
};

/* Is @k a value column (overhead, sample, period) rather than a key? */
static inline bool sort_key__is_value(int k)
{
	return k >= SORT_OVERHEAD && k <= SORT_PERIOD;
}

#define HIST_MAX_COLS (SORT_DYN_MAX + 32)

/*
 * The columns printed and the output order, from --sort and -F/--fields as
 * perf sets them up (hist_format__setup in sort.c).
 */
struct hist_format {
	enum sort_key_id fields[HIST_MAX_COLS];	/* printed, in this order */
	int nr_fields;
	enum sort_key_id sorts[HIST_MAX_COLS];	/* the output order */
	int nr_sorts;
	enum sort_key_id keys[HIST_MAX_COLS];	/* identity: the keys among sorts */
	int nr_keys;
	bool self_header;			/* overhead is "Self" beside "Children" */
};

/** sort_key__id - the key or column named @name, or -EINVAL */
int sort_key__id(const char *name);

/**
 * sort_key__set_dynamic - let sort_key__id() ask @fn for names it does not
 * know (report's tracepoint keys: trace, [sys:event.]field); NULL: none
 */
void sort_key__set_dynamic(int (*fn)(const char *name, void *arg), void *arg);

/**
 * hist_format__setup - perf's columns and output order
 * @sort: --sort, or NULL (perf's default, "comm,dso,sym")
 * @fields: -F/--fields, or NULL; "+a,b" adds to the default columns
 * @children: the Children column is there (--children in effect)
 * @extra: the default columns' extras, HIST_FMT_* (-n, --show-total-period,
 * --show-cpu-utilization)
 * Return: 0, -EINVAL with the bad name in @bad (of @badsize bytes).
 */
int hist_format__setup(struct hist_format *f, const char *sort, const char *fields, bool children,
		       unsigned int extra, char *bad, size_t badsize);

#define HIST_FMT_SAMPLES	1u	/* -n: Samples after the overhead */
#define HIST_FMT_PERIOD		2u	/* --show-total-period: Period */
#define HIST_FMT_CPU_UTIL	4u	/* --show-cpu-utilization: sys, usr */

#endif
