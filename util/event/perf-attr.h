/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf_event_attr as perf shows it in `perf evlist`: the name perf gives an
 * event that has none stored (type/config + modifiers) and the one-line
 * "field: value, ..." layout of `perf evlist -v`.
 */
#ifndef TPERF_PERF_ATTR_H
#define TPERF_PERF_ATTR_H

#include <linux/perf_event.h>
#include <stddef.h>

/**
 * perf_attr__default_name - the name perf 6.1 shows for @attr without a stored one
 * @attr: the event
 * @buf: output, @size bytes
 *
 * "cycles:uH", "cpu-clock", "L1-dcache-load-misses", "raw 0x1cd",
 * "mem:0x1000:rw", "unknown tracepoint", "unknown attr type: 11".
 * Return: the length written.
 */
int perf_attr__default_name(const struct perf_event_attr *attr, char *buf, size_t size);

/**
 * perf_attr__for_each_field - call @fn for each non-zero field in perf's order
 * @attr: the event
 * @fn: gets the field name ("sample_type", "{ sample_period, sample_freq }")
 *      and its value as perf prints it ("IP|TID", "0x531", "4000")
 * @priv: passed to @fn
 *
 * The order and value formats are those of perf's attr printer, shared by
 * `perf evlist -v` (one line) and `-vv` dumps (one field a line).
 */
void perf_attr__for_each_field(const struct perf_event_attr *attr,
			       void (*fn)(const char *name, const char *val, void *priv),
			       void *priv);

/**
 * perf_attr__snprint_line - @attr as `perf evlist -v` prints it after the name
 * (": size: 112, { sample_period, sample_freq }: 4000, ...", without newline)
 * Return: the length it needs (snprintf semantics).
 */
int perf_attr__snprint_line(const struct perf_event_attr *attr, char *buf, size_t size);

#endif
