/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fast printer for the simplest print fmts, those libtraceevent would
 * format with plain conversions of plain fields ("NR %ld (%lx, ...)",
 * "comm=%s pid=%d prio=%d target_cpu=%03d"): the format is compiled once
 * per event into literal pieces and field conversions, and each record is
 * formatted without printf.  Formats with anything else (%p, flags,
 * symbols, operators, functions, helpers from plugins) are left to
 * libtraceevent; the output is byte for byte libtraceevent's.
 */
#ifndef TPERF_TRACE_FAST_H
#define TPERF_TRACE_FAST_H

#include <stddef.h>
#include <traceevent/event-parse.h>

struct trace_fast;

/**
 * trace_fast__compile - the fast printer of @ev (NULL: none)
 * Return: the program (free with trace_fast__free()), or NULL when the
 * format is not simple enough (or on ENOMEM): use libtraceevent.
 */
struct trace_fast *trace_fast__compile(struct tep_event *ev);
void trace_fast__free(struct trace_fast *p);

/**
 * trace_fast__print - format @data (@size bytes) into @buf (@len bytes)
 * Return: the length written, or -1 when the record does not fit the
 * program (a field outside the data, @buf too small): use libtraceevent.
 */
int trace_fast__print(const struct trace_fast *p, const void *data, size_t size, char *buf,
		      size_t len);

#endif
