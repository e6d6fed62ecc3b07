/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace-cmd's trace.dat, versions 6 and 7 (trace-cmd.dat.v6(5),
 * trace-cmd.dat.v7(5)): writing the recorded ftrace pages with the metadata
 * needed to decode them, and reading such files (written by tperf or
 * trace-cmd, any endianness and long size).  Version 7 is made of sections
 * found through chains of options sections; its metadata sections and its
 * ring-buffer pages may be compressed (zstd or zlib), the pages in chunks
 * that the reader inflates one at a time.
 */
#ifndef TPERF_TRACE_DAT_H
#define TPERF_TRACE_DAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/trace/ftrace-page.h"
#include "util/trace/trace-event.h"

/* trace-cmd's option ids (TRACECMD_OPTION_*) that tperf writes or reads. */
enum {
	TRACE_DAT_OPT_DONE = 0,
	TRACE_DAT_OPT_DATE = 1,
	TRACE_DAT_OPT_CPUSTAT = 2,
	TRACE_DAT_OPT_BUFFER = 3,
	TRACE_DAT_OPT_TRACECLOCK = 4,
	TRACE_DAT_OPT_UNAME = 5,
	TRACE_DAT_OPT_CPUCOUNT = 8,
	TRACE_DAT_OPT_VERSION = 9,
	TRACE_DAT_OPT_BUFFER_TEXT = 22,
};

/* Version 7 section ids (the options that point to them share the ids). */
enum {
	TRACE_DAT_SEC_OPTIONS = 0,
	TRACE_DAT_SEC_BUFFER = 3,
	TRACE_DAT_SEC_STRINGS = 15,
	TRACE_DAT_SEC_HEADER = 16,
	TRACE_DAT_SEC_FTRACE = 17,
	TRACE_DAT_SEC_EVENTS = 18,
	TRACE_DAT_SEC_KALLSYMS = 19,
	TRACE_DAT_SEC_PRINTK = 20,
	TRACE_DAT_SEC_CMDLINES = 21,
	TRACE_DAT_SEC_BUFFER_TEXT = 22,	/* a latency file's text */
};

#define TRACE_DAT_SEC_COMPRESSED 1		/* section flag */
#define TRACE_DAT_MAX_CPUS	4096
#define TRACE_DAT_MAX_BLOCK	(1ULL << 30)	/* largest decompressed block */

/* A compressed block of a CPU's pages (version 7). */
struct trace_dat_chunk {
	uint64_t offset;	/* of the compressed bytes in the file */
	uint32_t csize, usize;
};

struct trace_dat_cpu {
	int buffer, cpu;	/* its buffer (0: the top one) and CPU number */
	uint64_t offset, size;	/* of its pages (or chunks) in the file */
	struct trace_dat_chunk *chunks;	/* when the buffer is compressed */
	uint32_t nr_chunks;
};

/* An opened trace.dat: the file is mapped, the formats parsed. */
struct trace_dat {
	char *path;
	const uint8_t *map;
	size_t size;
	int version, big_endian, long_size, page_size;
	struct ftrace_page_fmt pfmt;
	struct trace_event tevent;
	int nr_cpus;
	struct trace_dat_cpu *cpus;	/* the CPUs of every buffer, nr_slots */
	int nr_slots;
	int nr_buffers;		/* the top buffer and the instances (record -B) */
	const char *latency_text;	/* a latency file: the text of tracing/trace, */
	size_t latency_len;		/*   in place of any CPU data (NULL: none) */
	void *latency_owned;		/*   (decompressed, version 7) */
	char **buffer_names;	/* "" for the top one */
	char *clock;		/* the trace_clock in use ("local"), or NULL */
	char *uname, *tracer_version, *cpustats;
	int has_kallsyms, has_header;
	int mapped;		/* map is an mmap() of the file */
	char *compression;	/* version 7: "none", "zstd" or "zlib" */
	int compressed;		/* the CPU pages are in compressed chunks */
	void *show_priv;	/* a reader's per-file cache (ftrace-show's), */
	void (*show_priv_free)(void *);	/*   freed by trace_dat__close() */
};

/* One event from the merged iteration. */
struct trace_dat_event {
	int cpu;
	int buffer;		/* index into trace_dat.buffer_names */
	uint64_t ts;
	const uint8_t *data;
	uint32_t size;
	long long missed;	/* events lost on this CPU just before: -1 unknown */
};

