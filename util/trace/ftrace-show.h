/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Turning trace.dat events into text lines (show) and counts (report).
 */
#ifndef TPERF_FTRACE_SHOW_H
#define TPERF_FTRACE_SHOW_H

#include <stdint.h>

#include "util/trace/trace-dat.h"

/* Which events `show` and `report` keep. */
struct ftrace_filter {
	int cpu;		/* -1: all */
	int pid;		/* -1: all */
	const char *comm;	/* NULL: all */
	const char *event;	/* glob on "sys:name" or "name", NULL: all */
	uint64_t start, stop;	/* ns; stop 0: no end */
};

/* One decoded event. */
struct ftrace_line {
	struct tep_record rec;
	struct tep_event *event;	/* NULL: unknown type */
	int pid;
	const char *comm;
	int buffer;			/* of trace_dat.buffer_names */
	int leaf;			/* a funcgraph_entry whose exit came next: */
	unsigned long long leaf_ns;	/*   shown as "func();" with this duration */
};

enum { FTRACE_GRAPH_NONE, FTRACE_GRAPH_ENTRY, FTRACE_GRAPH_EXIT };

/**
 * ftrace_show__graph - what a function_graph record holds
 * @func, @depth: its function and depth
 * @ns: for an exit, the call's duration (rettime - calltime)
 * Returns FTRACE_GRAPH_ENTRY, FTRACE_GRAPH_EXIT, or FTRACE_GRAPH_NONE for
 * other events.
 */
int ftrace_show__graph(struct ftrace_line *l, unsigned long long *func,
		       unsigned long long *depth, unsigned long long *ns);

/**
 * ftrace_show__decode - fill @line from @ev of @td
 * Returns 0, or -EINVAL when the record is too short for its header.
 */
int ftrace_show__decode(struct trace_dat *td, const struct trace_dat_event *ev,
			struct ftrace_line *line);

/**
 * ftrace_show__match - whether @line passes @f
 */
int ftrace_show__match(struct trace_dat *td, const struct ftrace_line *line,
		       const struct ftrace_filter *f);

/**
 * ftrace_show__format - the text of @line, in trace-cmd report's layout, or
 *	with @latency the kernel's `trace` layout with the irqs-off, need-resched,
 *	hardirq/softirq and preempt-depth columns
 */
void ftrace_show__format(struct trace_dat *td, struct ftrace_line *line, int latency,
			 struct trace_seq *s);

/**
 * ftrace_show__parse_time - "START,STOP" in seconds (either may be empty)
 * Returns 0 or -EINVAL.
 */
int ftrace_show__parse_time(const char *s, uint64_t *start, uint64_t *stop);

/* Per-function statistics of a function_graph trace (funcgraph_exit). */
struct ftrace_graph_func {
	unsigned long long addr, calls, total_ns, self_ns;
};

struct ftrace_graph_stats {
	struct ftrace_graph_func *funcs;
	size_t nr, cap;
	unsigned long long child[4096][32];	/* per CPU (mod 4096), per depth */
};

/**
 * ftrace_graph_stats__add - account a funcgraph_exit @line (others ignored):
 *	total = rettime - calltime, self = total minus its callees' totals
 * Returns 0 or -ENOMEM.
 */
int ftrace_graph_stats__add(struct ftrace_graph_stats *st, struct ftrace_line *line);

#endif
