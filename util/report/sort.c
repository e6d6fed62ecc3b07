// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of the sort keys and value columns, and perf's setup of the
 * printed columns and the output order from --sort and -F/--fields:
 * without a strict -F, overhead (and overhead_children with --children)
 * come first in the order; the default columns are the overheads, -n's
 * Samples and --show-total-period's Period; "+f" adds to them; then the
 * sort keys missing from the columns are printed after them, and the
 * columns missing from the order are ordered after it.  A --sort without
 * keys (perf takes "" so, and trace_fields of a file without tracepoints)
 * leaves the overheads only: every sample of an event in one entry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/report/sort.h"

static const struct {
	const char *name;
	enum sort_key_id id;
} key_names[] = {
	{ "overhead", SORT_OVERHEAD },
	{ "overhead_sys", SORT_OVERHEAD_SYS },
	{ "overhead_us", SORT_OVERHEAD_US },
	{ "overhead_guest_sys", SORT_OVERHEAD_GUEST_SYS },
	{ "overhead_guest_us", SORT_OVERHEAD_GUEST_US },
	{ "overhead_children", SORT_OVERHEAD_CHILDREN },
	{ "sample", SORT_SAMPLE },
	{ "period", SORT_PERIOD },
	{ "pid", SORT_PID },
	{ "tid", SORT_TID },
	{ "comm", SORT_COMM },
	{ "dso", SORT_DSO },
	{ "symbol", SORT_SYM },
	{ "sym", SORT_SYM },
	{ "symoff", SORT_SYMOFF },
	{ "parent", SORT_PARENT },
	{ "cpu", SORT_CPU },
	{ "socket", SORT_SOCKET },
	{ "srcline", SORT_SRCLINE },
	{ "srcfile", SORT_SRCFILE },
	{ "local_weight", SORT_LOCAL_WEIGHT },
	{ "weight", SORT_WEIGHT },
};

static int (*dyn_fn)(const char *name, void *arg);
static void *dyn_arg;

/**
 * sort_key__set_dynamic - names that are not perf's keys go to @fn
 * @fn: gives the SORT_DYN0.. slot of a name (tracepoint keys), or -EINVAL
 * @arg: passed to @fn (NULL @fn: none)
 */
void sort_key__set_dynamic(int (*fn)(const char *name, void *arg), void *arg)
{
	dyn_fn = fn;
	dyn_arg = arg;
}

int sort_key__id(const char *name)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!strcasecmp(name, key_names[i].name))
			return key_names[i].id;
	return dyn_fn ? dyn_fn(name, dyn_arg) : -EINVAL;
}

static bool in_list(const enum sort_key_id *v, int n, enum sort_key_id k)
{
	for (int i = 0; i < n; i++)
		if (v[i] == k)
			return true;
	return false;
}

static int add(enum sort_key_id *v, int *n, enum sort_key_id k)
{
	if (*n == HIST_MAX_COLS)
		return -E2BIG;
	v[(*n)++] = k;
	return 0;
}

/* Append the names of @s ("a,b c") to @v; a bad name goes to @bad. */
static int parse_list(const char *s, enum sort_key_id *v, int *n, char *bad, size_t badsize)
{
	char *copy = strdup(s), *tok, *save = NULL;
	int err = copy ? 0 : -ENOMEM;

	for (tok = copy ? strtok_r(copy, ", ", &save) : NULL; tok && !err;
	     tok = strtok_r(NULL, ", ", &save)) {
		int id = sort_key__id(tok);

		if (id < 0) {
			snprintf(bad, badsize, "%s", tok);
			err = -EINVAL;
		} else {
			err = add(v, n, id);
		}
	}
	free(copy);
	return err;
}

/* perf's prefix_if_not_in: @k goes first unless the order has it. */
static int prefix(struct hist_format *f, enum sort_key_id k)
{
	if (in_list(f->sorts, f->nr_sorts, k))
		return 0;
	if (f->nr_sorts == HIST_MAX_COLS)
		return -E2BIG;
	memmove(f->sorts + 1, f->sorts, f->nr_sorts * sizeof(f->sorts[0]));
	f->sorts[0] = k;
	f->nr_sorts++;
	return 0;
}

static int default_fields(struct hist_format *f, bool children, unsigned int extra)
{
	int err = 0;

	if (children)
		err = add(f->fields, &f->nr_fields, SORT_OVERHEAD_CHILDREN);
	if (!err)
		err = add(f->fields, &f->nr_fields, SORT_OVERHEAD);
	if (!err && (extra & HIST_FMT_CPU_UTIL))
		err = add(f->fields, &f->nr_fields, SORT_OVERHEAD_SYS) ?:
		      add(f->fields, &f->nr_fields, SORT_OVERHEAD_US);
	if (!err && (extra & HIST_FMT_SAMPLES))
		err = add(f->fields, &f->nr_fields, SORT_SAMPLE);
	if (!err && (extra & HIST_FMT_PERIOD))
		err = add(f->fields, &f->nr_fields, SORT_PERIOD);
	return err;
}

/* Each list gets what the other has and it lacks, in order. */
static int cross_append(struct hist_format *f)
{
	int err = 0;

	for (int i = 0; i < f->nr_sorts && !err; i++)
		if (!in_list(f->fields, f->nr_fields, f->sorts[i]))
			err = add(f->fields, &f->nr_fields, f->sorts[i]);
	for (int i = 0; i < f->nr_fields && !err; i++)
		if (!in_list(f->sorts, f->nr_sorts, f->fields[i]))
			err = add(f->sorts, &f->nr_sorts, f->fields[i]);
	for (int i = 0; i < f->nr_sorts && !err; i++)
		if (!sort_key__is_value(f->sorts[i]))
			err = add(f->keys, &f->nr_keys, f->sorts[i]);
	return err;
}

int hist_format__setup(struct hist_format *f, const char *sort, const char *fields, bool children,
		       unsigned int extra, char *bad, size_t badsize)
{
	bool strict = fields && *fields && *fields != '+';
	int err = 0;

	memset(f, 0, sizeof(*f));
	if (bad && badsize)
		*bad = '\0';
	if (sort || !strict)
		err = parse_list(sort ? sort : "comm,dso,sym", f->sorts, &f->nr_sorts, bad, badsize);
	if (!err && !strict) {
		err = prefix(f, SORT_OVERHEAD);
		if (!err && children)
			err = prefix(f, SORT_OVERHEAD_CHILDREN);
		if (!err)
			err = default_fields(f, children, extra);
		if (!err && fields && *fields == '+')
			err = parse_list(fields + 1, f->fields, &f->nr_fields, bad, badsize);
	} else if (!err) {
		err = parse_list(fields, f->fields, &f->nr_fields, bad, badsize);
	}
	if (!err)
		err = cross_append(f);
	f->self_header = children && !strict;
	return err;
}
