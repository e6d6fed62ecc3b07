// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The DWARF of a recording's libraries, opened ahead on a thread (see
 * dwarf-preload.h).
 *
 * The thread reads the file itself and walks the headers of the records in
 * the first SCAN_BYTES of the data section (a millisecond or two: it stops
 * SCAN_QUIET past the last mapping it did not know): a forked
 * workload maps its libraries in its first milliseconds, and a system-wide
 * recording lists every mapping first.  Each executable mapping of a user
 * file it has not seen becomes an item (at most MAX_OPEN of them); it then
 * opens them, the largest file first (the C library, whose debug info
 * takes the longest, was found last).  Items are taken by path: the unwinder
 * asks with the path it would open, after the walk; an item not opened
 * yet is the unwinder's to open, one being opened is waited for.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elfutils/libdw.h>

#include "util/symbol/dwarf-preload.h"
#include "util/symbol/probe-elf.h"

#define SCAN_BYTES	(32u << 20)
#define SCAN_CHUNK	(1u << 20)	/* read that much at a time */
#define SCAN_QUIET	(4u << 20)	/* so far past the last new mapping, stop */
#define MAX_OPEN	16

enum item_state { ITEM_PENDING, ITEM_OPENING, ITEM_DONE, ITEM_TAKEN };

struct item {
	char *path;
	off_t size;			/* of the file: the largest is opened first */
	int seq;			/* the order it was found in */
	enum item_state state;
	struct probe_elf *pe;
	Dwarf *dw;
	bool frame_known, debug_frame;	/* probe_elf__has_debug_frame(), before the rest */
};

struct dwarf_preload {
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct item items[MAX_OPEN];
	int nr;
	bool scanned;			/* all items are there (the thread opens them next) */
	bool finished;			/* the thread (detached) is done with everything */
	atomic_bool stop;
	char *file, *symfs;
	u64 start, end;
};

static struct item *find(struct dwarf_preload *p, const char *path)
{
	for (int i = 0; i < p->nr; i++)
		if (!strcmp(p->items[i].path, path))
			return &p->items[i];
	return NULL;
}

/* A pending item for @path (of @size bytes), when there is room (and memory). */
static void add(struct dwarf_preload *p, const char *path, off_t size)
{
	struct item *it = &p->items[p->nr];

	if (p->nr == MAX_OPEN || !(it->path = strdup(path)))
		return;
	it->size = size;
	it->seq = p->nr;
	it->state = ITEM_PENDING;
	it->pe = NULL;
	it->dw = NULL;
	p->nr++;
}

