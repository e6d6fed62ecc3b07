// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf.data reader and writer (see util/perf-data/data.h for the rules).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "util/lib/io.h"
#include "util/perf-data/data.h"
#include "util/lib/debug.h"
#include "util/lib/file-out.h"

#define BLOCK_BYTES	(1u << 20)	/* streamed input is read in blocks this big */
#define WRITE_BUF	(1024 * 1024)
#define MAX_DECOMP	(512u << 20)	/* per COMPRESSED record: refuse zip bombs */
#define DBUF_BYTES	(1u << 20)	/* decompressed records: 16 of the largest (64 KiB) */
#define SKIP_CHUNK	16384		/* a pipe's AUXTRACE payload is read and dropped so */

struct perf_data_src {
	/* a file's header and features are read from its mapping */
	u8 *map;
	size_t map_size;
	/* records are read into blocks (struct perf_data_block) */
	int fd;				/* d->fd, or a directory's data.N (own_fd) */
	int own_fd;
	struct perf_data_block *block;	/* the one being read */
	struct perf_data_block *blocks, *free_blocks;
	u8 *buf;			/* block's data */
	size_t cap, lo, hi;		/* unread bytes are buf[lo, hi) */
	bool eof;
	bool file;			/* a regular file: pread() up to end */
	/* common */
	u64 pos, end;			/* file offsets: next byte, end of the records */
	u64 pending;			/* bytes handed out, skipped at the next call */
	u64 pending_off;		/* the record they start at, */
	u32 pending_type;		/* its type */
	u64 pending_payload;		/* and the payload at their end */
	u64 *rec;			/* aligned copy of a misaligned record */
	size_t rec_cap;
	u8 *pay;			/* a pipe's TRACING_DATA payload, until the next call */
	size_t pay_cap;
	/* decompressed records */
	ZSTD_DCtx *zstd;
	u8 *dbuf;			/* DBUF_BYTES, refilled as records are taken */
	size_t dcap, dlo, dhi;
	u64 doff;			/* the record being expanded: its offset */
	u32 dtype;			/* and type, COMPRESSED or COMPRESSED2 */
	u8 *zin;			/* its payload */
	size_t zin_cap, zin_size, zin_pos;
	u64 zout;			/* bytes it expanded to so far */
	bool zmore;			/* the output was full: the decoder may hold more */
	/* directory format */
	char **dir_files;
	int nr_dir_files, dir_idx;
};

static void seterr(struct perf_data *d, const char *fmt, ...) __printf(2, 3);
static void seterr(struct perf_data *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->errmsg, sizeof(d->errmsg), fmt, ap);
	va_end(ap);
}

/* ---- sources ---- */

static int map_file(struct perf_data *d, int fd, const char *name)
{
	struct perf_data_src *s = d->src;
	struct stat st;

	if (fstat(fd, &st)) {
		seterr(d, "cannot stat '%s': %s", name, strerror(errno));
		return -errno;
	}
	s->map_size = st.st_size;
	if (!st.st_size)
		return 0;
	s->map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (s->map == MAP_FAILED) {
		s->map = NULL;
		seterr(d, "cannot map '%s': %s", name, strerror(errno));
		return -errno;
	}
	return 0;
}

/*
 * Streamed input is read into blocks, and records are handed out where
 * they are in them: a record the ordered queue keeps holds its block
 * (perf_data__hold()) instead of being copied, and a block nothing holds
 * any more is read into again.  Its pages were touched before: a first
 * touch of a page costs microseconds on a VM with shadow page tables,
 * which is what reading a file through a mapping did, page after page.
 */
struct perf_data_block {
	struct perf_data_block *next;	/* every block of the source */
	struct perf_data_block *next_free;
	struct perf_data_src *src;
	u32 holds;			/* queued records, and the reader's own while current */
	size_t cap;
	u64 data[];
};

/* The reader is done with block @b (or a queued record in it is). */
static void block_unhold(struct perf_data_block *b)
{
	if (--b->holds)
		return;
	b->next_free = b->src->free_blocks;
	b->src->free_blocks = b;
}

/*
 * Go on in a block with room for @n bytes from the read position: the
 * bytes read but not consumed move to its start.  Return: 0 or -ENOMEM.
 */
static int next_block(struct perf_data_src *s, size_t n)
{
	struct perf_data_block *b, **pp;
	size_t left = s->hi - s->lo, need = n > BLOCK_BYTES ? n : BLOCK_BYTES;

	for (pp = &s->free_blocks; (b = *pp) && b->cap < need; pp = &b->next_free)
		;
	if (b) {
		*pp = b->next_free;
	} else {
		need = (need + 7) & ~(size_t)7;
		b = malloc(sizeof(*b) + need);
		if (!b)
			return -ENOMEM;
		b->cap = need;
		b->src = s;
		b->next = s->blocks;
		s->blocks = b;
	}
	b->holds = 1;
	if (left)
		memcpy(b->data, s->buf + s->lo, left);
	if (s->block)
		block_unhold(s->block);
	s->block = b;
	s->buf = (u8 *)b->data;
	s->cap = b->cap;
	s->lo = 0;
	s->hi = left;
	return 0;
}

