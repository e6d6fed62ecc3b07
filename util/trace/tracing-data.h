/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracing data perf writes for tracepoint events (the TRACING_DATA
 * feature, or a HEADER_TRACING_DATA record in pipe mode): version 0.6 of
 * perf's format, with tracefs's header_page, header_event, the format
 * file of every recorded tracepoint grouped by system, printk_formats and
 * saved_cmdlines.  kallsyms is written empty (perf accepts it: symbols
 * come from the kernel map).
 */
#ifndef TPERF_TRACING_DATA_H
#define TPERF_TRACING_DATA_H

#include <stddef.h>

struct evlist;
struct trace_event;

/**
 * tracing_data__build - the tracing data for the tracepoints of @evlist
 * @evlist: the events (those with tp_sys/tp_name are described)
 * @buf: receives a malloc'ed blob, or NULL when there is no tracepoint
 * @size: its size
 *
 * Return: 0 or -errno (tracefs not mounted, a format file unreadable).
 */
int tracing_data__build(struct evlist *evlist, void **buf, size_t *size);

/**
 * tracing_data__parse - load perf's tracing data (versions 0.5 and 0.6, either
 * byte order) into a new libtraceevent handle with its plugins
 * @t: initialised here; trace_event__exit() it after a 0 return
 * @data: the blob (TRACING_DATA feature or pipe-mode record), @size bytes
 *
 * Event formats that libtraceevent cannot parse do not fail the load: they
 * are listed in @t->bad (see trace_event__bad()).  kallsyms, printk formats
 * and saved cmdlines are loaded when present.
 *
 * Return: 0, -EINVAL (malformed data: nothing is left allocated) or -ENOMEM.
 */
int tracing_data__parse(struct trace_event *t, const void *data, size_t size);

struct perf_header;
struct trace_seq;
/**
 * tracing_data__load - tracing_data__parse() of @h's tracing data (its
 * TRACING_DATA feature, or a pipe's record), with @seq ready for printing
 * Return: 0, -ENOENT (@h has none), -EINVAL or -ENOMEM; after 0,
 * tracing_data__unload() frees both.
 */
int tracing_data__load(struct trace_event *t, struct trace_seq *seq, const struct perf_header *h);

/** tracing_data__unload - free what tracing_data__load() made */
void tracing_data__unload(struct trace_event *t, struct trace_seq *seq);

/* The text tables of tracing data and trace.dat files, in trace_table__parse()'s order. */
enum trace_table { TRACE_TABLE_KALLSYMS, TRACE_TABLE_PRINTK, TRACE_TABLE_CMDLINES };

struct tep_handle;
/**
 * trace_table__parse - give table @which, NUL-terminated @text (changed in
 * place), to libtraceevent's parser of it, with only its well-formed lines:
 * the parsers trust their input and read past malformed lines (fuzzing
 * found it, in perf.data and trace.dat files alike)
 */
void trace_table__parse(struct tep_handle *tep, enum trace_table which, char *text);

#endif
