/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the kernel's file systems live.  Each root can be pointed at another
 * folder by an environment variable, so tests run on fake trees:
 *   TPERF_SYSFS (default /sys), TPERF_PROCFS (/proc),
 *   TPERF_TRACEFS (default: the mounted tracefs, else mounted on demand at
 *   /sys/kernel/tracing with a note).
 */
#ifndef TPERF_FS_H
#define TPERF_FS_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

const char *sysfs__mountpoint(void);
const char *procfs__mountpoint(void);
/*
 * Where tracefs is mounted ($TPERF_TRACEFS first), or NULL with errno set
 * (ENOENT: nowhere; the errno of tracefs__mount() once it failed).  Only
 * looks.
 */
const char *tracefs__mountpoint(void);
/*
 * tracefs__mountpoint(), after mounting tracefs at /sys/kernel/tracing when
 * it is mounted nowhere, as perf does: for a command that needs it (a
 * tracepoint event, probes, tracepoint lists).  @mounted (may be NULL) is
 * set to true when this call mounted it, for the command to say so.  NULL
 * with errno (EPERM: not root) when it cannot.
 */
const char *tracefs__mount(bool *mounted);

/* Read a whole file: *buf is NUL-terminated and malloc'ed.  0 or -errno. */
int filename__read_str(const char *path, char **buf, size_t *len);
/* Read one integer (decimal or 0x hex) from a file.  0 or -errno. */
int filename__read_u64(const char *path, uint64_t *val);
/* The same, relative to the sysfs root ("bus/event_source/devices/msr/type"). */
int sysfs__read_str(const char *rel, char **buf, size_t *len);
int sysfs__read_int(const char *rel, int *val);
/* The same, relative to the procfs root ("sys/kernel/perf_event_paranoid"). */
int procfs__read_str(const char *rel, char **buf, size_t *len);
int procfs__read_int(const char *rel, int *val);

#endif
