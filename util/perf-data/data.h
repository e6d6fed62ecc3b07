/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * perf.data input and output.
 *
 * Reading: a file (its header and features from a mapping of it), a pipe
 * or stdin, or perf's directory format (DIR/data with the header, DIR/data.N
 * with more records).  Records are read (pread() or read()) into blocks and
 * handed out where they are; a block is read into again once nothing
 * holds it.  Touching a mapping page after page costs a microsecond per
 * page on a VM with shadow page tables, four times what reading costs.
 * PERF_RECORD_COMPRESSED payloads (zstd) are decompressed on the fly and
 * their records handed out as if they were in the file.  A file whose
 * header says data.size 0, or more than the file holds (perf record was
 * killed), is read to the end of the file and stops at the last complete
 * record (perf_data.truncated says so).
 *
 * Writing: perf_data__open_write() writes the header and the attrs at
 * once (file mode, data.size 0: a killed writer leaves a readable file) or
 * the pipe header and HEADER_ATTR / HEADER_FEATURE / FINISHED_INIT
 * records (pipe mode, path "-"); perf_data__write() buffers records;
 * perf_data__finish() writes the feature sections and fixes the header.
 */
#ifndef TPERF_DATA_H
#define TPERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/perf-data/header.h"

/* One record as the reader hands it out. */
struct perf_data_record {
	const union perf_event *event;	/* 8-byte aligned; valid until the next call */
	u64 offset;			/* in its file (a decompressed record: the
					 * offset of its COMPRESSED record) */
	const void *payload;		/* bytes that follow a HEADER_TRACING_DATA
					 * record, else NULL */
	u64 payload_size;		/* its size, or an AUXTRACE record's (whose
					 * payload is skipped, never read) */
	bool decompressed;
	struct perf_data_block *block;	/* the block it was read into (NULL: a
					 * copy): perf_data__hold() keeps it valid
					 * past the next call */
	int file_idx;			/* directory format: 0 for data, N for data.N */
};

struct perf_data_src;
struct perf_data_block;

struct perf_data {
	char *path;			/* as given ("-" for stdin/stdout) */
	bool is_pipe;			/* pipe format (header records) */
	bool is_dir;
	bool writing;
	int fd;
	struct perf_header header;
	char errmsg[512];		/* the last error, with the file name */

	/* reading */
	struct perf_data_src *src;
	u64 data_start, data_end;	/* the data section actually read */
	bool size_fixed;		/* data.size was 0 or past the end of the file */
	bool truncated;			/* the last record was incomplete */
	u64 truncated_at;
	u32 truncated_type;		/* when the input ended in its payload: */
	u64 truncated_payload;		/* the record's type, its payload's size */
	u64 truncated_payload_held;	/* and how much of it the input held */
	u64 nr_compressed;		/* COMPRESSED and COMPRESSED2 records decompressed */
	u64 nr_compressed2;		/* of them COMPRESSED2 (perf >= 6.16) */
	u64 compressed_bytes, decompressed_bytes;

	/* writing */
	struct perf_header *wh;		/* the header being written (the caller's) */
	bool own_finished_init;		/* pipe: the caller writes FINISHED_INIT itself
					 * (after its synthesized records, as perf) */
	bool pipe_attrs_only;		/* pipe: the HEADER_ATTR records, no feature
					 * record (perf stat record's stream) */
	struct wbuf out;
	u64 written;			/* data bytes written */
	u64 out_bytes;			/* bytes that reached the output (header too):
					 * after a write error, what it holds */
	u64 data_offset;
};

/**
 * perf_data__open_read - open a perf.data for reading and read its header
 * @d: zeroed
 * @path: a file, a perf.data directory, or "-" for stdin
 *
 * File mode: h->attrs and h->env are filled from the header.  Pipe mode:
 * only the 16-byte header is read; the header records come through
 * perf_data__next() (util/perf-data/session.c processes them).
 * Return: 0 or -errno with d->errmsg set.
 */
int perf_data__open_read(struct perf_data *d, const char *path);

/**
 * perf_data__next - the next record of the data section(s)
 * @d: opened for reading
 * @rec: filled
 *
 * Return: 1 with @rec, 0 at the end (check d->truncated), -errno with
 * d->errmsg ("'perf.data': invalid record size 4 at offset 0x1234").
 */
int perf_data__next(struct perf_data *d, struct perf_data_record *rec);

/**
 * perf_data__hold - keep the record of block @b (perf_data_record.block)
 * valid, and its block with it, until perf_data__unhold(@b); before the
 * file is closed
 */
void perf_data__hold(struct perf_data_block *b);
/** perf_data__unhold - see perf_data__hold(); the block may be read into again */
void perf_data__unhold(struct perf_data_block *b);

/**
 * perf_data__open_write - create a perf.data and write its start
 * @d: zeroed
 * @path: the file, or "-" for stdout in pipe mode
 * @h: the events (attrs with ids) and env, used (not copied) until
 *     perf_data__finish(): the caller may still fill h->env (SAMPLE_TIME,
 *     BUILD_ID) before finishing.  Its feature bits are set at the end.
 *
 * Return: 0 or -errno with d->errmsg set.
 */
int perf_data__open_write(struct perf_data *d, const char *path, const struct perf_header *h);

/**
 * perf_data__write - append records to the data section (buffered)
 * Return: 0 or -errno (write error, disk full, closed pipe).
 */
int perf_data__write(struct perf_data *d, const void *buf, size_t size);

/**
 * perf_data__flush - write the buffered records to the file now
 * (record calls it at each round, so a killed writer loses little).
 * Return: 0 or -errno.
 */
int perf_data__flush(struct perf_data *d);

/**
 * perf_data__finish - flush, write the feature sections and the final header
 * Return: 0 or -errno; the file is closed either way (see perf_data__close).
 */
int perf_data__finish(struct perf_data *d);

/* Close and free (reader or writer; a writer not finished leaves data.size 0). */
void perf_data__close(struct perf_data *d);

/**
 * perf_data__default_input - the input a reader takes without -i
 *
 * Return: "-" when stdin is a pipe (`perf record -o - | tperf report`), as
 * perf does, else "perf.data".
 */
const char *perf_data__default_input(void);

#endif