/**
 * perf_data__hold - see util/perf-data/data.h
 */
void perf_data__hold(struct perf_data_block *b)
{
	b->holds++;
}

/**
 * perf_data__unhold - see util/perf-data/data.h
 */
void perf_data__unhold(struct perf_data_block *b)
{
	block_unhold(b);
}

/*
 * Make @n bytes at the read position available; returns how many are (less
 * than @n at the end) and their address in *p.  What is allocated for them
 * is bounded by what the input holds: a file's bytes left, or (a pipe) by
 * twice what has arrived, the block doubling as the bytes come.
 */
static size_t src_get(struct perf_data *d, size_t n, const u8 **p)
{
	struct perf_data_src *s = d->src;

	if (s->fd < 0) {
		*p = NULL;
		return 0;
	}
	if (s->file && n > s->end - s->pos)	/* never more than the file holds */
		n = s->pos < s->end ? s->end - s->pos : 0;
	while (s->hi - s->lo < n && !s->eof) {
		size_t grow = s->file ? n : 2 * (s->hi - s->lo);
		ssize_t r;

		/* a pipe's block is filled before a larger one takes its bytes */
		if (s->cap - s->lo < n && (s->file || s->hi == s->cap) &&
		    next_block(s, n < grow ? n : grow))
			break;
		if (s->file) {		/* up to the end of the records */
			u64 off = s->pos + (s->hi - s->lo);
			size_t want = s->cap - s->hi;

			if (off >= s->end) {
				s->eof = true;
				break;
			}
			if (want > s->end - off)
				want = s->end - off;
			r = pread(s->fd, s->buf + s->hi, want, off);
		} else {
			r = read(s->fd, s->buf + s->hi, s->cap - s->hi);
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			s->eof = true;
			break;
		}
		s->hi += r;
	}
	*p = s->buf ? s->buf + s->lo : NULL;	/* none yet: a file at its end */
	return s->hi - s->lo < n ? s->hi - s->lo : n;
}

/*
 * Go @n bytes past the read position: bytes not read yet (an AUXTRACE
 * payload) are passed over in a file, read and dropped from a pipe.
 * Return: false when the input ends first.
 */
static bool src_skip(struct perf_data *d, u64 n)
{
	struct perf_data_src *s = d->src;
	size_t have = s->hi - s->lo;

	if (s->fd < 0 || n <= have) {
		s->pos += n;
		if (s->fd >= 0)
			s->lo += n;
		return true;
	}
	s->pos += have;
	s->lo = s->hi;
	n -= have;
	if (s->file) {		/* the next pread() starts there */
		if (n > s->end - s->pos)
			return false;
		s->pos += n;
		return true;
	}
	while (n) {
		u8 chunk[SKIP_CHUNK];
		ssize_t r = read(s->fd, chunk, n < sizeof(chunk) ? n : sizeof(chunk));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			s->eof = true;
			return false;
		}
		s->pos += r;
		n -= r;
	}
	return true;
}

/* ---- opening ---- */

static int open_dir(struct perf_data *d, const char *path, int *fd)
{
	struct perf_data_src *s = d->src;
	char name[4096];
	DIR *dir;
	struct dirent *e;
	int max = -1;

	snprintf(name, sizeof(name), "%s/data", path);
	*fd = open(name, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		seterr(d, "cannot open '%s': %s (a perf.data directory holds a 'data' file)",
		       name, strerror(errno));
		return -errno;
	}
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((e = readdir(dir)))
		if (!strncmp(e->d_name, "data.", 5) && e->d_name[5])
			max = atoi(e->d_name + 5) > max ? atoi(e->d_name + 5) : max;
	closedir(dir);
	if (max < 0 || max > 65536)
		return 0;
	s->dir_files = calloc(max + 1, sizeof(char *));
	for (int i = 0; s->dir_files && i <= max; i++) {
		struct stat st;

		snprintf(name, sizeof(name), "%s/data.%d", path, i);
		if (!stat(name, &st) && S_ISREG(st.st_mode))
			s->dir_files[s->nr_dir_files++] = strdup(name);
	}
	return 0;
}

