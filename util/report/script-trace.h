/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracepoint part of `perf script`: each tracepoint sample's payload
 * (PERF_SAMPLE_RAW) formatted by libtraceevent with its plugins, from the
 * event formats in the file's tracing data, as the kernel prints the event
 * in tracefs's `trace`; and the list of an event's fields.
 */
#ifndef TPERF_SCRIPT_TRACE_H
#define TPERF_SCRIPT_TRACE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/perf-data/event.h"
#include "util/perf-data/header.h"
#include "util/trace/trace-event.h"

struct script_trace {
	struct trace_event tev;
	struct trace_seq seq;		/* reused for every sample */
	bool loaded;
	/*
	 * Set by script_trace__fprintf() when it printed a sample raw for the
	 * first time: the event's name ("" when the file has no format for
	 * it); the caller warns once and sets it back to NULL.
	 */
	const char *warn;
	bool warned_unknown;
	/* compiled print fmts by event id (trace-fast.h), open addressing */
	struct script_trace_fast {
		int id;
		bool tried;
		struct trace_fast *prog;
	} fast[128];
	/*
	 * The text of recent payloads that went through libtraceevent, by
	 * their bytes (and CPU): a payload's text depends on nothing else,
	 * and traces repeat payloads (a ping-pong's sched_switch).
	 */
	struct script_trace_memo *memo;
};

/**
 * script_trace__init - load the tracing data of @h (TRACING_DATA feature or
 * pipe-mode record)
 * Return: 0, -ENOENT (the file has no tracing data), -EINVAL (malformed),
 * -ENOMEM.
 */
int script_trace__init(struct script_trace *st, struct perf_header *h);
void script_trace__exit(struct script_trace *st);

struct machine;

/**
 * script_trace__set_machine - resolve kernel addresses printed with %pS/%ps
 * (kmem's call_site, hrtimer functions...) through @m's kernel map, as perf
 * script does; without it they print as hex
 */
void script_trace__set_machine(struct script_trace *st, struct machine *m);

/**
 * script_trace__fprintf - the payload of tracepoint sample @s of @attr, as
 * libtraceevent prints it; an event whose print fmt could not be parsed
 * prints as libtraceevent (and perf) print it, "[FAILED TO PARSE]" and its
 * raw fields, one without a format (or without fields) as "raw=<hex bytes>"
 * (st->warn is set the first time an event is printed raw)
 * Return: 0 or -EIO.
 */
int script_trace__fprintf(FILE *fp, struct script_trace *st, const struct perf_event_attr *attr,
			  const struct perf_sample *s);

/**
 * script_trace__list_fields - the fields of every tracepoint event of @h,
 * one event a paragraph: "sys:name" then one line a field, common fields
 * first, as the event's format file has them ("\tfield:TYPE NAME;\toffset:O;
 * \tsize:S;\tsigned:0|1;"), paragraphs separated by an empty line
 * @event: only this event ("sys:name" or "name"), or NULL for all
 * Return: 0, -ENOENT (no such event) or -EIO.
 */
int script_trace__list_fields(FILE *fp, struct script_trace *st, struct perf_header *h,
			      const char *event);

#endif
