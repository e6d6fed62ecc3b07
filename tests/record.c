// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for recording: the ring reader on a ring in plain memory
 * (records split by the wrap, data_tail, corrupted sizes), -m parsing,
 * the synthesized records and ELF build-ids.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tests.h"
#include "util/symbol/build-id.h"
#include "util/event/cpumap.h"
#include "util/record/mmap.h"
#include "util/perf-data/synthesize.h"

#define RING_DATA 4096

struct fake_ring {
	struct perf_mmap m;
	u8 *mem;
	u64 head;
};

static int fake_ring__init(struct fake_ring *r)
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	r->mem = aligned_alloc(psz, psz + RING_DATA);
	r->m.copy = malloc(65536);
	if (!r->mem || !r->m.copy)
		return -ENOMEM;
	memset(r->mem, 0, psz + RING_DATA);
	r->m.base = r->mem;
	r->m.len = psz + RING_DATA;
	r->m.mask = RING_DATA - 1;
	return 0;
}

static void fake_ring__exit(struct fake_ring *r)
{
	free(r->mem);
	free(r->m.copy);
}

/* Write a record of @size bytes whose u64 words are @tag, at the head (wrapping). */
static void fake_ring__put(struct fake_ring *r, u16 size, u64 tag)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, size };
	u64 rec[64] = { 0 };
	u8 *data = r->mem + (r->m.len - RING_DATA);

	memcpy(rec, &h, sizeof(h));
	for (size_t i = 1; i < size / 8; i++)
		rec[i] = tag;
	for (size_t i = 0; i < size; i++)
		data[(r->head + i) & (RING_DATA - 1)] = ((u8 *)rec)[i];
	r->head += size;
	((struct perf_event_mmap_page *)r->mem)->data_head = r->head;
}

struct seen {
	int n;
	u64 tags[64];
	u16 sizes[64];
	int fail_at;
};

static int collect(void *ctx, const union perf_event *ev, size_t size)
{
	struct seen *s = ctx;
	const u64 *w = (const u64 *)ev;

	if (s->n == s->fail_at)
		return -EAGAIN;
	for (size_t i = 2; i < size / 8; i++)
		if (w[i] != w[1])
			return -EINVAL;	/* a badly reassembled record */
	s->tags[s->n] = size > 8 ? w[1] : 0;
	s->sizes[s->n++] = (u16)size;
	return 0;
}

TPERF_TEST(record_ring_wrap, "record: ring records split by the wrap are reassembled")
{
	struct fake_ring r;
	struct seen s = { .fail_at = -1 };
	struct perf_event_mmap_page *pc;
	long n;

	TEST_ASSERT_VAL("alloc", !fake_ring__init(&r));
	pc = r.m.base;
	/* fill to 40 bytes before the end, consume */
	for (int i = 0; i < (RING_DATA - 40) / 64; i++)
		fake_ring__put(&r, 64, 100 + i);
	fake_ring__put(&r, 24, 7);
	TEST_ASSERT_EQUAL("first pass", perf_mmap__read(&r.m, collect, &s), RING_DATA - 40);
	TEST_ASSERT_EQUAL("tail published", pc->data_tail, RING_DATA - 40);
	/* a 96-byte record across the end: 40 bytes before, 56 after */
	s.n = 0;
	fake_ring__put(&r, 96, 0xabcdef);
	fake_ring__put(&r, 16, 9);
	n = perf_mmap__read(&r.m, collect, &s);
	TEST_ASSERT_EQUAL("bytes", n, 112);
	TEST_ASSERT_EQUAL("records", s.n, 2);
	TEST_ASSERT_EQUAL("split record size", s.sizes[0], 96);
	TEST_ASSERT_EQUAL("split record body", s.tags[0], 0xabcdef);
	TEST_ASSERT_EQUAL("next record", s.tags[1], 9);
	TEST_ASSERT_EQUAL("tail", pc->data_tail, r.head);
	TEST_ASSERT_EQUAL("avail", perf_mmap__avail(&r.m), 0);
	fake_ring__exit(&r);
	return TEST_OK;
}

