// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the trace.dat reader.  The input is parsed as a whole
 * trace.dat image (metadata, formats, options, CPU table), then every event
 * is decoded and formatted as `tperf ftrace show` and `show -l` print it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/trace/ftrace-show.h"
#include "util/trace/trace-dat.h"

/*
 * libtraceevent 1.7 leaks a few bytes when tep_parse_event() fails on a
 * malformed format: that is its bug, not the reader's; leaks allocated from
 * tperf's own code are still reported.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_dat td;
	struct trace_dat_iter it;
	struct trace_dat_event ev;
	char err[512];
	int n = 0;

	if (trace_dat__open_mem(&td, data, size, "fuzz.dat", err, sizeof(err)))
		return 0;
	if (!trace_dat__iter_init(&it, &td)) {
		while (n++ < 10000 && trace_dat__iter_next(&it, &ev) > 0) {
			struct ftrace_line line;
			struct trace_seq s;

			if (ftrace_show__decode(&td, &ev, &line))
				continue;
			trace_seq_init(&s);
			ftrace_show__format(&td, &line, n & 1, &s);
			trace_seq_destroy(&s);
		}
		trace_dat__iter_exit(&it);
	}
	trace_dat__close(&td);
	return 0;
}
