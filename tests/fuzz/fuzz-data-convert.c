// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target: tperf data convert (util/convert/) over a perf.data:
 * the JSON writer (samples resolved through a machine without symbol
 * files, into /dev/null), the pprof writer (last byte 2 mod 4: the same
 * resolution, interned and packed, gzipped into /dev/null) or, when the
 * last byte is odd, the CTF writer
 * (event classes from the header and the tracing data, every sample's
 * generic and tracepoint fields read from its record: offsets, dynamic
 * locations and strings bounded by it; --all's side-band records) into a
 * scratch directory (/dev/shm) that the target removes at exit.  The input is
 * written to a memfd and read through /proc/self/fd/N.  A failed
 * conversion must say why.  Seeds: tests/fuzz/corpus/data-convert/ (small
 * tracepoint and callchain recordings).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz-input.h"
#include "util/convert/convert.h"
#include "util/model/machine.h"
#include "util/perf-data/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libtraceevent 1.7 leaks when tep_parse_event() fails half way (its bug) */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static char ctf_dir[64];

static void remove_ctf_dir(void)
{
	DIR *d = opendir(ctf_dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
	rmdir(ctf_dir);
}

static void to_json(FILE *null, struct perf_session *s, const char *path, bool pprof)
{
	struct machine_opts mo = { .symfs = "/nonexistent", .kallsyms = "/dev/null" };
	struct convert_stats st;
	struct machine m;
	char msg[512] = "";
	int err;

	if (machine__init(&m, &mo, &s->header->env))
		return;
	if (pprof)	/* the writer closes the descriptor it is given */
		err = convert_pprof__write(dup(fileno(null)), s, &m, &st, msg, sizeof(msg));
	else
		err = convert_json__write(null, s, &m, path, &st, msg, sizeof(msg));
	if (err && err != -ENOMEM && err != -EIO && !msg[0] && !s->errmsg[0] && err < 0)
		abort();	/* an error says what it is */
	convert_stats__exit(&st);
	machine__exit(&m);
}

static void to_ctf(struct perf_session *s, bool all)
{
	struct convert_ctf_opts o = { .force = true, .all = all };
	struct convert_stats st;
	char msg[512] = "";
	int err;

	err = convert_ctf__write(ctf_dir, &o, s, &st, msg, sizeof(msg));
	if (err && err != -ENOMEM && !msg[0] && !s->errmsg[0] && err < 0)
		abort();
	convert_stats__exit(&st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	struct perf_session *s;
	char path[64], msg[512];
	int fd, err;

	if (!null) {
		null = fopen("/dev/null", "w");
		/* in memory when /dev/shm is there: a conversion writes a few files */
		snprintf(ctf_dir, sizeof(ctf_dir), "%s/fuzz-data-convert.%d",
			 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm", (int)getpid());
		atexit(remove_ctf_dir);
	}
	fd = fuzz_input_file("fuzz-data-convert", data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	s = perf_session__new(path, &err, msg, sizeof(msg));
	if (s) {
		if (size && (data[size - 1] & 1))
			to_ctf(s, data[size - 1] & 2);
		else
			to_json(null, s, path, size && (data[size - 1] & 2));
		perf_session__delete(s);
	}
	close(fd);
	return 0;
}