/* The thread has found whether @it's file has a .debug_frame (or failed to open it). */
static void frame_known(struct dwarf_preload *p, struct item *it, bool debug_frame)
{
	pthread_mutex_lock(&p->lock);
	it->debug_frame = debug_frame;
	it->frame_known = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

/*
 * What dso_elf(), unwind__dso_has_debug_frame() and dso_dwarf() of
 * util/unwind/unwind.c do, and the unit ranges' table.  The .debug_frame answer
 * is published first: unwinding asks for it before inline frames.
 */
static void open_item(struct dwarf_preload *p, struct item *it, struct probe_elf **ppe,
		      Dwarf **pdw)
{
	struct probe_elf *pe;
	Dwarf *dw;

	*ppe = NULL;
	*pdw = NULL;
	if (probe_elf__open(it->path, &pe)) {
		frame_known(p, it, false);
		return;
	}
	frame_known(p, it, probe_elf__has_debug_frame(pe));
	dw = dwarf_begin_elf(probe_elf__scopes_elf(pe), DWARF_C_READ, NULL);
	if (dw) {
		Dwarf_Aranges *ar;
		size_t n;

		dwarf_getaranges(dw, &ar, &n);
	}
	*ppe = pe;
	*pdw = dw;
}

/* A user file mapped executable: an item to open, unless it was seen. */
static void consider(struct dwarf_preload *p, const char *name)
{
	char path[4096];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s%s", p->symfs ? p->symfs : "", name) >=
	    (int)sizeof(path) || stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	pthread_mutex_lock(&p->lock);
	if (!find(p, path))
		add(p, path, st.st_size);
	pthread_mutex_unlock(&p->lock);
}

/* Open the items in the order they were found, but those taken meanwhile. */
static void open_items(struct dwarf_preload *p)
{
	for (int i = 0; !atomic_load(&p->stop); i++) {
		struct item *it;
		struct probe_elf *pe;
		Dwarf *dw;
		bool mine = false;

		pthread_mutex_lock(&p->lock);
		it = i < p->nr ? &p->items[i] : NULL;	/* items do not move: the array is fixed */
		if (it && it->state == ITEM_PENDING) {
			it->state = ITEM_OPENING;
			mine = true;
		}
		pthread_mutex_unlock(&p->lock);
		if (!it)
			return;
		if (!mine)			/* the unwinder took it first */
			continue;
		open_item(p, it, &pe, &dw);
		pthread_mutex_lock(&p->lock);
		it->pe = pe;
		it->dw = dw;
		it->state = ITEM_DONE;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
}

/* The filename of user MMAP record @h of @size bytes, or NULL. */
static const char *mapped_file(const struct perf_event_header *h, size_t size)
{
	const char *name;
	size_t off;

	if ((h->misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_USER)
		return NULL;
	if (h->type == PERF_RECORD_MMAP2) {
		const struct perf_record_mmap2 *m = (const void *)h;

		off = sizeof(*m);
		if (size <= off || !(m->prot & PROT_EXEC))
			return NULL;
		name = m->filename;
	} else if (h->type == PERF_RECORD_MMAP) {
		const struct perf_record_mmap *m = (const void *)h;

		off = sizeof(*m);
		if (size <= off || (h->misc & PERF_RECORD_MISC_MMAP_DATA))
			return NULL;
		name = m->filename;
	} else {
		return NULL;
	}
	/* absolute paths; not perf's "//anon" */
	if (!memchr(name, '\0', size - off) || name[0] != '/' || name[1] == '/')
		return NULL;
	return name;
}

/**
 * dwarf_preload__mapped_files - see dwarf-preload.h
 */
size_t dwarf_preload__mapped_files(const void *buf, size_t len, const atomic_bool *stop,
				   void (*fn)(const char *name, void *arg), void *arg)
{
	const char *p = buf;
	size_t pos = 0;

	while (len - pos >= sizeof(struct perf_event_header) && !(stop && atomic_load(stop))) {
		struct perf_event_header h;
		const char *name;

		memcpy(&h, p + pos, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - pos)
			break;
		/* records are 8-byte aligned: one that is not is no mapping to look at */
		if ((uintptr_t)(p + pos) % 8 == 0 && h.size % 8 == 0 &&
		    (name = mapped_file((const void *)(p + pos), h.size)))
			fn(name, arg);
		pos += h.size;
	}
	return pos;
}

static void consider_cb(const char *name, void *arg)
{
	consider(arg, name);
}

/*
 * Read, not mapped: the first touch of each page of a mapping costs
 * microseconds on a VM with shadow page tables, and the walk touches
 * every page the records' headers are on.  A record that does not fit
 * the buffer is skipped.  Bytes sit at the alignment they have in the file.
 * The walk stops SCAN_QUIET bytes after the last new mapping: the whole
 * SCAN_BYTES took 10 ms of a DWARF recording's, before the first open.
 */
static void scan(struct dwarf_preload *p)
{
	u64 off = p->start, limit = p->end;	/* off: the file offset of the bytes kept */
	u64 quiet_from = off;			/* no new mapping since */
	int fd = open(p->file, O_RDONLY | O_CLOEXEC);
	size_t have = 0;
	struct stat st;
	char *buf;

	if (fd < 0)
		return;
	if (fstat(fd, &st) || (u64)st.st_size < limit)
		limit = st.st_size;
	if (limit > p->start + SCAN_BYTES)
		limit = p->start + SCAN_BYTES;
	buf = malloc(SCAN_CHUNK + 8);
	while (buf && off + have < limit && !atomic_load(&p->stop)) {
		int nr = p->nr;		/* only this thread adds items */

		char *base = buf + (off & 7);
		size_t want = SCAN_CHUNK - have, used;
		ssize_t r;

		if (want > limit - (off + have))
			want = limit - (off + have);
		r = pread(fd, base + have, want, (off_t)(off + have));
		if (r <= 0)
			break;
		have += r;
		used = dwarf_preload__mapped_files(base, have, &p->stop, consider_cb, p);
		if (p->nr != nr)
			quiet_from = off + used;
		else if (off + used - quiet_from > SCAN_QUIET)
			break;
		if (!used && have == SCAN_CHUNK) {	/* one record fills the buffer */
			struct perf_event_header h;

			memcpy(&h, base, sizeof(h));
			if (h.size < sizeof(h))
				break;
			off += h.size;
			have = 0;
			continue;
		}
		off += used;
		have -= used;
		memmove(buf + (off & 7), base + used, have);
	}
	free(buf);
	close(fd);
}

/* Larger files first (the C library's debug info takes the longest), else in the order found. */
static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->seq - y->seq;
}

static void *preload_thread(void *arg)
{
	struct dwarf_preload *p = arg;

	scan(p);
	pthread_mutex_lock(&p->lock);
	/* nobody looks at the items before the walk is over */
	qsort(p->items, p->nr, sizeof(p->items[0]), item_cmp);
	p->scanned = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	open_items(p);
	pthread_mutex_lock(&p->lock);
	p->finished = true;		/* the last touch of @p: free() may go on */
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/**
 * dwarf_preload__start - see dwarf-preload.h
 */
struct dwarf_preload *dwarf_preload__start(const char *file, u64 start, u64 end,
					   const char *symfs)
{
	struct dwarf_preload *p;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || end <= start || !(p = calloc(1, sizeof(*p))))
		return NULL;
	p->file = strdup(file);
	p->symfs = symfs ? strdup(symfs) : NULL;
	p->start = start;
	p->end = end;
	atomic_init(&p->stop, false);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	/*
	 * detached: a report may end without freeing its machine, and then
	 * nothing waits for the thread (free() waits for it to finish)
	 */
	if (!p->file || (symfs && !p->symfs) || pthread_create(&p->th, NULL, preload_thread, p)) {
		pthread_cond_destroy(&p->cond);
		pthread_mutex_destroy(&p->lock);
		free(p->symfs);
		free(p->file);
		free(p);
		return NULL;
	}
	pthread_detach(p->th);
	return p;
}

/**
 * dwarf_preload__take - see dwarf-preload.h
 */
bool dwarf_preload__take(struct dwarf_preload *p, const char *path, struct probe_elf **pe,
			 void **dw)
{
	struct item *it = NULL;
	bool got = false;

	if (!p)
		return false;
	pthread_mutex_lock(&p->lock);
	while (!p->scanned || ((it = find(p, path)) && it->state == ITEM_OPENING))
		pthread_cond_wait(&p->cond, &p->lock);
	if (it && it->state == ITEM_PENDING) {
		it->state = ITEM_TAKEN;		/* not opened yet: the caller does it now */
	} else if (it && it->state == ITEM_DONE) {
		*pe = it->pe;
		*dw = it->dw;
		it->pe = NULL;
		it->dw = NULL;
		it->state = ITEM_TAKEN;
		got = true;
	}
	pthread_mutex_unlock(&p->lock);
	return got;
}

/**
 * dwarf_preload__debug_frame - see dwarf-preload.h
 */
bool dwarf_preload__debug_frame(struct dwarf_preload *p, const char *path, bool *has)
{
	struct item *it = NULL;
	bool got = false;

	if (!p)
		return false;
	pthread_mutex_lock(&p->lock);
	while (!p->scanned || ((it = find(p, path)) && it->state == ITEM_OPENING &&
				!it->frame_known))
		pthread_cond_wait(&p->cond, &p->lock);
	if (it && it->frame_known) {
		*has = it->debug_frame;
		got = true;
	}
	pthread_mutex_unlock(&p->lock);
	return got;
}

/**
 * dwarf_preload__files - see dwarf-preload.h
 */
int dwarf_preload__files(struct dwarf_preload *p, const char **paths, int max)
{
	int n;

	pthread_mutex_lock(&p->lock);
	while (!p->scanned)
		pthread_cond_wait(&p->cond, &p->lock);
	n = p->nr;
	for (int i = 0; i < n && i < max; i++)
		paths[i] = p->items[i].path;
	pthread_mutex_unlock(&p->lock);
	return n;
}

/**
 * dwarf_preload__free - see dwarf-preload.h
 */
void dwarf_preload__free(struct dwarf_preload *p)
{
	if (!p)
		return;
	atomic_store(&p->stop, true);
	pthread_mutex_lock(&p->lock);
	while (!p->finished)
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	for (int i = 0; i < p->nr; i++) {
		dwarf_end(p->items[i].dw);
		probe_elf__close(p->items[i].pe);
		free(p->items[i].path);
	}
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
	free(p->symfs);
	free(p->file);
	free(p);
}