static int open_input(struct perf_data *d, const char *path)
{
	struct perf_data_src *s = d->src;
	struct stat st;
	int fd;

	s->fd = s->own_fd = -1;
	if (!strcmp(path, "-")) {
		fd = dup(0);
	} else if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		d->is_dir = true;
		if (open_dir(d, path, &fd))
			return -ENOENT;
	} else {
		fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (fd < 0) {
		int err = errno;

		seterr(d, "cannot open '%s': %s", path, strerror(err));
		return -err;
	}
	d->fd = fd;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		return map_file(d, fd, path);
	s->fd = fd;		/* pipe, FIFO, terminal: stream it */
	return 0;
}

/* The records of regular file @fd are read with pread(), from @pos up to @end. */
static void read_file(struct perf_data_src *s, int fd, u64 pos, u64 end)
{
	/*
	 * A new file (a directory's next data.N) goes into a new block: the
	 * current one may hold records of the last file the queue still has.
	 */
	if (s->block) {
		block_unhold(s->block);
		s->block = NULL;
		s->buf = NULL;
		s->cap = 0;
	}
	s->fd = fd;
	s->file = true;
	s->eof = false;
	s->lo = s->hi = 0;
	s->pos = pos;
	s->end = end;
}

/* The data section to read, with perf's rule for killed writers. */
static void set_data_range(struct perf_data *d)
{
	struct perf_data_src *s = d->src;
	struct perf_header *h = &d->header;
	u64 size = s->map_size;

	d->data_start = h->data.offset;
	d->data_end = h->data.offset + h->data.size;
	if (h->data_size_unknown || d->data_end < d->data_start || d->data_end > size) {
		d->size_fixed = true;
		d->data_end = size;
	}
	read_file(s, d->fd, d->data_start, d->data_end);
}

static int read_stream_header(struct perf_data *d)
{
	const u8 *p;
	int r;

	if (src_get(d, 16, &p) < 16) {
		seterr(d, "'%s' is too small to be a perf.data file", d->path);
		return -EINVAL;
	}
	r = perf_header__check_magic(&d->header, p, d->path);
	if (r < 0) {
		snprintf(d->errmsg, sizeof(d->errmsg), "%s", d->header.errmsg);
		return r;
	}
	if (r == 0) {
		seterr(d, "'%s': a file-mode perf.data cannot be read from a pipe: "
		       "give its name with -i", d->path);
		return -EINVAL;
	}
	d->is_pipe = d->header.pipe = true;
	src_skip(d, 16);
	return 0;
}

/**
 * perf_data__open_read - see util/perf-data/data.h
 */
int perf_data__open_read(struct perf_data *d, const char *path)
{
	struct perf_data_src *s;
	int err;

	perf_header__init(&d->header);
	d->fd = -1;
	d->path = strdup(path);
	d->src = s = calloc(1, sizeof(*s));
	if (!d->path || !s) {
		seterr(d, "out of memory");
		return -ENOMEM;
	}
	err = open_input(d, path);
	if (err)
		return err;
	if (!s->map) {
		s->end = UINT64_MAX;
		if (s->fd < 0) {	/* an empty regular file */
			seterr(d, "'%s' is empty: no perf.data header (was perf record "
			       "stopped before it wrote anything?)", path);
			return -EINVAL;
		}
		return read_stream_header(d);
	}
	err = perf_header__read_file(&d->header, s->map, s->map_size, path);
	if (err) {
		snprintf(d->errmsg, sizeof(d->errmsg), "%s", d->header.errmsg);
		return err;
	}
	d->is_pipe = d->header.pipe;
	if (d->is_pipe) {
		d->data_start = 16;
		d->data_end = s->map_size;
		read_file(s, d->fd, d->data_start, d->data_end);
		return 0;
	}
	set_data_range(d);
	return 0;
}

/* ---- records ---- */

/*
 * The payload (@n bytes at @p) of the COMPRESSED or COMPRESSED2 (@type)
 * record at @off becomes the input of the decompression:
 * next_decompressed() expands it as its records are taken, into
 * DBUF_BYTES, whatever it expands to.
 */
static int decompress(struct perf_data *d, const u8 *p, size_t n, u64 off, u32 type)
{
	struct perf_data_src *s = d->src;

	if (!s->zstd && !(s->zstd = ZSTD_createDCtx()))
		return -ENOMEM;
	if (!s->dbuf) {
		s->dbuf = malloc(DBUF_BYTES);
		if (!s->dbuf)
			return -ENOMEM;
		s->dcap = DBUF_BYTES;
	}
	if (s->zin_cap < n) {	/* at most a record's 64 KiB */
		u8 *nz = realloc(s->zin, n);

		if (!nz)
			return -ENOMEM;
		s->zin = nz;
		s->zin_cap = n;
	}
	if (n)			/* an empty one: nothing to expand */
		memcpy(s->zin, p, n);
	s->zin_size = n;
	s->zin_pos = 0;
	s->zout = 0;
	d->nr_compressed++;
	d->compressed_bytes += n;
	s->doff = off;
	s->dtype = type;
	return 0;
}

