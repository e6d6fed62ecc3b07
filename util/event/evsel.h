/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One event selector: a perf_event_attr and everything needed to open it on
 * a set of CPUs and threads, read it and name it.  Built by parse-events
 * (util/event/parse-events.c), opened and read by util/event/evsel.c, aggregated and
 * printed by util/stat*.c.
 */
#ifndef TPERF_EVSEL_H
#define TPERF_EVSEL_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/lib/list.h"

struct cpu_map;
struct thread_map;
struct pmu;
struct evlist;
struct powercap_event;

/* One read of a counter: value, time enabled, time running. */
struct counts_values {
	uint64_t val, ena, run;
};

struct evsel {
	struct list_head node;
	struct evlist *evlist;
	int idx;			/* position in the evlist, from 0 */
	struct perf_event_attr attr;
	char *name;			/* as perf shows it: "cycles:u", "msr/tsc/",
					 * "sched:sched_switch", or the name= term */
	struct evsel *leader;		/* itself when not in a group */
	int nr_members;			/* in a leader: members including itself */
	char *group_name;		/* "{a,b}" groups have none; NULL */

	/* from the PMU (sysfs) or the alias */
	struct pmu *pmu;		/* NULL for the legacy types' symbolic names */
	double scale;			/* counts are multiplied by it (1.0) */
	const char *unit;		/* "" or "Joules", "MiB" ... */
	bool per_pkg, snapshot;
	struct cpu_map *own_cpus;	/* the PMU's cpumask: only these CPUs, or NULL */
	bool requires_cpu;		/* cannot be per-thread (uncore, msr, power) */
	bool held_disabled;		/* evlist__open() enables it when its group is open */
	bool name_term;			/* the name came from a name= term */
	bool auto_merge_stats;		/* from a name several PMUs have ("uncore_imc/x/",
					 * a bare alias): stat merges their counts */

	/* modifiers, as written */
	bool weak_group;		/* :W */
	bool sample_read_leader;	/* :S */
	bool pinned_group;		/* :D */
	int precise_max;		/* :P */
	bool exclude_GH;		/* :G or :H was written (group modifiers) */

	/*
	 * Terms of PMU/.../ and sym/.../ that the command applies (perf's
	 * "config terms"): record uses them, stat only allows period, name,
	 * percore and metric-id (see struct parse_events_opts, evlist.h).
	 */
	struct evsel_config_terms {
		bool period_set, freq_set;	/* the later of the two only */
		uint64_t period, freq;	/* period=N, freq=N */
		int time;		/* time=0|1: sample TIME; -1 unset */
		int inherit;		/* -1 unset, 0 no-inherit, 1 inherit */
		int overwrite;		/* -1 unset, 0 no-overwrite, 1 overwrite */
		int max_stack;		/* -1 unset */
		uint32_t stack_size;	/* 0 unset */
		uint64_t aux_sample_size;	/* 0 unset */
		bool percore, aux_output;
		char call_graph[16];	/* "fp", "dwarf", "lbr", "no" or "" */
		char metric_id[64];	/* or "" */
		char branch_type[64];	/* branch_type=any, "no" or "" */
		uint64_t branch_sample_type;	/* its PERF_SAMPLE_BRANCH_* bits */
	} terms;

	/* tracepoints */
	char *tp_sys, *tp_name;		/* "sched", "sched_switch" */
	char *filter;			/* --filter expressions, "(a) && (b)" */
	bool cmdline_group_boundary;	/* the last event of one -e option */

	/* -G, --for-each-cgroup: count in this cgroup only (pid = its folder's fd) */
	int cgroup_fd;			/* -1: no cgroup */
	char *cgroup_name;		/* as given ("/" the root), NULL */

	/* RAPL through powercap (no "power" PMU): values come from sysfs */
	struct powercap_event *powercap;

	/* open state (util/event/evsel.c) */
	struct cpu_map *cpus;		/* the CPUs it is open on ({-1}: any) */
	struct thread_map *threads;	/* the threads ({-1}: all) */
	int *fd;			/* [cpu_idx * threads->nr + thread_idx], -1 if closed */
	uint64_t *id;			/* the kernel's event ids, same layout */
	struct counts_values *counts;	/* last read, same layout (raw, unscaled) */
	bool supported;			/* opened on at least one CPU/thread */
	int open_err;			/* the errno of a failed open (positive), 0 */
	int open_err_cpu;		/* where it failed: the CPU (-1: any) ... */
	pid_t open_err_pid;		/* ... and the thread (-1: all), for messages */
	uint64_t powercap_t0;		/* powercap: CLOCK_MONOTONIC ns at start */
	int *powercap_zone;		/* powercap: zone read for each cpu_idx */
	bool powercap_stopped;		/* powercap: disabled, counts frozen */

