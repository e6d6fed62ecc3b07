/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The list of events of one command, and the CPUs and threads they cover. */
#ifndef TPERF_EVLIST_H
#define TPERF_EVLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/event/evsel.h"
#include "util/lib/debug.h"
#include "util/lib/list.h"

struct target;

/*
 * How parse_events() reads strings into this list; the command sets them
 * before it parses -e.
 */
struct parse_events_opts {
	/* only the terms perf stat accepts (period, name, percore,
	 * metric-id, config*); others give "'freq' is not usable in 'tperf stat'" */
	bool stat_terms;
	/*
	 * Called before a tracepoint whose system starts with "sdt_" is looked
	 * up, so that the SDT markers of a workload can be made uprobes first
	 * (util/probe/probe-sdt.h).  0, or -errno with @msg filled (the event is
	 * then an error with that message).  NULL: no SDT events made.
	 */
	int (*sdt_create)(void *ctx, const char *sys, const char *name, char *msg, size_t size);
	void *sdt_ctx;
	/* out: a tracepoint event made the parser mount tracefs (the command says so) */
	bool tracefs_mounted;
};

struct evlist {
	struct list_head entries;	/* struct evsel, in command-line order */
	int nr_entries;
	int nr_groups;			/* groups of two or more */
	struct cpu_map *cpus;		/* from the target */
	struct thread_map *threads;
	pid_t workload_pid;		/* -1 when there is none */
	struct parse_events_opts parse;
	/* what opening (a fallback) and record's set-up and run have to say; NULL: nothing */
	say_fn *say;
};

struct evlist *evlist__new(void);
void evlist__delete(struct evlist *evlist);
void evlist__add(struct evlist *evlist, struct evsel *evsel);
/* Every event in one group led by the first (-g); nothing for a single event. */
void evlist__set_leader(struct evlist *evlist);
#define evlist__for_each_entry(evlist, evsel) \
	list_for_each_entry(evsel, &(evlist)->entries, node)
static inline struct evsel *evlist__first(struct evlist *e)
{
	return list_first_entry(&e->entries, struct evsel, node);
}
static inline struct evsel *evlist__last(struct evlist *e)
{
	return list_last_entry(&e->entries, struct evsel, node);
}

/*
 * Set evlist->cpus and ->threads from @target (a workload's pid is given
 * later by evlist__set_workload_pid()).  0 or -errno with a message in @buf.
 */
int evlist__create_maps(struct evlist *evlist, const struct target *target,
			char *buf, size_t size);
/* The workload's threads are {pid}, unless -a/-C count whole CPUs. */
void evlist__set_workload_pid(struct evlist *evlist, pid_t pid);

enum {
	EVLIST_OPEN_KEEP_UNSUPPORTED = 1 << 0,	/* stat: unsupported events stay, marked */
	EVLIST_OPEN_FALLBACK = 1 << 1,		/* record: cycles -> cpu-clock */
	EVLIST_OPEN_CPU_MAJOR = 1 << 2,		/* stat: CPU by CPU across the events
						 * (perf stat's order of opens and -vv
						 * lines); else event by event (record) */
};
/*
 * Open every event (groups with their leader; events with their own cpumask
 * on those CPUs).  On failure returns -errno with the message of
 * evsel__open_strerror() for the failing event in @buf.
 * RLIMIT_NOFILE is raised first when evlist__nr_fds() needs it (-EMFILE with
 * the numbers when the hard limit is too low).  With KEEP_UNSUPPORTED,
 * events failing with ENOENT/EOPNOTSUPP/ENODEV/ENXIO (EINVAL for cache and
 * raw events) stay with ->supported false, except the leader of a group of
 * two or more, which is fatal as in perf stat.  A weak group (:W) whose member fails is
 * split into single events and reopened.  -EINVAL when no threads are set
 * (a workload target before evlist__set_workload_pid()).
 */
int evlist__open(struct evlist *evlist, int flags, char *buf, size_t size);
void evlist__close(struct evlist *evlist);
/* Read every open event; members of a PERF_FORMAT_GROUP group come with their leader. */
int evlist__read(struct evlist *evlist);
int evlist__enable(struct evlist *evlist);
int evlist__disable(struct evlist *evlist);
/*
 * Set each event's --filter on all its fds (evsel__apply_filter()), after
 * evlist__open() and before the events are enabled, as perf does.  0, or
 * -errno with perf's message in @buf: failed to set filter "F" on event E
 * with 22 (Invalid argument).
 */
int evlist__apply_filters(struct evlist *evlist, char *buf, size_t size);
/* Number of file descriptors evlist__open() needs. */
size_t evlist__nr_fds(struct evlist *evlist);

#endif
