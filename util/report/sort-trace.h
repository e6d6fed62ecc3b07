/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * report's tracepoint sort keys, as perf 6.1 has them:
 *   trace            the payload as libtraceevent prints it ("Trace output")
 *   SYS:EVENT.FIELD  one field of one event (EVENT.FIELD: the one event
 *                    whose name has EVENT in it; %N.FIELD: the Nth event)
 *   FIELD            that field of every recorded event that has it
 *   trace_fields     every field of every recorded tracepoint, event by
 *                    event (perf's default keys with --raw-trace)
 *   SYS:EVENT.*      every field of that event
 * A field key ending in "/raw" (or any, with --raw-trace) shows the field
 * as libtraceevent prints it, in a column as wide as its header or its
 * size in hex; otherwise its column is as wide as its longest value, the
 * "FIELD=value" text of the payload (or the raw print when the payload has
 * no such text).  A field's column is headed by its name; entries are the
 * distinct raw bytes of the field.  Events without the field have no such
 * column.  With --raw-trace, "trace" is every "name=value" field print.
 */
#ifndef TPERF_SORT_TRACE_H
#define TPERF_SORT_TRACE_H

#include <stdbool.h>

#include "util/perf-data/event.h"
#include "util/perf-data/header.h"
#include "util/report/hist.h"
#include "util/trace/trace-event.h"

struct machine;

struct sort_trace_key {
	char *event;			/* as given: "SYS:EVENT", "EVENT", "%N", or NULL (any) */
	char *field;			/* NULL: the "trace" key */
	bool raw;			/* "/raw", or --raw-trace */
	int nth;			/* trace_fields: each event's field nth (-1: @field) */
	int ev_id;			/* the event @event names (sort_trace__load), -1 any */
	enum sort_key_id id;		/* its slot: SORT_DYN0 + n */
};

struct dyn_set;

struct sort_trace {
	struct sort_trace_key keys[SORT_DYN_MAX];
	int nr;
	bool raw_trace;			/* --raw-trace */
	bool expanded;			/* sort_trace__expand() made trace_fields' keys */
	struct trace_event tev;		/* from the file's tracing data */
	struct trace_seq seq, fseq;	/* payloads, field prints */
	bool loaded;
	struct hist_dyn vals[SORT_DYN_MAX];	/* a sample's, before sort_trace__fill() interns them */
	struct dyn_set *set;		/* the interned value arrays */
	char bad[256];			/* a key for a message */
};


/**
 * sort_trace__expand - @sort with each group token replaced by its field
 * keys: "%N.field[/raw]" for each field of an EVENT.* (its index); for
 * trace_fields, one key per field of the event that has the most (each
 * event's field in it, the same order): that needs the tracing data of @h
 * (loaded here; none: no field, as perf)
 * @out: set to the new list (free() it), or NULL when @sort has no group
 * @bad: the token that names no tracepoint event (for the message)
 * Return: 0, -ENOENT (@bad set), -EINVAL (malformed tracing data), -ENOMEM.
 */
int sort_trace__expand(struct sort_trace *st, const struct perf_header *h, const char *sort,
		       char **out, const char **bad);

/**
 * sort_trace__add_key - take @tok when it names a tracepoint key ("trace",
 * "sys:event.field", "event.field", or a bare name that is not one of the
 * other keys: checked against the events in sort_trace__load(); each may
 * end in "/raw"), or a group (sort_trace__is_group())
 * Return: its slot (SORT_DYN0...), -ENOENT (not a tracepoint key),
 * -E2BIG (too many), -ENOMEM.
 */
int sort_trace__add_key(struct sort_trace *st, const char *tok);

/**
 * sort_trace__load - read @h's tracing data and check every field key
 * names a field of a recorded event (and its event one event only)
 * @m: resolves kernel addresses in the payloads
 * @bad: the first key that names none (for the message)
 *
 * Without tracing data the trace key is "N/A" (as perf's), a field key
 * names none.  Return: 0, -ENOENT (@bad set), -EINVAL (malformed tracing
 * data), -ENOMEM.
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
 * sort_trace__fill - the key values of sample @s into @tmpl->dyn (strings
 * interned in @m; the array interned in @st, valid until sort_trace__exit())
 * Return: 0 or -ENOMEM.
 */
int sort_trace__fill(struct sort_trace *st, struct machine *m, const struct perf_event_attr *attr,
		     const struct perf_sample *s, struct hist_entry *tmpl);

#endif