TPERF_TEST(record_ring_stop, "record: a refused record stays in the ring; a corrupted size drops the rest")
{
	struct fake_ring r;
	struct seen s = { .fail_at = 1 };
	struct perf_event_mmap_page *pc;

	TEST_ASSERT_VAL("alloc", !fake_ring__init(&r));
	pc = r.m.base;
	fake_ring__put(&r, 32, 1);
	fake_ring__put(&r, 32, 2);
	TEST_ASSERT_EQUAL("stopped by the callback", perf_mmap__read(&r.m, collect, &s), -EAGAIN);
	TEST_ASSERT_EQUAL("tail after the first", pc->data_tail, 32);
	s.fail_at = -1;
	s.n = 0;
	TEST_ASSERT_EQUAL("rest", perf_mmap__read(&r.m, collect, &s), 32);
	TEST_ASSERT_EQUAL("the second record", s.tags[0], 2);
	fake_ring__put(&r, 8, 0);
	((struct perf_event_header *)(r.mem + (r.m.len - RING_DATA) + (r.head - 8)))->size = 0;
	TEST_ASSERT_EQUAL("size 0", perf_mmap__read(&r.m, collect, &s), -EINVAL);
	TEST_ASSERT_EQUAL("dropped", pc->data_tail, r.head);
	fake_ring__exit(&r);
	return TEST_OK;
}

TPERF_TEST(record_mmap_pages, "record: -m pages and sizes, rounded to a power of two")
{
	size_t psz = (size_t)sysconf(_SC_PAGESIZE), pages = 0;

	TEST_ASSERT_EQUAL("128", perf_mmap__pages("128", &pages), 0);
	TEST_ASSERT_EQUAL("128 pages", pages, 128);
	TEST_ASSERT_EQUAL("3 rounds", perf_mmap__pages("3", &pages), 1);
	TEST_ASSERT_EQUAL("3 -> 4", pages, 4);
	TEST_ASSERT_EQUAL("512K", perf_mmap__pages("512K", &pages), 0);
	TEST_ASSERT_EQUAL("512K pages", pages, 512 * 1024 / psz);
	TEST_ASSERT_EQUAL("1M", perf_mmap__pages("1M", &pages), 0);
	TEST_ASSERT_EQUAL("1M pages", pages, 1024 * 1024 / psz);
	TEST_ASSERT_EQUAL("bad", perf_mmap__pages("abc", &pages), -EINVAL);
	TEST_ASSERT_EQUAL("zero", perf_mmap__pages("0", &pages), -EINVAL);
	TEST_ASSERT_EQUAL("suffix", perf_mmap__pages("12X", &pages), -EINVAL);
	TEST_ASSERT_EQUAL("negative", perf_mmap__pages("-4", &pages), -EINVAL);
	return TEST_OK;
}

struct synth_seen {
	int comm, mmap2, fork, self_exe;
	size_t bad;
};

static int synth_collect(void *ctx, const union perf_event *ev, size_t size)
{
	struct synth_seen *s = ctx;
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (size != ev->header.size || size % 8)
		s->bad++;
	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		s->comm += ev->comm.pid == (u32)getpid() && ev->comm.tid == (u32)getpid();
		break;
	case PERF_RECORD_FORK:
		s->fork++;
		break;
	case PERF_RECORD_MMAP2:
		s->mmap2++;
		if (n > 0) {
			exe[n] = '\0';
			s->self_exe += !strcmp(ev->mmap2.filename, exe) && (ev->mmap2.prot & 4) &&
				       ev->mmap2.ino != 0;
		}
		break;
	default:
		break;
	}
	return 0;
}

TPERF_TEST(record_synthesize_self, "record: COMM and executable MMAP2 of this process")
{
	struct synth_seen seen = { 0 };
	struct synth s = { .id_hdr_size = 16, .fn = synth_collect, .ctx = &seen };

	TEST_ASSERT_EQUAL("thread", synthesize__thread(&s, getpid(), false), 0);
	TEST_ASSERT_EQUAL("one COMM", seen.comm, 1);
	TEST_ASSERT_EQUAL("no FORK", seen.fork, 0);
	TEST_ASSERT_VAL("the binary's text", seen.self_exe >= 1);
	TEST_ASSERT_EQUAL("sizes", seen.bad, 0);
	memset(&seen, 0, sizeof(seen));
	TEST_ASSERT_EQUAL("full", synthesize__thread(&s, getpid(), true), 0);
	TEST_ASSERT_EQUAL("a FORK", seen.fork, 1);
	memset(&seen, 0, sizeof(seen));
	s.comm_only = true;
	TEST_ASSERT_EQUAL("comm only", synthesize__thread(&s, getpid(), false), 0);
	TEST_ASSERT_EQUAL("no maps", seen.mmap2, 0);
	TEST_ASSERT_EQUAL("gone", synthesize__thread(&s, 0x7ffffff0, false), -ESRCH);
	return TEST_OK;
}

