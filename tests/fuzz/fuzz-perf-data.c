// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: the perf.data reader.  The input is written to a memfd
 * and read through the path /proc/self/fd/N, so both the file-mode header
 * (attrs, feature sections) and the record loop (samples parsed by their
 * attr, zstd payloads, ordered events) see it; inputs that start with a
 * pipe-mode header exercise the header records too.  Every sample is
 * synthesized back and re-parsed, and every record goes through the -D
 * dump (util/perf-data/event-fprintf.c) into /dev/null.
 *
 * Build: clang -fsanitize=fuzzer,address -I. tests/fuzz/fuzz-perf-data.c
 *        libtperf-internal.a -lzstd ...   (tests/fuzz/run.sh does it)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "util/perf-data/session.h"

static int on_sample(struct perf_tool *t, struct perf_session *s, const union perf_event *ev,
		     struct perf_sample *sample, struct perf_header_attr *a)
{
	static u64 buf[8192];
	struct perf_sample again;
	int n;

	if (!a)
		return 0;
	n = perf_sample__synthesize(&a->attr, sample, buf, sizeof(buf));
	if (n > 0 && perf_sample__parse(&a->attr, buf, n, &again))
		abort();	/* what we write we must read */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct perf_tool tool = { .sample = on_sample, .ordered_events = true };
	struct perf_session *s;
	char path[64], msg[512];
	int fd, err;

	if (!null)
		null = fopen("/dev/null", "w");
	tool.dump_fp = null;
	fd = fuzz_input_file("fuzz-perf-data", data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	s = perf_session__new(path, &err, msg, sizeof(msg));
	if (s) {
		perf_session__process_events(s, &tool);
		perf_session__delete(s);
	}
	close(fd);
	return 0;
}
