/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tperf ftrace report's counting: every line of a trace.dat counted by the
 * values of its --sort keys (event, sym, comm, pid, cpu, SYS:EVENT.field),
 * rows ordered by count; with --sort sym the function_graph statistics
 * (ftrace-show.h) beside.  The command prints the table.
 */
#ifndef TPERF_FTRACE_REPORT_H
#define TPERF_FTRACE_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/trace/ftrace-show.h"

struct report_row {
	char *key;			/* the keys' values, tab-separated */
	unsigned long long count;
};

struct ftrace_report {
	char **keys;			/* the --sort keys, in keys_buf */
	int nkeys;
	char *keys_buf;
	void *tree;
	struct report_row **rows;
	size_t nrows, cap;
	unsigned long long total;
	int err;
	struct ftrace_graph_stats *graph;	/* with --sort sym */
};


/* The keys of @sort ("event,comm"); 0 or -ENOMEM. */
int ftrace_report__init(struct ftrace_report *r, const char *sort);
/* for_each_line()'s callback (@arg: the report): count @line; r->err on failure */
int ftrace_report__add_line(struct trace_dat *td, struct ftrace_line *line, void *arg);
/* Rows by count, most first (ties by key); graph functions by total time. */
void ftrace_report__sort(struct ftrace_report *r);
void ftrace_report__sort_graph(struct ftrace_graph_stats *g);
/* Only function or function_graph events were counted (sorted by event). */
bool ftrace_report__functions_only(const struct ftrace_report *r);
void ftrace_report__exit(struct ftrace_report *r);

#endif
