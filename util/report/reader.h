/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every command that reads a perf.data sets up the same way (report,
 * script, and the coming c2c, mem, diff): the session of -i, checked
 * against --unwinder first, and the machine its samples resolve in, with
 * --symfs, --kallsyms, --unwinder, --no-inline and the DWARF preloading
 * that goes with inline frames.  The command does what it needs with the
 * header in between (header printing, field lists, filters).
 */
#ifndef TPERF_READER_H
#define TPERF_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "util/lib/debug.h"

struct machine;
struct perf_session;

struct reader_opts {
	const char *input;		/* -i: a file, a directory or "-" */
	const char *symfs, *kallsyms;	/* or NULL */
	const char *unwinder;		/* --unwinder, or NULL: libdw */
	bool inline_frames;		/* --inline (the default) */
};

/*
 * The session of @o->input, its progress said through @progress (NULL:
 * none).  NULL with the message in @msg: an unknown or absent unwinder, a
 * file that cannot be read.
 */
struct perf_session *reader__open(const struct reader_opts *o, say_fn *progress, char *msg,
				  size_t size);
/*
 * The machine of @s's samples in @m; @kernel_preload: the kernel's symbols
 * loaded on a thread from its MMAP on; @warn: its warnings (a DSO that is
 * not the one recorded).  0 or -ENOMEM.
 */
int reader__machine(struct machine *m, const struct reader_opts *o, struct perf_session *s,
		    bool kernel_preload, say_fn *warn);

#endif
