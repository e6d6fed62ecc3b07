/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report's tracepoint sort keys, as perf 6.1 has them:
 *   trace            the payload as libtraceevent prints it ("Trace output")
 *   SYS:EVENT.FIELD  one field of one event (EVENT.FIELD: any system)
 *   FIELD            that field of every recorded event that has it
 * A field's column is headed by its name; its value is the "FIELD=value"
 * text of the payload (or libtraceevent's print of the field when the
 * payload has no such text); entries are the distinct raw bytes of the
 * field.  Events without the field have no such column.
 */
#ifndef TPERF_SORT_TRACE_H
#define TPERF_SORT_TRACE_H

#include <stdbool.h>

#include "event.h"
#include "header.h"
#include "hist.h"
#include "trace-event.h"

struct machine;

struct sort_trace_key {
	char *event;			/* "SYS:EVENT", "EVENT" or NULL (any) */
	char *field;			/* NULL: the "trace" key */
	enum sort_key_id id;		/* its slot: SORT_DYN0 + n */
};

struct sort_trace {
	struct sort_trace_key keys[SORT_DYN_MAX];
	int nr;
	struct trace_event te;		/* from the file's tracing data */
	struct trace_seq seq;
	bool loaded;
};

/**
 * sort_trace__add_key - take @tok when it names a tracepoint key ("trace",
 * "sys:event.field", "event.field", or a bare name that is not one of the
 * other keys: checked against the events in sort_trace__load())
 * Return: its slot (SORT_DYN0...), -ENOENT (not a tracepoint key),
 * -E2BIG (too many), -ENOMEM.
 */
int sort_trace__add_key(struct sort_trace *st, const char *tok);

/**
 * sort_trace__load - read @h's tracing data and check every field key
 * names a field of a recorded event
 * @m: resolves kernel addresses in the payloads
 * @bad: the first key that names none (for the message)
 * Return: 0, -ENOENT (@bad set; or no tracing data and @bad NULL), -EINVAL
 * (malformed tracing data), -ENOMEM.
 */
int sort_trace__load(struct sort_trace *st, struct perf_header *h, struct machine *m,
		     const char **bad);

void sort_trace__exit(struct sort_trace *st);

/**
 * sort_trace__setup_hists - the columns @attr's histogram shows: headers,
 * widths and alignment of the keys that apply to its event
 */
void sort_trace__setup_hists(struct sort_trace *st, const struct perf_event_attr *attr,
			     struct hists *h);

/**
 * sort_trace__fill - the key values of sample @s into @tmpl (interned in @m)
 * Return: 0 or -ENOMEM.
 */
int sort_trace__fill(struct sort_trace *st, struct machine *m, const struct perf_event_attr *attr,
		     const struct perf_sample *s, struct hist_entry *tmpl);

#endif
