/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SDT events for a run: `tperf stat|record -e sdt_PROVIDER:NAME -- ./prog` makes
 * uprobes of the markers of the workload (its executable, then the shared
 * libraries it names in DT_NEEDED, found through its RUNPATH/RPATH and the
 * system library folders) while tperf runs, and deletes them on every way
 * out: normal exit, error exit (atexit), and the signal that stops tperf
 * (stat calls probe_sdt__cleanup() before re-raising INT or TERM; record
 * returns from those normally; the others are caught here).  Events that
 * already exist in tracefs are used as they are and left alone.
 */
#ifndef TPERF_PROBE_SDT_H
#define TPERF_PROBE_SDT_H

#include <stddef.h>

/*
 * Find the workload (the word after "--" in @argv) and install the
 * parse-events hook that creates "sdt_*" events from it.  Call before the
 * options are parsed.
 */
void probe_sdt__init(int argc, const char **argv);
/* The hook itself (see parse_events__sdt_hook). */
int probe_sdt__create(const char *sys, const char *name, char *msg, size_t size);
/* Delete the probes made for this run; safe to call more than once. */
void probe_sdt__cleanup(void);

#endif
