/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libtperf's public API: what a program outside the tree may call.  Link
 * libtperf.a (and the libraries `make` prints in Documentation/libtperf.md);
 * every other symbol of the archive is local to it.  Errors follow the
 * tree's convention: a negative errno, and a message in the caller's buffer.
 */
#ifndef TPERF_TPERF_H
#define TPERF_TPERF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TPERF_API __attribute__((visibility("default")))

/* A list of events counted for one command, as `tperf stat -e` does. */
struct tperf_counter;

/*
 * Parse @events (tperf stat's -e syntax: "task-clock,page-faults:u",
 * groups, PMU terms).  NULL on error, errno set and the parser's message
 * (several lines, with a caret under the bad token) in @msg.
 */
TPERF_API struct tperf_counter *tperf_counter__new(const char *events, char *msg, size_t size);
TPERF_API void tperf_counter__delete(struct tperf_counter *counter);

/*
 * Run @argv (NULL-terminated) with the events counting it and its
 * children, and wait for it.  An event this machine cannot count stays in
 * the list, unsupported.  0 with waitpid()'s @status, or -errno with a
 * message in @msg (the command was not run, or could not be waited for).
 */
TPERF_API int tperf_counter__run(struct tperf_counter *counter, const char **argv,
				 int *status, char *msg, size_t size);

/* The number of events, and the name of event @idx (0 .. number - 1). */
TPERF_API int tperf_counter__nr_events(const struct tperf_counter *counter);
TPERF_API const char *tperf_counter__name(const struct tperf_counter *counter, int idx);

/*
 * The count of event @idx after tperf_counter__run(): 0 and @val, or
 * -EOPNOTSUPP for an event this machine could not count, -EINVAL for an
 * index out of range.
 */
TPERF_API int tperf_counter__value(const struct tperf_counter *counter, int idx, uint64_t *val);

/* The library's version, "MAJOR.MINOR.PATCH". */
TPERF_API const char *tperf_version(void);

#ifdef __cplusplus
}
#endif

#endif
