/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The records of a `stat record` file (perf 6.1's perf stat record), read
 * and written: THREAD_MAP and CPU_MAP (what was counted), EVENT_UPDATE
 * (an event's unit, scale, name or CPUs), STAT_CONFIG (aggregation mode,
 * scaling, interval as tagged terms), STAT (one counter's value, enabled
 * and running times on one CPU and thread) and STAT_ROUND (an interval's
 * or the final read, with its time).  Facts from Linux's
 * tools/lib/perf/include/perf/event.h.  Every parser reads within the
 * record's header.size and refuses what does not fit with -EINVAL.
 */
#ifndef TPERF_STAT_EVENT_H
#define TPERF_STAT_EVENT_H

#include <stdbool.h>
#include <stddef.h>

#include "util/perf-data/event.h"

struct cpu_map;
struct perf_header;
struct thread_map;

/* STAT_CONFIG's tags */
enum {
	STAT_CONFIG_TERM_AGGR_MODE = 0,
	STAT_CONFIG_TERM_INTERVAL = 1,
	STAT_CONFIG_TERM_SCALE = 2,
	STAT_CONFIG_TERM_MAX = 3,
};

/* perf's enum aggr_mode, the numbers STAT_CONFIG stores */
enum perf_file_aggr {
	PERF_FILE_AGGR_NONE = 0,
	PERF_FILE_AGGR_GLOBAL = 1,
	PERF_FILE_AGGR_SOCKET = 2,
	PERF_FILE_AGGR_DIE = 3,
	PERF_FILE_AGGR_CORE = 4,
	PERF_FILE_AGGR_THREAD = 5,
	PERF_FILE_AGGR_UNSET = 6,
	PERF_FILE_AGGR_NODE = 7,
};

/* STAT_ROUND's types */
enum {
	STAT_ROUND_INTERVAL = 0,
	STAT_ROUND_FINAL = 1,
};

/* EVENT_UPDATE's types */
enum {
	EVENT_UPDATE_UNIT = 0,
	EVENT_UPDATE_SCALE = 1,
	EVENT_UPDATE_NAME = 2,
	EVENT_UPDATE_CPUS = 3,
};

/* What a STAT_CONFIG says; a term it lacks keeps the caller's value. */
struct stat_file_config {
	u64 aggr_mode;			/* enum perf_file_aggr */
	u64 interval;			/* ms, 0: none */
	bool scale;
};

/* An EVENT_UPDATE: @str for a unit or a name, @scale, @cpus (a reference). */
struct event_update {
	u64 type, id;
	const char *str;		/* in the record, @len bytes, not terminated */
	int len;
	double scale;
	struct cpu_map *cpus;		/* EVENT_UPDATE_CPUS: the caller puts it */
};

/* Records of at most this size are written (STAT_CONFIG's three terms). */
#define STAT_CONFIG_RECORD_SIZE	(8 + 8 + STAT_CONFIG_TERM_MAX * 16)

/**
 * stat_event__parse_config - the terms of a STAT_CONFIG into @c
 * @ev: the record
 * @c: keeps the values of terms the record does not have; unknown tags
 *     are skipped, as perf skips them
 *
 * Return: 0, or -EINVAL when the record cannot hold the terms it counts.
 */
int stat_event__parse_config(const union perf_event *ev, struct stat_file_config *c);

/**
 * stat_event__parse_stat - copy a STAT record into @st
 * Return: 0 or -EINVAL (too short).
 */
int stat_event__parse_stat(const union perf_event *ev, struct perf_record_stat *st);

/**
 * stat_event__parse_round - copy a STAT_ROUND record into @r
 * Return: 0 or -EINVAL (too short).
 */
int stat_event__parse_round(const union perf_event *ev, struct perf_record_stat_round *r);

/**
 * stat_event__thread_map - the threads of a THREAD_MAP record
 * @ev: the record ({ u64 nr; { u64 pid; char comm[16]; } [nr] })
 * @comms: if not NULL, receives a malloc'ed array of the comms, 16 bytes
 *         each, NUL-terminated (the caller frees it)
 * @err: -EINVAL (nr does not fit, or none) or -ENOMEM on failure
 *
 * Return: the map, or NULL with @err set.
 */
struct thread_map *stat_event__thread_map(const union perf_event *ev, char (**comms)[16],
					  int *err);

/**
 * stat_event__cpu_map - the CPUs of a CPU_MAP record (a list, a mask or a
 * range; 65535 in a list is CPU -1, "any")
 * @err: -EINVAL (malformed, or no CPU) or -ENOMEM on failure
 *
 * Return: the map (sorted, unique), or NULL with @err set.
 */
struct cpu_map *stat_event__cpu_map(const union perf_event *ev, int *err);

/**
 * stat_event__parse_update - an EVENT_UPDATE record
 * @u: filled; a CPUS update's map is a new reference in @u->cpus
 *
 * Return: 0, -EINVAL (too short, an unknown type) or -ENOMEM.
 */
int stat_event__parse_update(const union perf_event *ev, struct event_update *u);

/**
 * stat_event__synth_config - a STAT_CONFIG with the three terms, in
 * perf's order (aggregation mode, interval, scale)
 * @buf: room for STAT_CONFIG_RECORD_SIZE bytes, 8-byte aligned
 *
 * Return: the record's size.
 */
size_t stat_event__synth_config(void *buf, const struct stat_file_config *c);

/* A STAT record of counter @id on CPU @cpu (a CPU number, -1: any), thread index @thread. */
void stat_event__synth_stat(struct perf_record_stat *st, u64 id, int cpu, u32 thread, u64 val,
			    u64 ena, u64 run);

/* A STAT_ROUND of @type (STAT_ROUND_INTERVAL or _FINAL) at @time ns since the start. */
void stat_event__synth_round(struct perf_record_stat_round *r, u64 type, u64 time);

/*
 * The counts of a stat file as the records give them, for `script`: the
 * maps, and per event of the header, CPU index and thread index the last
 * STAT's values (zero where none came).
 */
struct stat_table {
	struct thread_map *threads;	/* THREAD_MAP, or NULL */
	struct cpu_map *cpus;		/* CPU_MAP, or NULL */
	int nr_attrs;			/* of the header when the first STAT came */
	struct perf_record_stat *vals;	/* [attr][cpu idx][thread idx] */
};

/* A THREAD_MAP or CPU_MAP into @t (before the first STAT).  0 or -errno. */
int stat_table__map(struct stat_table *t, const union perf_event *ev);
/*
 * A STAT into @t: its event by id among @h's, its CPU in the CPU map.
 * 0, or -EINVAL (malformed, an unknown id, CPU or thread), -ENOMEM.
 */
int stat_table__stat(struct stat_table *t, struct perf_header *h, const union perf_event *ev);
/* The values of event @attr, CPU index @ci, thread index @ti (zeroes before any STAT). */
const struct perf_record_stat *stat_table__get(const struct stat_table *t, int attr, int ci,
					       int ti);
void stat_table__exit(struct stat_table *t);

#endif
