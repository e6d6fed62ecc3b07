/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Name filters of `tperf probe -F` and `--filter`, perf's syntax: globs
 * combined with '!' (not), '&' (and, binding tighter), '|' (or) and
 * parentheses, spaces ignored: "!_* & !*@plt", "(a*|v*) & !*d*".
 */
#ifndef TPERF_PROBE_FILTER_H
#define TPERF_PROBE_FILTER_H

#include <stdbool.h>

struct probe_filter;

/*
 * Add @expr to *@f, or-ed with what it holds (a NULL *@f is made).  0;
 * -EINVAL with *@errpos the offset of the bad character in @expr (its
 * length when the end came too early); -ENOMEM.
 */
int probe_filter__add(struct probe_filter **f, const char *expr, int *errpos);
/* Does @name pass @f? */
bool probe_filter__match(const struct probe_filter *f, const char *name);
void probe_filter__delete(struct probe_filter *f);

#endif