	void *priv;			/* the command's own data (stat: running stats) */
};

struct evsel *evsel__new(const struct perf_event_attr *attr);
void evsel__delete(struct evsel *evsel);
/*
 * Count @evsel in cgroup @name only (opened through util/event/cgroup.h);
 * an earlier cgroup is replaced.  0 or -errno with @msg filled.
 */
int evsel__set_cgroup(struct evsel *evsel, const char *name, char *msg, size_t size);
/* Set the display name (copied). */
int evsel__set_name(struct evsel *evsel, const char *name);
/* The name, or a generated one from type/config when none was set. */
const char *evsel__name(struct evsel *evsel);
static inline bool evsel__is_group_leader(const struct evsel *e) { return e->leader == e; }

/*
 * Set attr.read_format the way stat reads: TOTAL_TIME_ENABLED|RUNNING, plus
 * ID|GROUP for every event of a group of two or more (one read per group).
 */
void evsel__config_read_format(struct evsel *evsel);
/*
 * 0 or -errno; evsel->open_err keeps the errno of the first failure.
 * Opened per (cpu, thread) with the leader's fd of the same slot as group
 * fd.  Events with own_cpus or requires_cpu are opened per CPU with pid -1
 * on own_cpus ∩ @cpus (every online CPU / own_cpus when @cpus is {-1} and
 * the evsel's evlist has a workload); a -p/-t target gives -EINVAL.  For a
 * workload such an event counts from the open: enable_on_exec would never
 * fire on it, so enable_on_exec and disabled are cleared.
 * Powercap events open no fd: one slot per zone, at the first online CPU of
 * the zone's package (zone indexes 0..nr_zones-1 when the topology is
 * unknown), read as microjoules with ena = run = elapsed ns.
 * With tperf_config.verbose >= 2 prints the attr and each syscall as perf.
 */
int evsel__open(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads);
/*
 * evsel__open() in three steps, for opening CPU by CPU across an evlist as
 * perf stat does: prepare (maps, slots), open_cpu for each index of
 * evsel->cpus, then finish with the first error (0 or -errno).
 */
int evsel__open_prepare(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads);
int evsel__open_cpu(struct evsel *evsel, int cpu_idx);
int evsel__open_finish(struct evsel *evsel, int err);
void evsel__close(struct evsel *evsel);
/* evsel__close() without the maps and counts: the fds and their ids. */
void evsel__free_slots(struct evsel *evsel);

/* The fd slots of an opened event: one per CPU index and thread. */
int evsel__nr_slots(const struct evsel *evsel);
/*
 * Read every fd into evsel->counts (raw).  An evsel whose read_format has
 * PERF_FORMAT_GROUP fills the counts of its whole group (members matched by
 * id, or by order without PERF_FORMAT_ID).  0 or -errno.
 */
int evsel__read(struct evsel *evsel);
int evsel__enable(struct evsel *evsel);
int evsel__disable(struct evsel *evsel);
/*
 * PERF_EVENT_IOC_SET_FILTER with @filter on every open fd of @evsel (every
 * CPU and thread).  0 or -errno of the first fd the kernel refused it on.
 */
int evsel__apply_filter(struct evsel *evsel, const char *filter);
/*
 * Append @filter to the tracepoint filter of @evsel: "(old) && (new)", as
 * perf does for repeated --filter options.  0 or -ENOMEM.
 */
int evsel__append_tp_filter(struct evsel *evsel, const char *filter);
/*
 * When the open failed because the hardware event does not exist here, turn
 * @evsel into its software equivalent (cycles -> cpu-clock) and say so in
 * @msg.  True when it changed something and the open should be retried.
 * The new name carries perf's modifiers for the attr: cycles:u ->
 * cpu-clock:uH, cycles:k -> cpu-clock:k, cycles:ppp -> cpu-clock:pppH.  A
 * kernel-counting event refused by perf_event_paranoid (EACCES/EPERM,
 * paranoid > 1, without CAP_PERFMON or CAP_SYS_ADMIN) counts user space
 * only: cycles -> cycles:u.
 */
bool evsel__fallback(struct evsel *evsel, int err, char *msg, size_t size);
/*
 * Explain a failed open with context and what to do, into @buf: the event
 * name, hardware events on a machine with no PMU, perf_event_paranoid and
 * its value for EACCES/EPERM, descriptors for EMFILE ...
 */
int evsel__open_strerror(struct evsel *evsel, int err, char *buf, size_t size);

/*
 * Print @attr field by field in the layout of `perf stat -vv` and
 * `perf record -vv` (zero fields omitted), between dashed lines.
 */
int perf_event_attr__fprintf(FILE *fp, const struct perf_event_attr *attr);

#endif
