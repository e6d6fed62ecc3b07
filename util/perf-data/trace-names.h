/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tracepoint names from a perf.data's tracing data (the TRACING_DATA
 * feature or the pipe-mode record): the event format files it carries say
 * "name: N" and "ID: I" under their system, so an attr's config (the ID)
 * names its event "system:name", as perf report shows it.
 */
#ifndef TPERF_TRACE_NAMES_H
#define TPERF_TRACE_NAMES_H

#include <stddef.h>
#include <stdint.h>

/**
 * trace_names__find - the "system:name" of tracepoint @id in @data
 * @data: the tracing data (starts with "\x17\x08\x44tracing"), @size bytes
 * @buf: receives the name, @bufsize bytes
 * Return: 0, -ENOENT (no such ID) or -EINVAL (malformed data).
 */
int trace_names__find(const void *data, size_t size, uint64_t id, char *buf, size_t bufsize);

#endif
