/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Printing `tperf stat` results in Linux perf's layouts: the std table with
 * shadow metrics ("#    0.998 CPUs utilized"), CSV (-x SEP: value, unit,
 * event, [noise,] run time, percentage running, metric value, metric unit)
 * and JSON (-j: one object per counter and row), with -I timestamps.
 */
#ifndef TPERF_STAT_DISPLAY_H
#define TPERF_STAT_DISPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "util/stat/stat.h"

struct evlist;
struct target;

/*
 * " Performance counter stats for 'CMD ARGS' (N runs):" and the blank lines
 * around it; nothing for CSV, JSON or interval output.
 */
void perf_stat__print_header(struct perf_stat_config *config, const struct target *target,
			     int argc, const char **argv);
/*
 * Every counter's rows.  @ts is the interval's time since the start (-I),
 * or NULL for the final counts.
 */
void perf_stat__print_counters(struct perf_stat_config *config, struct evlist *evlist,
			       const struct timespec *ts);
/*
 * The final counts as -j prints them (with -r's runs, mean, stddev and
 * values), into a malloc'ed @text of @len bytes.  0 or -ENOMEM.
 */
int perf_stat__json_text(const struct perf_stat_config *config, struct evlist *evlist,
			 char **text, size_t *len);
/* "N seconds time elapsed" (+- stddev with -r), user and sys times. */
void perf_stat__print_footer(struct perf_stat_config *config);
/* -D: perf's "Events disabled" / "Events enabled" on stderr (not with --quiet). */
void perf_stat__print_delay_state(bool enabled);
/* --control's "enable NAME" / "disable NAME": "Event NAME enabled" on stderr, as perf. */
void perf_stat__print_event_state(const char *name, bool enabled);
/* --control's "enable NAME" of no event: perf's "failed: can't find 'NAME' event" on stderr. */
void perf_stat__print_no_event(const char *name);
/* --control's "evlist": each event's name on stderr, as perf. */
void perf_stat__print_evlist(struct evlist *evlist);
/* "sh: Killed" on stderr for a command a signal ended, as perf's psignal(). */
void perf_stat__print_signaled(const char *command, int sig);


#endif
