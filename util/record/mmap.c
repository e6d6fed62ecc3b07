// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU ring buffers: mapping, reading records in order across the wrap,
 * and publishing data_tail.  See util/record/mmap.h.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/record/mmap.h"

#define COPY_SIZE 65536

/**
 * perf_mmap__mmap - see util/record/mmap.h
 */
int perf_mmap__mmap(struct perf_mmap *m, int fd, int cpu, size_t pages)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);

	if (!pages || (pages & (pages - 1)))
		return -EINVAL;
	m->len = (pages + 1) * psz;
	m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m->base == MAP_FAILED) {
		m->base = NULL;
		return -errno;
	}
	m->copy = malloc(COPY_SIZE);
	if (!m->copy) {
		perf_mmap__munmap(m);
		return -ENOMEM;
	}
	m->mask = pages * psz - 1;
	m->fd = fd;
	m->cpu = cpu;
	m->prev = 0;
	m->bytes = 0;
	return 0;
}

static u64 read_head(struct perf_mmap *m)
{
	struct perf_event_mmap_page *pc = m->base;

	return __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
}

static void write_tail(struct perf_mmap *m, u64 tail)
{
	struct perf_event_mmap_page *pc = m->base;

	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
}

/* Copy @n bytes at ring position @pos (wrapping) into @dst. */
static void ring_copy(struct perf_mmap *m, u64 pos, void *dst, size_t n)
{
	const u8 *data = (const u8 *)m->base + (m->len - (m->mask + 1));
	size_t off = pos & m->mask, first = m->mask + 1 - off;

	if (first >= n) {
		memcpy(dst, data + off, n);
		return;
	}
	memcpy(dst, data + off, first);
	memcpy((u8 *)dst + first, data, n - first);
}

/* The record at @pos: in place when it does not wrap, else reassembled. */
static const union perf_event *ring_record(struct perf_mmap *m, u64 pos, size_t size)
{
	const u8 *data = (const u8 *)m->base + (m->len - (m->mask + 1));
	size_t off = pos & m->mask;

	if (off + size <= m->mask + 1 && off % 8 == 0)
		return (const union perf_event *)(data + off);
	ring_copy(m, pos, m->copy, size);
	return (const union perf_event *)m->copy;
}

/**
 * perf_mmap__avail - see util/record/mmap.h
 */
u64 perf_mmap__avail(struct perf_mmap *m)
{
	return read_head(m) - m->prev;
}

/**
 * perf_mmap__read - see util/record/mmap.h
 */
long perf_mmap__read(struct perf_mmap *m, perf_mmap_fn fn, void *ctx)
{
	u64 head = read_head(m), pos = m->prev;
	long err = 0;

	while (pos < head) {
		struct perf_event_header h;
		const union perf_event *ev;

		if (head - pos < sizeof(h))
			break;
		ring_copy(m, pos, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - pos || h.size > m->mask + 1) {
			pos = head;	/* corrupted: drop the rest */
			err = -EINVAL;
			break;
		}
		ev = ring_record(m, pos, h.size);
		err = fn(ctx, ev, h.size);
		if (err)
			break;
		pos += h.size;
	}
	write_tail(m, pos);
	err = err ? err : (long)(pos - m->prev);
	m->bytes += pos - m->prev;
	m->prev = pos;
	return err;
}

/**
 * perf_mmap__munmap - see util/record/mmap.h
 */
void perf_mmap__munmap(struct perf_mmap *m)
{
	if (m->base)
		munmap(m->base, m->len);
	free(m->copy);
	m->base = NULL;
	m->copy = NULL;
}

static int parse_size(const char *s, char **end, unsigned long long *bytes)
{
	unsigned long long v = strtoull(s, end, 10), mul = 1;

	switch (**end) {
	case 'B': case 'b': mul = 1; break;
	case 'K': case 'k': mul = 1ULL << 10; break;
	case 'M': case 'm': mul = 1ULL << 20; break;
	case 'G': case 'g': mul = 1ULL << 30; break;
	default: return -EINVAL;
	}
	(*end)++;
	*bytes = v * mul;
	return 0;
}

/**
 * perf_mmap__pages - see util/record/mmap.h
 */
int perf_mmap__pages(const char *str, size_t *pages)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);
	unsigned long long v, bytes, asked;
	char *end;

	if (!str || *str < '0' || *str > '9')
		return -EINVAL;
	v = strtoull(str, &end, 10);
	if (*end) {
		if (parse_size(str, &end, &bytes) || *end || !bytes || bytes > (1ULL << 40))
			return -EINVAL;
		v = (bytes + psz - 1) / psz;
	}
	if (!v || v > (1ULL << 28))
		return -EINVAL;
	asked = v;
	while (v & (v - 1))	/* round up to a power of two */
		v = (v | (v - 1)) + 1;
	*pages = (size_t)v;
	return v != asked;
}
