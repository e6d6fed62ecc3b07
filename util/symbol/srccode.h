/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text of source lines (perf script -F srccode): files are read once
 * and kept, a few at a time, with an index of their line starts.
 */
#ifndef TPERF_SRCCODE_H
#define TPERF_SRCCODE_H

#include <stddef.h>

/**
 * srccode__line - line @line (1-based) of the file @path, without its newline
 * @text: receives a pointer into the cached file (valid until the next call)
 * @len: receives its length
 * Return: 0, or -ENOENT when the file cannot be read or is shorter.
 */
int srccode__line(const char *path, unsigned int line, const char **text, size_t *len);

/** srccode__exit - drop the cached files */
void srccode__exit(void);

#endif
