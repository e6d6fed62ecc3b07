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
 * For the -e, --filter and --exclude-perf options of the commands: the
 * end of one -e's events (what a --filter after it applies to); a filter,
 * and record's "common_pid != <tperf's pid>", and-ed to each event of the
 * last -e, every one of which must be a tracepoint ("-e 'sched:*' --filter
 * F" filters each, as perf 6.1 does).  0, or -EINVAL/-ENOMEM with the
 * message in @msg.
 */
void parse_events__end_option(struct evlist *evlist);
int parse_events__filter_last(struct evlist *evlist, const char *filter, char *msg, size_t size);
int parse_events__exclude_perf_last(struct evlist *evlist, char *msg, size_t size);

/*
 * Or the PERF_SAMPLE_BRANCH_* bits of "any_call,u,..." (record -j, perf
 * 6.1's names in any case) into @mode.  0, or -EINVAL with @msg.
 */
int parse_branch_filter(const char *str, uint64_t *mode, char *msg, size_t size);

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
