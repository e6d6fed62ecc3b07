/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event grammar, as Linux perf accepts it (see tperf-list(1)):
 * symbolic hardware/software names, hardware cache events, raw rNNNN,
 * PMU/term=val,.../ and PMU/alias/, tracepoints sys:name with globs,
 * breakpoints mem:ADDR[/LEN][:rwx], modifiers :ukhGHpPSDIW (and pp, ppp),
 * name= terms, groups {a,b}:S, comma lists.
 */
#ifndef TPERF_PARSE_EVENTS_H
#define TPERF_PARSE_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct evlist;
struct option;

struct parse_events_error {
	char *str;	/* the whole event string */
	int idx;	/* byte offset of the bad token in str */
	char *msg;	/* what is wrong */
	char *help;	/* what to do, or the valid terms; may be NULL */
};

/*
 * Parse @str and append its events to @evlist, as @evlist->parse says
 * (stat's terms only, the SDT hook).  0, or -errno with @err filled (free
 * it with parse_events_error__exit()).
 */
int parse_events(struct evlist *evlist, const char *str, struct parse_events_error *err);
/*
 * Print the error: "event syntax error: 'STR'", a caret under the bad
 * token, the message and the help, as perf does.
 */
void parse_events_error__print(const struct parse_events_error *err, FILE *fp);
void parse_events_error__exit(struct parse_events_error *err);

/*
 * Option callbacks (opt->value is a struct evlist **): -e; --filter and
 * record's --exclude-perf, which filter every event of the last -e (each
 * must be a tracepoint).
 */
int parse_events_option(const struct option *opt, const char *str, int unset);
int parse_filter(const struct option *opt, const char *str, int unset);
int parse_exclude_perf(const struct option *opt, const char *str, int unset);

/* The symbolic event names, for `tperf list`. */
struct event_symbol {
	const char *symbol;	/* "cpu-cycles" */
	const char *alias;	/* "cycles", or "" */
	uint32_t type;		/* PERF_TYPE_HARDWARE / PERF_TYPE_SOFTWARE */
	uint64_t config;
};
extern const struct event_symbol event_symbols_hw[];
extern const int nr_event_symbols_hw;
extern const struct event_symbol event_symbols_sw[];
extern const int nr_event_symbols_sw;
/*
 * Call @cb with each generic hardware cache event name ("L1-dcache-load-misses")
 * and its config, in perf's order; stops when @cb returns non-zero.
 */
int for_each_hw_cache_event(int (*cb)(const char *name, uint64_t config, void *data),
			    void *data);

#endif
