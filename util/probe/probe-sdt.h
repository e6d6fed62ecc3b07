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

struct evlist;
struct probe_sdt;

/*
 * Find the workload (the word after "--" in @argv: -e is parsed before
 * the command line's end is known) and make @evlist's parser call
 * probe_sdt__create() for "sdt_*" events (evlist->parse).  Call before the
 * options are parsed.  NULL when out of memory.
 */
struct probe_sdt *probe_sdt__attach(struct evlist *evlist, int argc, const char **argv);
/*
 * Delete the probes made for this run; safe to call more than once.  The
 * counters holding them must be closed first.
 */
void probe_sdt__cleanup(void);
/* probe_sdt__cleanup() if @sdt made the probes, then free it. */
void probe_sdt__delete(struct probe_sdt *sdt);

#endif