/*
 * More decompressed bytes after the ones not taken yet (moved to the start
 * of the buffer).  Return: 1 when some came, 0 when the input is used up,
 * -EINVAL (a corrupt stream, a zip bomb) with the message.
 */
static int decompress_more(struct perf_data *d)
{
	struct perf_data_src *s = d->src;
	ZSTD_inBuffer in = { s->zin, s->zin_size, s->zin_pos };
	ZSTD_outBuffer out;
	size_t r, start;

	if (s->zin_pos >= s->zin_size && !s->zmore)
		return 0;
	if (s->dlo) {
		memmove(s->dbuf, s->dbuf + s->dlo, s->dhi - s->dlo);
		s->dhi -= s->dlo;
		s->dlo = 0;
	}
	start = s->dhi;
	out = (ZSTD_outBuffer){ s->dbuf, s->dcap, s->dhi };
	r = ZSTD_decompressStream(s->zstd, &out, &in);
	if (ZSTD_isError(r)) {
		seterr(d, "'%s': cannot decompress the %s record at offset %#llx: %s", d->path,
		       perf_event__name(s->dtype), (unsigned long long)s->doff,
		       ZSTD_getErrorName(r));
		return -EINVAL;
	}
	s->zmore = out.pos == out.size;
	if (in.pos == s->zin_pos && out.pos == start)
		return 0;	/* nothing more until the next COMPRESSED record */
	s->zin_pos = in.pos;
	s->dhi = out.pos;
	s->zout += s->dhi - start;
	d->decompressed_bytes += s->dhi - start;
	if (s->zout > MAX_DECOMP) {
		seterr(d, "'%s': the %s record at offset %#llx expands to more than %u MiB",
		       d->path, perf_event__name(s->dtype), (unsigned long long)s->doff,
		       MAX_DECOMP >> 20);
		return -EINVAL;
	}
	return 1;
}

/*
 * A COMPRESSED record's payload is the rest of the record; a COMPRESSED2
 * one's (perf 6.16) the data_size bytes after that u64, the record padded
 * to 8 bytes after them.
 */
static int decompress_record(struct perf_data *d, const struct perf_data_record *rec)
{
	const struct perf_event_header *h = &rec->event->header;
	const u8 *p = (const u8 *)h + sizeof(*h);
	size_t n = h->size - sizeof(*h);
	u64 data_size;

	if (h->type == PERF_RECORD_COMPRESSED2) {
		if (n < sizeof(data_size)) {
			seterr(d, "'%s': the COMPRESSED2 record at offset %#llx is too short (%u bytes)",
			       d->path, (unsigned long long)rec->offset, h->size);
			return -EINVAL;
		}
		memcpy(&data_size, p, sizeof(data_size));
		p += sizeof(data_size);
		n -= sizeof(data_size);
		if (data_size > n) {
			seterr(d, "'%s': the COMPRESSED2 record at offset %#llx declares %llu bytes "
			       "of data, it has %zu", d->path, (unsigned long long)rec->offset,
			       (unsigned long long)data_size, n);
			return -EINVAL;
		}
		n = data_size;
		d->nr_compressed2++;
	}
	return decompress(d, p, n, rec->offset, h->type);
}

static const union perf_event *aligned(struct perf_data *d, const u8 *p, size_t n)
{
	struct perf_data_src *s = d->src;

	if (!((uintptr_t)p & 7))
		return (const union perf_event *)p;
	if (s->rec_cap < n) {
		u64 *nr = realloc(s->rec, (n + 7) & ~(size_t)7);

		if (!nr)
			return NULL;
		s->rec = nr;
		s->rec_cap = n;
	}
	memcpy(s->rec, p, n);
	return (const union perf_event *)s->rec;
}

/*
 * A whole record from the decompressed buffer, or 0 (its start kept for the
 * next COMPRESSED record, which goes on with the same stream).
 */
static int next_decompressed(struct perf_data *d, struct perf_data_record *rec)
{
	struct perf_data_src *s = d->src;
	struct perf_event_header h;
	size_t left;
	int r;

	for (;;) {
		left = s->dhi - s->dlo;
		if (left >= sizeof(h)) {
			memcpy(&h, s->dbuf + s->dlo, sizeof(h));
			if (h.size < sizeof(h)) {
				seterr(d, "'%s': invalid record size %u inside the %s record "
				       "at offset %#llx", d->path, h.size,
				       perf_event__name(s->dtype), (unsigned long long)s->doff);
				return -EINVAL;
			}
			if (h.size <= left)
				break;
		}
		r = decompress_more(d);	/* room: DBUF_BYTES is 16 records of 64 KiB */
		if (r <= 0)
			return r;
	}
	memset(rec, 0, sizeof(*rec));
	rec->event = aligned(d, s->dbuf + s->dlo, h.size);
	if (!rec->event)
		return -ENOMEM;
	rec->offset = s->doff;
	rec->decompressed = true;
	rec->file_idx = s->dir_idx;
	s->dlo += h.size;
	return 1;
}

