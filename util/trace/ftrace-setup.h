/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tperf ftrace's set-up of its tracefs instance (tracefs-instance.h), in
 * perf ftrace's order: tracing off, the tracer and its function filters
 * and options, the events (globs, each -e with its --filter), the buffer
 * size, the clock, the CPU mask, the pid (and its children with
 * --inherit).  Every write goes through the instance, which restores it.
 */
#ifndef TPERF_FTRACE_SETUP_H
#define TPERF_FTRACE_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/lib/parse-options.h"

struct ftrace_setup {
	const char *tracer;		/* function, function_graph or nop */
	const char *func_opts, *graph_opts;	/* --func-opts, --graph-opts: "a,b" */
	const struct string_list *events;	/* -e: sys:name globs */
	const struct string_list *filters;	/* the --filter of each -e (NULL: none) */
	const struct string_list *funcs, *nofuncs, *gfuncs, *nogfuncs;	/* -T, -N, -G, -g */
	int buffer_kb;			/* -m, or 0 */
	const char *clock;		/* --clock, or NULL */
	bool inherit;			/* --inherit: the children of @pid too */
	pid_t pid;			/* the process traced, or 0 */
	const int *cpus;		/* -C's CPUs, @ncpus of them (0: all) */
	int ncpus;
};

/*
 * Write @s into the instance, tracefs at @mnt; the events enabled go to
 * @names ("sys/name").  0, or -errno with the message in @msg.
 */
int ftrace_setup__apply(const struct ftrace_setup *s, const char *mnt, struct string_list *names,
			char *msg, size_t size);

#endif
