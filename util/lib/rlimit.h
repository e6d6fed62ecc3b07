/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The open-files limit, raised for commands that open many event fds. */
#ifndef TPERF_RLIMIT_H
#define TPERF_RLIMIT_H

#include <stddef.h>

/*
 * Make room for @needed more descriptors: raise RLIMIT_NOFILE's soft limit
 * (toward the hard limit) when the descriptors open now plus @needed and
 * NOFILE_SLACK do not fit.  0, or -EMFILE with a message in @buf (how many
 * are needed and how to raise the limit) when not even NOFILE_MIN_SLACK
 * fits under the hard limit.
 */
int rlimit__ensure_nofile(size_t needed, char *buf, size_t size);
/* "too many open files: @want descriptors are needed but ..." into @buf. */
int rlimit__nofile_strerror(size_t want, char *buf, size_t size);
/*
 * Descriptors kept free beyond the events' for the files a command opens:
 * NOFILE_SLACK when the hard limit allows, at the least NOFILE_MIN_SLACK
 * (the output file, the workload's pipes).
 */
#define NOFILE_SLACK 16
#define NOFILE_MIN_SLACK 0
/* Descriptors this process has open now (from procfs self/fd). */
size_t rlimit__nr_open_fds(void);

#endif