struct trace_dat_iter_cpu;
struct trace_dat_iter {
	struct trace_dat *td;
	struct trace_dat_iter_cpu *cpu;
	uint64_t bad_offset;	/* where the data is corrupt, after -EINVAL */
};

/**
 * trace_dat__open - map and parse the metadata of the trace.dat @path
 * @err: on failure, why (naming the file and the offset)
 * Returns 0 or -errno.
 */
int trace_dat__open(struct trace_dat *td, const char *path, char *err, size_t errsize);

/**
 * trace_dat__open_mem - parse a trace.dat image in memory (@buf must outlive @td)
 */
int trace_dat__open_mem(struct trace_dat *td, const void *buf, size_t size,
			const char *name, char *err, size_t errsize);

/**
 * trace_dat__close - release what trace_dat__open() took
 */
void trace_dat__close(struct trace_dat *td);

/**
 * trace_dat__iter_init - iterate over all events, merged by time across CPUs
 * Returns 0 or -ENOMEM.
 */
int trace_dat__iter_init(struct trace_dat_iter *it, struct trace_dat *td);

/**
 * trace_dat__iter_next - the next event in time order
 * Returns 1, 0 at the end, -EINVAL on corrupt data (it->bad_offset says where).
 * The data of an event stays valid until two more events have been read.
 */
int trace_dat__iter_next(struct trace_dat_iter *it, struct trace_dat_event *ev);

/**
 * trace_dat__iter_exit - free the iterator
 */
void trace_dat__iter_exit(struct trace_dat_iter *it);

/**
 * trace_dat__format_ok - whether the event format @text (@size bytes) is laid
 *	out as tracefs writes it; the reader hands only such formats to
 *	libtraceevent, whose parser crashes on some malformed ones
 */
int trace_dat__format_ok(const char *text, size_t size);


/**
 * trace_dat__compress - deflate @len bytes with @algo ("zstd", "zlib") into a
 *	malloc()ed *@out of *@olen bytes
 * Returns 0, -ENOTSUP for an unknown @algo, -ENOMEM.
 */
int trace_dat__compress(const char *algo, const void *in, size_t len, void **out,
			size_t *olen);

/* What trace_dat__write() puts in the file. */
struct trace_dat_wparams {
	const char *tracefs;		/* the tracefs mount (event formats) */
	const char *const *events;	/* "sys/name" of every recorded event */
	int nr_events;
	int nr_cpus;
	const int *cpu_fds;		/* the pages of each CPU, from offset 0 */
	const char *clock_text;		/* the instance's trace_clock file */
	const char *cpustats;		/* per_cpu/cpuN/stats, concatenated */
	const char *version;		/* written as the VERSION option */
	int file_version;		/* 6 (0 means 6) or 7 */
	const char *compression;	/* version 7: "zstd", "zlib", or NULL/"none" */
};

/**
 * trace_dat__write - write a version 6 or 7 trace.dat to @path (emptied,
 * or made; never through a symbolic link: util/lib/file-out.h)
 * @err: on failure, what failed
 * Returns 0 or -errno.
 */
int trace_dat__write(const char *path, const struct trace_dat_wparams *p,
		     char *err, size_t errsize);

/**
 * trace_dat__write_fd - write a version 6 or 7 trace.dat to @fd (left open)
 * @name: the file's name, for the messages
 * @err: on failure, what failed, with how much reached the file
 *
 * Version 6 is written in order (a FIFO will do); version 7 goes back to
 * patch sizes (pwrite()).
 * Returns 0 or -errno.
 */
int trace_dat__write_fd(int fd, const char *name, const struct trace_dat_wparams *p,
			char *err, size_t errsize);

/**
 * trace_dat__iter_peek - the next event of buffer @buffer, not consumed
 * (trace-cmd's look at a buffer's next record); 1, 0 at the end, -errno
 */
int trace_dat__iter_peek(struct trace_dat_iter *it, int buffer, struct trace_dat_event *ev);
/** trace_dat__iter_drop - consume the event trace_dat__iter_peek() gave */
void trace_dat__iter_drop(struct trace_dat_iter *it, int buffer);

#endif
