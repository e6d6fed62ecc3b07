/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Messages to the user, all on stderr.  Style (git's): lowercase first word,
 * no full stop, names in quotes, what failed and then what to do.
 *
 *   ui__error("cannot open '%s': %s", path, strerror(errno));
 *	-> "tperf: cannot open 'x': No such file or directory"
 *   ui__warning(...) -> "tperf: warning: ..."   ui__note(...) -> "tperf: note: ..."
 *   pr_debug(...) shown with -v, pr_debug2(...) with -vv.
 */
#ifndef TPERF_DEBUG_H
#define TPERF_DEBUG_H

#include <stdarg.h>
#include <stdbool.h>

#define __printf(a, b) __attribute__((format(printf, a, b)))

void ui__error(const char *fmt, ...) __printf(1, 2);
void ui__warning(const char *fmt, ...) __printf(1, 2);
void ui__note(const char *fmt, ...) __printf(1, 2);
/* "fatal" usage error: message and exit 129 */
void die_usage(const char *fmt, ...) __printf(1, 2) __attribute__((noreturn));

/*
 * Something util/ meets in the middle of its work that is no error and that
 * the user must hear then, not at the end (a fallback while opening events,
 * a file that is not the one recorded, how far a long read has gone): the
 * object doing the work holds a hook, which the command sets to its printer
 * (builtin__say()); without one nothing is said.  Below the commands only
 * util/lib (this file, the option parser's usage, the pager) prints.
 */
enum say_level { SAY_NOTE, SAY_WARNING, SAY_PROGRESS };
typedef void say_fn(enum say_level level, const char *msg);
/* Format and hand to @fn, when there is one. */
void say(say_fn *fn, enum say_level level, const char *fmt, ...) __printf(3, 4);

/* Verbose-level messages: printed when tperf_config.verbose >= level. */
int eprintf(int level, const char *fmt, ...) __printf(2, 3);
#define pr_err(...)	fprintf(stderr, __VA_ARGS__)
#define pr_warning(...)	fprintf(stderr, __VA_ARGS__)
#define pr_info(...)	eprintf(0, __VA_ARGS__)
#define pr_debug(...)	eprintf(1, __VA_ARGS__)
#define pr_debug2(...)	eprintf(2, __VA_ARGS__)
#define pr_debug3(...)	eprintf(3, __VA_ARGS__)

/*
 * FREE_AT_EXIT: whether a command frees what it read before it exits.
 * Only builds a leak checker looks at (ASan) do; otherwise the exit frees
 * it at once, where freeing every symbol, entry and map of a large report
 * one by one cost a twentieth of its time.
 */
#if defined(__SANITIZE_ADDRESS__)
#define FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FREE_AT_EXIT 1
#endif
#endif
#ifndef FREE_AT_EXIT
#define FREE_AT_EXIT 0
#endif

/* Apply `--debug VAR[=N]`; returns 0, or -1 with a message for an unknown VAR. */
int debug_parse_var(const char *str);

#endif
