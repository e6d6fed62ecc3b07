/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which samples `tperf script` and `tperf report` keep: the --comm, --pid,
 * --tid, --cpu and --time options (matched on the sample and its thread's
 * comm), and --dso/--symbols (matched on the resolved DSO and symbol), with
 * the syntax and meaning of perf 6.1's options of the same names.
 *
 * Usage: zero a struct sample_filter, call the parse functions for the
 * options given (each returns -EINVAL with a message), then once the file's
 * header is known sample_filter__prepare() (percent time ranges need the
 * first and last sample times), then sample_filter__match() per sample and
 * sample_filter__match_dso()/_sym() on the resolved location.  An empty
 * filter matches everything.  sample_filter__exit() frees it.
 */
#ifndef TPERF_SAMPLE_FILTER_H
#define TPERF_SAMPLE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "util/perf-data/event.h"

#define SAMPLE_FILTER_MAX_CPUS 4096

/* One --time range; 0 at either end means open (start/end of the file). */
struct sample_time_range {
	u64 start, end;
	double pstart, pend;		/* percent forms: fractions of the file's time */
};

struct sample_filter {
	char **comms;			/* --comm */
	size_t nr_comms;
	int *pids, *tids;		/* --pid, --tid */
	size_t nr_pids, nr_tids;
	unsigned long *cpus;		/* --cpu: bitmap of SAMPLE_FILTER_MAX_CPUS */
	struct sample_time_range *times;	/* --time */
	size_t nr_times;
	bool time_percent;		/* the ranges are percentages until prepared */
	char **dsos;			/* --dso(s): paths or base names */
	size_t nr_dsos;
	char **syms;			/* --symbols: names or 0x<start> */
	size_t nr_syms;
};

/**
 * sample_filter__parse_comm - --comm LIST: comma separated command names
 * @msg: on error, why (@size bytes)
 * Return: 0, -EINVAL (empty list) or -ENOMEM.
 */
int sample_filter__parse_comm(struct sample_filter *f, const char *list, char *msg, size_t size);

/**
 * sample_filter__parse_pid - --pid LIST: comma separated process ids
 * Return: 0, -EINVAL (not a number: @msg says which) or -ENOMEM.
 */
int sample_filter__parse_pid(struct sample_filter *f, const char *list, char *msg, size_t size);

/** sample_filter__parse_tid - --tid LIST: comma separated thread ids, as _parse_pid() */
int sample_filter__parse_tid(struct sample_filter *f, const char *list, char *msg, size_t size);

/**
 * sample_filter__parse_cpu - --cpu LIST: CPUs and ranges, "0-2,4"
 * Return: 0, -EINVAL (bad syntax, CPU not below SAMPLE_FILTER_MAX_CPUS) or -ENOMEM.
 */
int sample_filter__parse_cpu(struct sample_filter *f, const char *list, char *msg, size_t size);

/**
 * sample_filter__parse_time - --time: perf 6.1's forms
 *
 * "START,STOP" in seconds with up to 9 decimals, either end may be empty
 * (",STOP", "START,"), several ranges separated by spaces; or percentages
 * of the recording's time span: "10%/2" (the second 10% slice), "0%-10%",
 * "5%" (= "5%/1"), several separated by commas.  With several ranges a
 * sample at the end of a range belongs to it only in the last range.
 * A percent range whose start is after its end selects nothing (as perf).
 *
 * Return: 0, -EINVAL (@msg: "invalid time string '...'") or -ENOMEM.
 */
int sample_filter__parse_time(struct sample_filter *f, const char *str, char *msg, size_t size);

/** sample_filter__parse_dso - --dso(s) LIST: DSO paths or base names */
int sample_filter__parse_dso(struct sample_filter *f, const char *list, char *msg, size_t size);

/** sample_filter__parse_sym - --symbols LIST: symbol names, or 0x<hex start address> */
int sample_filter__parse_sym(struct sample_filter *f, const char *list, char *msg, size_t size);

/**
 * sample_filter__prepare - check the filter against the file before reading it
 * @sample_type_and: the AND of every event's sample_type (--cpu needs
 *	PERF_SAMPLE_CPU in all, --time needs PERF_SAMPLE_TIME)
 * @first_time, @last_time: the file's first and last sample times (its
 *	SAMPLE_TIME feature); 0, 0 when unknown
 * @path: the file's name, for the messages
 *
 * Turns percent time ranges into times.  Return: 0 or -EINVAL (@msg says
 * what the file lacks and what to do).
 */
int sample_filter__prepare(struct sample_filter *f, u64 sample_type_and, u64 first_time,
			   u64 last_time, const char *path, char *msg, size_t size);

/**
 * sample_filter__match - does the sample pass --comm, --pid, --tid, --cpu
 * and --time?
 * @comm: the comm of the sample's thread at the sample's time (NULL: none)
 */
bool sample_filter__match(const struct sample_filter *f, const struct perf_sample *s,
			  const char *comm);

/** sample_filter__match_time - is @time inside the --time ranges (true without any)? */
bool sample_filter__match_time(const struct sample_filter *f, u64 time);

/**
 * sample_filter__match_dso - does the sample's DSO pass --dso?
 * @name: the DSO's name as resolved (a path, or "[kernel.kallsyms]"), NULL
 *	when the address has no map; matched whole or by its base name
 */
bool sample_filter__match_dso(const struct sample_filter *f, const char *name);

/**
 * sample_filter__match_sym - does the sample's symbol pass --symbols?
 * @name: the symbol's name, NULL when unresolved (fails a --symbols filter)
 * @start: its start address as the sample sees it (matched as "0x%lx")
 */
bool sample_filter__match_sym(const struct sample_filter *f, const char *name, u64 start);

/** sample_filter__active - is any of --comm/--pid/--tid/--cpu/--time set? */
bool sample_filter__active(const struct sample_filter *f);

/** sample_filter__exit - free what the parse functions allocated */
void sample_filter__exit(struct sample_filter *f);

#endif