/* Bytes that follow the record itself in the stream. */
static int payload_size(struct perf_data *d, const u8 *p, const struct perf_event_header *h,
			u64 *size)
{
	*size = 0;
	if (h->type == PERF_RECORD_HEADER_TRACING_DATA) {
		u32 sz;

		if (h->size < 12)
			return -EINVAL;
		memcpy(&sz, p + 8, 4);
		*size = sz;
	} else if (h->type == PERF_RECORD_AUXTRACE) {
		if (h->size < sizeof(struct perf_record_auxtrace))
			return -EINVAL;
		memcpy(size, p + 8, 8);
	}
	return 0;
}

static int next_dir_file(struct perf_data *d)
{
	struct perf_data_src *s = d->src;
	struct stat st;
	int fd;

	if (!d->is_dir || s->dir_idx >= s->nr_dir_files)
		return 0;
	fd = open(s->dir_files[s->dir_idx], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		seterr(d, "cannot open '%s': %s", s->dir_files[s->dir_idx], strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st)) {
		seterr(d, "cannot stat '%s': %s", s->dir_files[s->dir_idx], strerror(errno));
		close(fd);
		return -EINVAL;
	}
	s->dir_idx++;
	if (s->own_fd >= 0)
		close(s->own_fd);
	s->own_fd = fd;
	read_file(s, fd, 0, st.st_size);
	return 1;
}

static int truncated(struct perf_data *d, u64 off)
{
	d->truncated = true;
	d->truncated_at = off;
	return 0;
}

/*
 * The @n-byte payload of the @hsize-byte record at the read position of a
 * pipe, into s->pay: the bytes of it the block holds, then read() straight
 * into a buffer that doubles as they come (realloc() moves no bytes at such
 * sizes), so a payload the stream lacks costs at most twice what came.
 * The record and its payload are consumed.  Return: the bytes of the
 * payload read (fewer than @n: the stream ended), or -ENOMEM.
 */
static ssize_t pipe_payload(struct perf_data_src *s, size_t hsize, size_t n)
{
	size_t got = s->hi - s->lo - hsize;

	if (got > n)
		got = n;
	s->pay_cap = got > BLOCK_BYTES ? got : BLOCK_BYTES;
	if (s->pay_cap > n)
		s->pay_cap = n;
	s->pay = malloc(s->pay_cap);
	if (!s->pay)
		return -ENOMEM;
	memcpy(s->pay, s->buf + s->lo + hsize, got);
	s->lo += hsize + got;
	s->pos += hsize + got;
	while (got < n) {
		ssize_t r;

		if (got == s->pay_cap) {
			size_t cap = s->pay_cap * 2 < n ? s->pay_cap * 2 : n;
			u8 *np = realloc(s->pay, cap);

			if (!np)
				return -ENOMEM;
			s->pay = np;
			s->pay_cap = cap;
		}
		r = read(s->fd, s->pay + got, s->pay_cap - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			s->eof = true;
			break;
		}
		got += r;
		s->pos += r;
	}
	return got;
}

/* The input ends inside the @declared-byte payload of the @type record at @off. */
static int truncated_payload(struct perf_data *d, u64 off, u32 type, u64 declared, u64 held)
{
	d->truncated_type = type;
	d->truncated_payload = declared;
	d->truncated_payload_held = held;
	return truncated(d, off);
}