TPERF_TEST(record_build_id, "record: ELF build-ids (this binary, the vDSO, a non-ELF file)")
{
	u8 id[20], id2[20];
	int n = filename__read_build_id("/proc/self/exe", id, sizeof(id));

	if (n == -ENOENT)
		return test_skip("this binary has no build-id note");
	TEST_ASSERT_EQUAL("length", n, 20);
	TEST_ASSERT_EQUAL("again", filename__read_build_id("/proc/self/exe", id2, sizeof(id2)), 20);
	TEST_ASSERT_VAL("stable", !memcmp(id, id2, 20));
	TEST_ASSERT_EQUAL("not ELF", filename__read_build_id("/proc/self/status", id, 20), -EINVAL);
	TEST_ASSERT_EQUAL("missing", filename__read_build_id("/nonexistent", id, 20), -ENOENT);
	n = vdso__read_build_id(id, sizeof(id));
	TEST_ASSERT_VAL("vdso", n == 20 || n == -ENOENT);
	return TEST_OK;
}

/* the last record a synthesizer handed out */
struct synth_last {
	u8 rec[256];
	size_t size;
};

static int synth_keep(void *ctx, const union perf_event *ev, size_t size)
{
	struct synth_last *l = ctx;

	l->size = size <= sizeof(l->rec) ? size : 0;
	memcpy(l->rec, ev, l->size);
	return 0;
}

/* CPU_MAP of @list: @n bytes after the 8-byte header, as perf 6.1 encodes it */
static int cpu_map_is(const char *list, const u8 *want, size_t n)
{
	struct synth_last l = { 0 };
	struct synth s = { .fn = synth_keep, .ctx = &l };
	struct cpu_map *m = strcmp(list, "-1") ? cpu_map__new(list) : cpu_map__new_any();
	int err = m ? synthesize__cpu_map(&s, m) : -ENOMEM;

	cpu_map__put(m);
	return !err && l.size == 8 + n && l.rec[0] == PERF_RECORD_CPU_MAP &&
	       !memcmp(l.rec + 8, want, n);
}

TPERF_TEST(record_cpu_map, "record: CPU_MAP as a range, a list or a mask, as perf 6.1 picks")
{
	/* consecutive: a range (u16 type 2, u8 any, pad, u16 first, u16 last) */
	static const u8 range[] = { 2, 0, 0, 0, 4, 0, 7, 0 };
	/* a list is smaller than the mask: u16 type 0, u16 nr, u16 cpus, padded */
	static const u8 list[] = { 0, 0, 2, 0, 0, 0, 2, 0 };
	/* per thread: a list of one -1 */
	static const u8 any[] = { 0, 0, 1, 0, 0xff, 0xff, 0, 0 };
	/* a mask is smaller: u16 type 1, u16 nr of u32 words, u16 4, the words */
	static const u8 mask[] = { 1, 0, 1, 0, 4, 0, 0xaa, 0x0a, 0, 0, 0, 0, 0, 0, 0, 0 };

	TEST_ASSERT_VAL("range", cpu_map_is("4-7", range, sizeof(range)));
	TEST_ASSERT_VAL("list", cpu_map_is("0,2", list, sizeof(list)));
	TEST_ASSERT_VAL("any", cpu_map_is("-1", any, sizeof(any)));
	TEST_ASSERT_VAL("mask", cpu_map_is("1,3,5,7,9,11", mask, sizeof(mask)));
	return TEST_OK;
}

TPERF_TEST(record_time_conv, "record: TIME_CONV from the ring's page when it offers the TSC")
{
	struct perf_event_mmap_page pc;
	struct synth_last l = { 0 };
	struct synth s = { .fn = synth_keep, .ctx = &l };
	const struct perf_record_time_conv *tc = (const void *)l.rec;

	memset(&pc, 0, sizeof(pc));
	TEST_ASSERT_EQUAL("no TSC", synthesize__time_conv(&s, &pc), 0);
	TEST_ASSERT_EQUAL("nothing written", l.size, 0);
	pc.cap_user_time_zero = 1;
	pc.cap_user_time_short = 1;
	pc.time_shift = 31;
	pc.time_mult = 123456;
	pc.time_zero = 0x1122334455667788ULL;
	pc.time_cycles = 99;
	pc.time_mask = 0xffff;
	TEST_ASSERT_EQUAL("TSC", synthesize__time_conv(&s, &pc), 0);
	TEST_ASSERT_EQUAL("56 bytes", l.size, 56);
	TEST_ASSERT_EQUAL("type", tc->header.type, PERF_RECORD_TIME_CONV);
	TEST_ASSERT_VAL("fields", tc->time_shift == 31 && tc->time_mult == 123456 &&
			tc->time_zero == 0x1122334455667788ULL && tc->time_cycles == 99 &&
			tc->time_mask == 0xffff);
	TEST_ASSERT_VAL("caps", tc->cap_user_time_zero == 1 && tc->cap_user_time_short == 1);
	pc.lock = 1;	/* a writer that never finishes */
	TEST_ASSERT_EQUAL("busy", synthesize__time_conv(&s, &pc), -EAGAIN);
	return TEST_OK;
}
