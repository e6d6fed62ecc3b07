/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What to profile: a workload, processes, threads, CPUs or everything. */
#ifndef TPERF_TARGET_H
#define TPERF_TARGET_H

#include <stdbool.h>
#include <stddef.h>

struct target {
	const char *pid;	/* -p */
	const char *tid;	/* -t */
	const char *cpu_list;	/* -C */
	bool system_wide;	/* -a */
	bool no_inherit;	/* --no-inherit */
};

/*
 * Reject contradictory combinations (-p with -a ...): 0, or -EINVAL with a
 * message in @buf.  As perf, -p/-t win over -a and -C: those are cleared and
 * 0 is returned with a warning for the caller to print in @buf ("" if none).
 * Malformed -p/-t/-C lists are -EINVAL.
 */
int target__validate(struct target *t, char *buf, size_t size);
static inline bool target__has_task(const struct target *t) { return t->pid || t->tid; }
static inline bool target__has_cpu(const struct target *t) { return t->system_wide || t->cpu_list; }
/* No target given: a workload is profiled. */
static inline bool target__none(const struct target *t)
{
	return !target__has_task(t) && !target__has_cpu(t);
}

#endif