static int next_raw(struct perf_data *d, struct perf_data_record *rec)
{
	struct perf_data_src *s = d->src;
	struct perf_event_header h;
	const u8 *p;
	u64 extra, off = s->pos;
	size_t n = src_get(d, sizeof(h), &p);
	const u8 *payload = NULL;
	u64 consumed = 0;
	bool keep;

	if (!n)
		return 0;
	if (n < sizeof(h))
		return truncated(d, off);
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h)) {
		seterr(d, "'%s': invalid record size %u (type %u) at offset %#llx", d->path,
		       h.size, h.type, (unsigned long long)off);
		return -EINVAL;
	}
	if (src_get(d, h.size, &p) < h.size)
		return truncated(d, off);
	if (payload_size(d, p, &h, &extra)) {
		seterr(d, "'%s': %s record too short (%u bytes) at offset %#llx", d->path,
		       perf_event__name(h.type), h.size, (unsigned long long)off);
		return -EINVAL;
	}
	/*
	 * The payload's size is the file's word: nothing is allocated for it
	 * before the input shows it holds that much.  A file's bytes left are
	 * known; a pipe's TRACING_DATA is read as it comes (pipe_payload()),
	 * and an AUXTRACE payload, which nothing reads, is skipped (src_skip()).
	 */
	if (extra && s->file && extra > s->end - off - h.size)
		return truncated_payload(d, off, h.type, extra, s->end - off - h.size);
	keep = h.type == PERF_RECORD_HEADER_TRACING_DATA;
	if (keep && !s->file && extra > s->hi - s->lo - h.size) {
		ssize_t got = pipe_payload(s, h.size, extra);

		if (got < 0)
			return -ENOMEM;
		if ((u64)got < extra)
			return truncated_payload(d, off, h.type, extra, got);
		payload = s->pay;
		consumed = h.size + extra;
	} else if (keep && src_get(d, h.size + extra, &p) < h.size + extra) {
		return truncated(d, off);	/* the bytes are there: a read error, no memory */
	}
	memset(rec, 0, sizeof(*rec));
	rec->event = aligned(d, p, h.size);
	if (!rec->event)
		return -ENOMEM;
	rec->offset = off;
	rec->file_idx = s->dir_idx;
	rec->block = s->block && (const u8 *)rec->event == p ? s->block : NULL;
	if (extra) {
		rec->payload = !keep ? NULL : payload ? payload : p + h.size;
		rec->payload_size = extra;
	}
	s->pending = h.size + extra - consumed;
	s->pending_off = off;
	s->pending_type = h.type;
	s->pending_payload = extra;
	return 1;
}

/**
 * perf_data__next - see util/perf-data/data.h
 */
int perf_data__next(struct perf_data *d, struct perf_data_record *rec)
{
	struct perf_data_src *s = d->src;
	int r;

	free(s->pay);		/* the last record's, if it had one */
	s->pay = NULL;
	for (;;) {
		if (s->pending) {
			u64 from = s->pending_off + s->pending - s->pending_payload;

			if (!src_skip(d, s->pending))	/* a pipe ends inside the payload */
				truncated_payload(d, s->pending_off, s->pending_type,
						  s->pending_payload, s->pos > from ? s->pos - from : 0);
			s->pending = 0;
		}
		r = next_decompressed(d, rec);
		if (r)
			return r;
		r = d->truncated ? 0 : next_raw(d, rec);
		if (r == 0) {
			if (d->truncated)
				return 0;
			r = next_dir_file(d);
			if (r <= 0)
				return r;
			continue;
		}
		if (r < 0 || (rec->event->header.type != PERF_RECORD_COMPRESSED &&
			      rec->event->header.type != PERF_RECORD_COMPRESSED2))
			return r;
		r = decompress_record(d, rec);
		if (r)
			return r;
	}
}

/* ---- writing ---- */

static int write_all(struct perf_data *d, int fd, const void *buf, size_t n)
{
	const u8 *p = buf;

	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			int err = r < 0 ? errno : ENOSPC;

			seterr(d, "cannot write '%s': %s", d->path, strerror(err));
			return -err;
		}
		d->out_bytes += (u64)r;
		p += r;
		n -= r;
	}
	return 0;
}

/**
 * perf_data__flush - see util/perf-data/data.h
 */
int perf_data__flush(struct perf_data *d)
{
	int err;

	if (!d->out.len)
		return 0;
	err = write_all(d, d->fd, d->out.buf, d->out.len);
	d->out.len = 0;
	return err;
}

/**
 * perf_data__write - see util/perf-data/data.h
 */
int perf_data__write(struct perf_data *d, const void *buf, size_t size)
{
	int err;

	d->written += size;
	if (d->out.len + size <= WRITE_BUF) {
		wbuf__put(&d->out, buf, size);
		if (d->out.oom) {
			seterr(d, "out of memory");
			return -ENOMEM;
		}
		return 0;
	}
	err = perf_data__flush(d);
	if (err)
		return err;
	if (size >= WRITE_BUF)
		return write_all(d, d->fd, buf, size);
	wbuf__put(&d->out, buf, size);
	return d->out.oom ? -ENOMEM : 0;
}

static void fill_file_header(struct perf_data *d, struct perf_file_header *fh)
{
	struct perf_header *h = d->wh;

	memset(fh, 0, sizeof(*fh));
	fh->magic = PERF_MAGIC2;
	fh->size = sizeof(*fh);
	fh->attr_size = sizeof(struct perf_file_attr);
	fh->attrs.offset = sizeof(*fh);
	fh->attrs.size = (u64)h->nr_attrs * sizeof(struct perf_file_attr);
	fh->data.offset = d->data_offset;
	fh->data.size = 0;
}

