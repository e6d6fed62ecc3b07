/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `tperf data convert`: a perf.data written out for other tools, as perf
 * 6.1's `perf data convert` writes it.
 *
 *   --to-json FILE: perf's JSON layout (linux-perf-json-version 1): the
 *	header values, then every sample with its callchain resolved to
 *	symbols and DSOs (convert-json.c);
 *   --to-ctf DIR: CTF 1.8 through libbabeltrace-ctf's writer, one event
 *	class per event with perf's field names (perf_ip, perf_tid ...,
 *	tracepoint fields by name), COMM/FORK/EXIT/MMAP/MMAP2 classes with
 *	--all, one stream per CPU (convert-ctf.c);
 *   --to-pprof FILE (beyond perf): pprof's gzipped profile.proto through
 *	protobuf-c, for Go's pprof (convert-pprof.c).
 */
#ifndef TPERF_CONVERT_H
#define TPERF_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/perf-data/perf-data.h"

struct machine;
struct perf_session;

/* What a conversion wrote, for the command's summary lines and -v. */
struct convert_stats {
	u64 samples;			/* samples written */
	u64 non_samples;		/* --all: side-band records written */
	u64 bytes;			/* CTF: bytes of the records converted */
	int nr_attrs;
	u64 *per_attr;			/* samples written of each event (nr_attrs) */
	int nr_cpus;
	u64 *per_cpu;			/* CTF: events written to each CPU's stream */
};

void convert_stats__exit(struct convert_stats *st);

/**
 * convert_json__write - @s's samples as perf 6.1's JSON into @out
 * @m: the machine the samples resolve in (reader__machine())
 * @input: the input's path, for its modification time ("captured-on")
 * @st: the counts, zeroed first
 * @msg: why it failed (@size bytes)
 *
 * Return: 0, a session error (-errno, s->errmsg says where), -ENOMEM or
 * -EIO (@out could not be written).
 */
int convert_json__write(FILE *out, struct perf_session *s, struct machine *m, const char *input,
			struct convert_stats *st, char *msg, size_t size);

/* --to-ctf's choices. */
struct convert_ctf_opts {
	bool all;			/* also COMM, FORK, EXIT, MMAP, MMAP2 */
	bool tod;			/* timestamps on the wall clock (CLOCK_DATA) */
	bool force;			/* replace a non-empty output directory */
};

/**
 * convert_ctf__available - was tperf built with libbabeltrace-ctf?
 */
bool convert_ctf__available(void);

/**
 * convert_ctf__write - @s as a CTF trace in directory @dir
 * @st: the counts, zeroed first
 * @msg: why it failed (@size bytes)
 *
 * The directory is made when absent; one with other files in it is refused
 * unless @o->force, which replaces the CTF files (metadata, perf_stream_N)
 * a previous conversion left.
 * Return: 0, -EEXIST, -ENOTSUP (no clock data for --tod, a pipe, no
 * libbabeltrace-ctf), -ENOMEM, -EIO or a session error (-errno).
 */
int convert_ctf__write(const char *dir, const struct convert_ctf_opts *o, struct perf_session *s,
		       struct convert_stats *st, char *msg, size_t size);

/**
 * convert_pprof__available - was tperf built with protobuf-c?
 */
bool convert_pprof__available(void);

/**
 * convert_pprof__write - @s's samples as a gzipped pprof profile into @fd
 * (closed here, whatever happens)
 * @m: the machine the samples resolve in (reader__machine())
 * @st: the counts, zeroed first (bytes: the profile before compression)
 * @msg: why it failed (@size bytes)
 *
 * Return: 0, -ENOTSUP (a pipe, no protobuf-c), -ENOMEM, -EIO or a session
 * error (-errno, s->errmsg says where).
 */
int convert_pprof__write(int fd, struct perf_session *s, struct machine *m,
			 struct convert_stats *st, char *msg, size_t size);

#endif