/* Header, attrs, then the ids: all known before the first record. */
static int write_file_start(struct perf_data *d)
{
	struct perf_header *h = d->wh;
	struct perf_file_header fh;
	struct wbuf b = { 0 };
	u64 ids_off = sizeof(fh) + (u64)h->nr_attrs * sizeof(struct perf_file_attr);
	int err;

	for (int i = 0; i < h->nr_attrs; i++)
		d->data_offset += (u64)h->attrs[i].nr_ids * 8;
	d->data_offset += ids_off;
	fill_file_header(d, &fh);
	wbuf__put(&b, &fh, sizeof(fh));
	for (int i = 0; i < h->nr_attrs; i++) {
		struct perf_file_attr fa = { .attr = h->attrs[i].attr };

		fa.attr.size = sizeof(fa.attr);
		fa.ids.offset = ids_off;
		fa.ids.size = (u64)h->attrs[i].nr_ids * 8;
		ids_off += fa.ids.size;
		wbuf__put(&b, &fa, sizeof(fa));
	}
	for (int i = 0; i < h->nr_attrs; i++)
		wbuf__put(&b, h->attrs[i].ids, (size_t)h->attrs[i].nr_ids * 8);
	err = b.oom ? -ENOMEM : write_all(d, d->fd, b.buf, b.len);
	wbuf__exit(&b);
	return err;
}

static void put_record(struct wbuf *b, u32 type, const void *p1, size_t n1, const void *p2,
		       size_t n2)
{
	struct perf_event_header eh = { type, 0, (u16)(sizeof(eh) + n1 + n2) };

	wbuf__put(b, &eh, sizeof(eh));
	wbuf__put(b, p1, n1);
	wbuf__put(b, p2, n2);
}

/*
 * Pipe mode: HEADER_TRACING_DATA is a 12-byte record followed by the data,
 * padded to 8 bytes (the size field counts the padding), as perf writes it.
 */
static void write_pipe_tracing_data(struct perf_header *h, struct wbuf *b)
{
	struct perf_env *e = &h->env;
	struct perf_record_header_tracing_data r = { { PERF_RECORD_HEADER_TRACING_DATA, 0,
						       sizeof(r) } };
	size_t pad = (8 - e->tracing_data_size % 8) % 8;

	if (!e->tracing_data || e->tracing_data_size + pad > UINT32_MAX)
		return;
	r.size = (u32)(e->tracing_data_size + pad);
	wbuf__put(b, &r, sizeof(r));
	wbuf__put(b, e->tracing_data, e->tracing_data_size);
	wbuf__put(b, NULL, pad);
}

/* Pipe mode, at the end: the build-ids as HEADER_BUILD_ID records. */
static int write_pipe_build_ids(struct perf_data *d)
{
	struct wbuf b = { 0 };
	int err;

	if (perf_header__write_feature(d->wh, HEADER_BUILD_ID, &b)) {
		wbuf__exit(&b);
		return 0;
	}
	err = b.oom ? -ENOMEM : write_all(d, d->fd, b.buf, b.len);
	wbuf__exit(&b);
	return err;
}

/* Pipe mode: the header records perf writes before the kernel's. */
static int write_pipe_start(struct perf_data *d)
{
	struct perf_header *h = d->wh;
	struct perf_pipe_file_header ph = { PERF_MAGIC2, sizeof(ph) };
	struct wbuf b = { 0 };
	int err;

	wbuf__put(&b, &ph, sizeof(ph));
	for (int i = 0; i < h->nr_attrs; i++) {
		struct perf_event_attr a = h->attrs[i].attr;
		size_t ids = (size_t)h->attrs[i].nr_ids * 8;

		a.size = sizeof(a);
		if (sizeof(struct perf_event_header) + sizeof(a) + ids > 0xffff)
			ids = (0xffff - sizeof(struct perf_event_header) - sizeof(a)) & ~(size_t)7;
		put_record(&b, PERF_RECORD_HEADER_ATTR, &a, sizeof(a), h->attrs[i].ids, ids);
	}
	if (d->pipe_attrs_only)
		goto attrs_only;
	perf_header__set_features_from_env(h);
	for (int f = 1; f < HEADER_LAST_FEATURE; f++) {
		struct wbuf fb = { 0 };
		u64 id = f;

		/* padded to 8 bytes, as perf 6.12 does: parsers ignore the tail */
		if (f != HEADER_TRACING_DATA && f != HEADER_BUILD_ID &&
		    perf_header__has_feat(h, f) && !perf_header__write_feature(h, f, &fb) &&
		    fb.len + 16 + 7 <= 0xffff) {
			wbuf__put(&fb, NULL, (8 - fb.len % 8) % 8);
			put_record(&b, PERF_RECORD_HEADER_FEATURE, &id, 8, fb.buf, fb.len);
		}
		wbuf__exit(&fb);
	}
	{
		/* perf's end-of-features marker: perf report --header prints the header there */
		u64 id = HEADER_LAST_FEATURE;

		put_record(&b, PERF_RECORD_HEADER_FEATURE, &id, 8, NULL, 0);
	}
	write_pipe_tracing_data(h, &b);
attrs_only:
	if (!d->own_finished_init)
		put_record(&b, PERF_RECORD_FINISHED_INIT, NULL, 0, NULL, 0);
	err = b.oom ? -ENOMEM : write_all(d, d->fd, b.buf, b.len);
	wbuf__exit(&b);
	return err;
}

/**
 * perf_data__open_write - see util/perf-data/data.h
 */
int perf_data__open_write(struct perf_data *d, const char *path, const struct perf_header *h)
{
	d->path = strdup(path);
	d->writing = true;
	d->wh = (struct perf_header *)h;
	d->fd = -1;
	if (!d->path)
		return -ENOMEM;
	if (!strcmp(path, "-")) {
		d->is_pipe = true;
		d->fd = 1;
		return write_pipe_start(d);
	}
	/* perf's rule: an existing output with data becomes PATH.old; no link followed */
	d->fd = file__create(path, FILE_CREATE_BACKUP | FILE_CREATE_SEEKABLE, 0600, d->errmsg,
			     sizeof(d->errmsg));
	if (d->fd < 0) {
		int err = d->fd;

		d->fd = -1;
		return err;
	}
	return write_file_start(d);
}

static int write_features(struct perf_data *d, struct perf_file_header *fh)
{
	struct perf_header *h = d->wh;
	struct perf_file_section sec[HEADER_LAST_FEATURE];
	struct wbuf body = { 0 }, table = { 0 };
	int nr = 0, err;
	u64 base;

	perf_header__set_features_from_env(h);
	for (int f = 1; f < HEADER_LAST_FEATURE; f++)
		nr += perf_header__has_feat(h, f);
	base = fh->data.offset + fh->data.size + (u64)nr * sizeof(struct perf_file_section);
	for (int f = 1; f < HEADER_LAST_FEATURE; f++) {
		if (!perf_header__has_feat(h, f))
			continue;
		sec[f].offset = base + body.len;
		perf_header__write_feature(h, f, &body);
		sec[f].size = base + body.len - sec[f].offset;
		wbuf__put(&table, &sec[f], sizeof(sec[f]));
	}
	memcpy(fh->adds_features, h->features, sizeof(fh->adds_features));
	err = body.oom || table.oom ? -ENOMEM : write_all(d, d->fd, table.buf, table.len);
	if (!err)
		err = write_all(d, d->fd, body.buf, body.len);
	wbuf__exit(&body);
	wbuf__exit(&table);
	return err;
}

/**
 * perf_data__finish - see util/perf-data/data.h
 */
int perf_data__finish(struct perf_data *d)
{
	struct perf_file_header fh;
	int err = perf_data__flush(d);

	if (!err && d->is_pipe)
		err = write_pipe_build_ids(d);
	if (!err && !d->is_pipe) {
		fill_file_header(d, &fh);
		fh.data.size = d->written;
		err = write_features(d, &fh);
		if (!err) {
			err = io__pwrite_all(d->fd, &fh, sizeof(fh), 0);
			if (err)
				seterr(d, "cannot write the header of '%s': %s", d->path,
				       strerror(-err));
		}
		/* a file system may report a failed write only now (NFS, quotas) */
		if (close(d->fd) && !err) {
			err = -errno;
			seterr(d, "cannot write '%s': %s", d->path, strerror(errno));
		}
		d->fd = -1;
	}
	perf_data__close(d);
	return err;
}

/**
 * perf_data__close - see util/perf-data/data.h
 */
void perf_data__close(struct perf_data *d)
{
	struct perf_data_src *s = d->src;

	if (s) {
		if (s->own_fd >= 0)
			close(s->own_fd);
		if (s->map)
			munmap(s->map, s->map_size);
		while (s->blocks) {
			struct perf_data_block *b = s->blocks;

			s->blocks = b->next;
			free(b);
		}
		free(s->rec);
		free(s->dbuf);
		free(s->zin);
		free(s->pay);
		ZSTD_freeDCtx(s->zstd);
		for (int i = 0; i < s->nr_dir_files; i++)
			free(s->dir_files[i]);
		free(s->dir_files);
		free(s);
		d->src = NULL;
	}
	if (d->fd > 2 || (d->fd >= 0 && !d->writing))
		close(d->fd);
	d->fd = -1;
	if (!d->writing)
		perf_header__exit(&d->header);
	wbuf__exit(&d->out);
	free(d->path);
	d->path = NULL;
}

const char *perf_data__default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}
