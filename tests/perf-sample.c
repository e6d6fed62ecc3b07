// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sample parsing: each PERF_SAMPLE_* field built byte by byte in the
 * kernel's order, bounds on truncated and corrupted records, the
 * sample_id_all trailer, and synthesize -> parse round trips.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/perf-data/event.h"

/* A record under construction: header first, then u64/u32 words. */
struct rec {
	u64 buf[1024];
	size_t len;		/* bytes */
};

static void r_start(struct rec *r, u32 type)
{
	struct perf_event_header h = { type, 0, 0 };

	memset(r, 0, sizeof(*r));
	memcpy(r->buf, &h, sizeof(h));
	r->len = sizeof(h);
}

static void r_bytes(struct rec *r, const void *p, size_t n)
{
	memcpy((u8 *)r->buf + r->len, p, n);
	r->len += n;
}

static void r_u64(struct rec *r, u64 v)
{
	r_bytes(r, &v, 8);
}

static void r_u32(struct rec *r, u32 v)
{
	r_bytes(r, &v, 4);
}

static void r_end(struct rec *r)
{
	u16 size = (u16)r->len;

	memcpy((u8 *)r->buf + 6, &size, 2);
}

/* The simple one-u64 fields: bit, value, and where parse puts it. */
static const struct {
	u64 bit;
	size_t off;
} simple[] = {
	{ PERF_SAMPLE_IDENTIFIER, offsetof(struct perf_sample, id) },
	{ PERF_SAMPLE_IP, offsetof(struct perf_sample, ip) },
	{ PERF_SAMPLE_TIME, offsetof(struct perf_sample, time) },
	{ PERF_SAMPLE_ADDR, offsetof(struct perf_sample, addr) },
	{ PERF_SAMPLE_ID, offsetof(struct perf_sample, id) },
	{ PERF_SAMPLE_STREAM_ID, offsetof(struct perf_sample, stream_id) },
	{ PERF_SAMPLE_PERIOD, offsetof(struct perf_sample, period) },
	{ PERF_SAMPLE_WEIGHT, offsetof(struct perf_sample, weight) },
	{ PERF_SAMPLE_DATA_SRC, offsetof(struct perf_sample, data_src) },
	{ PERF_SAMPLE_TRANSACTION, offsetof(struct perf_sample, transaction) },
	{ PERF_SAMPLE_PHYS_ADDR, offsetof(struct perf_sample, phys_addr) },
	{ PERF_SAMPLE_CGROUP, offsetof(struct perf_sample, cgroup) },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, offsetof(struct perf_sample, data_page_size) },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, offsetof(struct perf_sample, code_page_size) },
};

TPERF_TEST(sample_simple_fields, "perf.data: each one-word PERF_SAMPLE field alone")
{
	for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++) {
		struct perf_event_attr attr = { .sample_type = simple[i].bit };
		struct perf_sample s;
		struct rec r;
		u64 got, want = 0x1122334455667788ULL + i;

		r_start(&r, PERF_RECORD_SAMPLE);
		r_u64(&r, want);
		r_end(&r);
		TEST_ASSERT_EQUAL("parse", perf_sample__parse(&attr, r.buf, r.len, &s), 0);
		memcpy(&got, (u8 *)&s + simple[i].off, 8);
		TEST_ASSERT_EQUAL("the value lands in its field", got, want);
		TEST_ASSERT_EQUAL("a short record fails",
				  perf_sample__parse(&attr, r.buf, r.len - 1, &s), -EINVAL);
	}
	return TEST_OK;
}

TPERF_TEST(sample_two_u32_fields, "perf.data: TID and CPU are two u32 each")
{
	struct perf_event_attr attr = { .sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_CPU };
	struct perf_sample s;
	struct rec r;

	r_start(&r, PERF_RECORD_SAMPLE);
	r_u32(&r, 100);
	r_u32(&r, 101);
	r_u32(&r, 3);
	r_u32(&r, 0);
	r_end(&r);
	TEST_ASSERT_EQUAL("parse", perf_sample__parse(&attr, r.buf, r.len, &s), 0);
	TEST_ASSERT_EQUAL("pid", s.pid, 100);
	TEST_ASSERT_EQUAL("tid", s.tid, 101);
	TEST_ASSERT_EQUAL("cpu", s.cpu, 3);
	attr.sample_type = PERF_SAMPLE_TID;
	TEST_ASSERT_EQUAL("no CPU: cpu is -1", perf_sample__parse(&attr, r.buf, 16, &s), 0);
	TEST_ASSERT_EQUAL("cpu", s.cpu, (u32)-1);
	return TEST_OK;
}

/* Every bit at once, in the kernel's order; returns the record. */
static void build_all(struct rec *r, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
			    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			    PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			    PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT_STRUCT |
			    PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
			    PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
			    PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE |
			    PERF_SAMPLE_AUX;
	attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX;
	attr->sample_regs_user = 0x7;	/* 3 registers */
	attr->sample_regs_intr = 0x3;	/* 2 registers */
	r_start(r, PERF_RECORD_SAMPLE);
	r_u64(r, 42);			/* IDENTIFIER */
	r_u64(r, 0xffffffff81000000ULL);	/* IP */
	r_u32(r, 10); r_u32(r, 11);	/* TID */
	r_u64(r, 123456789);		/* TIME */
	r_u64(r, 0xdead0000);		/* ADDR */
	r_u64(r, 42);			/* ID */
	r_u64(r, 43);			/* STREAM_ID */
	r_u32(r, 1); r_u32(r, 0);	/* CPU */
	r_u64(r, 1000);			/* PERIOD */
	r_u64(r, 2);			/* READ: nr */
	r_u64(r, 500); r_u64(r, 400);	/* enabled, running */
	r_u64(r, 7); r_u64(r, 42); r_u64(r, 0);		/* value, id, lost */
	r_u64(r, 8); r_u64(r, 44); r_u64(r, 1);
	r_u64(r, 3);			/* CALLCHAIN */
	r_u64(r, 0xa); r_u64(r, 0xb); r_u64(r, 0xc);
	r_u32(r, 5);			/* RAW: 5 bytes, padded */
	r_bytes(r, "abcde", 5);
	r_bytes(r, "\0\0\0\0\0\0\0", 7);
	r_u64(r, 2);			/* BRANCH_STACK: nr */
	r_u64(r, 99);			/* hw_idx */
	r_u64(r, 0x100); r_u64(r, 0x200); r_u64(r, 1);
	r_u64(r, 0x300); r_u64(r, 0x400); r_u64(r, 2);
	r_u64(r, PERF_SAMPLE_REGS_ABI_64);	/* REGS_USER */
	r_u64(r, 1); r_u64(r, 2); r_u64(r, 3);
	r_u64(r, 16);			/* STACK_USER: size */
	r_bytes(r, "0123456789abcdef", 16);
	r_u64(r, 8);			/* dyn_size */
	r_u64(r, 77 | 5ULL << 32 | 6ULL << 48);	/* WEIGHT_STRUCT */
	r_u64(r, 0x5080144);		/* DATA_SRC */
	r_u64(r, 0x4);			/* TRANSACTION */
	r_u64(r, PERF_SAMPLE_REGS_ABI_64);	/* REGS_INTR */
	r_u64(r, 4); r_u64(r, 5);
	r_u64(r, 0x12345000);		/* PHYS_ADDR */
	r_u64(r, 9);			/* CGROUP */
	r_u64(r, 4096);			/* DATA_PAGE_SIZE */
	r_u64(r, 2097152);		/* CODE_PAGE_SIZE */
	r_u64(r, 8);			/* AUX */
	r_bytes(r, "AUXDATA!", 8);
	r_end(r);
}

TPERF_TEST(sample_all_fields, "perf.data: a sample with every PERF_SAMPLE bit")
{
	struct perf_event_attr attr;
	struct perf_sample s;
	struct rec r;

	build_all(&r, &attr);
	TEST_ASSERT_EQUAL("parse", perf_sample__parse(&attr, r.buf, r.len, &s), 0);
	{
		u64 time = 0;

		TEST_ASSERT_EQUAL("time", perf_event__time(&attr, (void *)r.buf, r.len, &time), 0);
		TEST_ASSERT_EQUAL("time without parsing", time, 123456789);
	}
	TEST_ASSERT_EQUAL("id", s.id, 42);
	TEST_ASSERT_EQUAL("ip", s.ip, 0xffffffff81000000ULL);
	TEST_ASSERT_EQUAL("tid", s.tid, 11);
	TEST_ASSERT_EQUAL("time", s.time, 123456789);
	TEST_ASSERT_EQUAL("addr", s.addr, 0xdead0000);
	TEST_ASSERT_EQUAL("stream_id", s.stream_id, 43);
	TEST_ASSERT_EQUAL("cpu", s.cpu, 1);
	TEST_ASSERT_EQUAL("period", s.period, 1000);
	TEST_ASSERT_EQUAL("read nr", s.read.nr, 2);
	TEST_ASSERT_EQUAL("read enabled", s.read.time_enabled, 500);
	TEST_ASSERT_EQUAL("read running", s.read.time_running, 400);
	TEST_ASSERT_EQUAL("read value", s.read.value, 7);
	TEST_ASSERT_EQUAL("read 2nd id", s.read.values[4], 44);
	TEST_ASSERT_EQUAL("read 2nd lost", s.read.values[5], 1);
	TEST_ASSERT_EQUAL("callchain nr", s.callchain_nr, 3);
	TEST_ASSERT_EQUAL("callchain[2]", s.callchain[2], 0xc);
	TEST_ASSERT_EQUAL("raw size", s.raw_size, 5);
	TEST_ASSERT_VAL("raw data", !memcmp(s.raw_data, "abcde", 5));
	TEST_ASSERT_EQUAL("branch nr", s.branch_nr, 2);
	TEST_ASSERT_VAL("hw_idx present", s.branch_has_hw_idx);
	TEST_ASSERT_EQUAL("hw_idx", s.branch_hw_idx, 99);
	TEST_ASSERT_EQUAL("branch[1].to", s.branch_entries[1].to, 0x400);
	TEST_ASSERT_EQUAL("user regs", s.user_regs.nr, 3);
	TEST_ASSERT_EQUAL("user reg 2", s.user_regs.regs[2], 3);
	TEST_ASSERT_EQUAL("stack size", s.user_stack.size, 16);
	TEST_ASSERT_EQUAL("stack dyn_size", s.user_stack.dyn_size, 8);
	TEST_ASSERT_EQUAL("weight", s.weight, 77);
	TEST_ASSERT_EQUAL("ins_lat", s.ins_lat, 5);
	TEST_ASSERT_EQUAL("p_stage_cyc", s.p_stage_cyc, 6);
	TEST_ASSERT_EQUAL("data_src", s.data_src, 0x5080144);
	TEST_ASSERT_EQUAL("transaction", s.transaction, 4);
	TEST_ASSERT_EQUAL("intr regs", s.intr_regs.nr, 2);
	TEST_ASSERT_EQUAL("intr reg 1", s.intr_regs.regs[1], 5);
	TEST_ASSERT_EQUAL("phys_addr", s.phys_addr, 0x12345000);
	TEST_ASSERT_EQUAL("cgroup", s.cgroup, 9);
	TEST_ASSERT_EQUAL("data page", s.data_page_size, 4096);
	TEST_ASSERT_EQUAL("code page", s.code_page_size, 2097152);
	TEST_ASSERT_EQUAL("aux size", s.aux.size, 8);
	TEST_ASSERT_VAL("aux data", !memcmp(s.aux.data, "AUXDATA!", 8));
	return TEST_OK;
}

TPERF_TEST(sample_truncated, "perf.data: every truncation of a full sample is -EINVAL")
{
	struct perf_event_attr attr;
	struct perf_sample s;
	struct rec r;

	build_all(&r, &attr);
	for (size_t n = 0; n < r.len; n++) {
		/* the copy ends exactly at n: ASan sees any read past it */
		u64 *copy = malloc(n ? n : 1);

		memcpy(copy, r.buf, n);
		if (perf_sample__parse(&attr, copy, n, &s) != -EINVAL) {
			free(copy);
			TEST_FAILED_AT("size %zu of %zu was accepted", n, r.len);
			return TEST_FAIL;
		}
		free(copy);
	}
	return TEST_OK;
}

TPERF_TEST(sample_corrupt_counts, "perf.data: absurd counts in a sample are -EINVAL")
{
	static const u64 types[] = { PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_BRANCH_STACK,
				     PERF_SAMPLE_STACK_USER, PERF_SAMPLE_AUX, PERF_SAMPLE_READ };
	struct perf_event_attr attr = { .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID };
	struct perf_sample s;
	struct rec r;

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		u64 counts[] = { 1ULL << 61, ~0ULL, 9 };

		attr.sample_type = types[i];
		for (size_t j = 0; j < 3; j++) {
			r_start(&r, PERF_RECORD_SAMPLE);
			r_u64(&r, counts[j]);
			r_u64(&r, 1);
			r_end(&r);
			TEST_ASSERT_EQUAL("rejected", perf_sample__parse(&attr, r.buf, r.len, &s),
					  -EINVAL);
		}
	}
	/* RAW size beyond the record */
	attr.sample_type = PERF_SAMPLE_RAW;
	r_start(&r, PERF_RECORD_SAMPLE);
	r_u32(&r, 0xffffffff);
	r_u32(&r, 0);
	r_end(&r);
	TEST_ASSERT_EQUAL("raw", perf_sample__parse(&attr, r.buf, r.len, &s), -EINVAL);
	/* dyn_size larger than size */
	attr.sample_type = PERF_SAMPLE_STACK_USER;
	r_start(&r, PERF_RECORD_SAMPLE);
	r_u64(&r, 8);
	r_u64(&r, 0);
	r_u64(&r, 9);
	r_end(&r);
	TEST_ASSERT_EQUAL("dyn_size", perf_sample__parse(&attr, r.buf, r.len, &s), -EINVAL);
	return TEST_OK;
}

TPERF_TEST(sample_regs_abi_none, "perf.data: REGS_USER with ABI none has no registers")
{
	struct perf_event_attr attr = { .sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_PERIOD,
					.sample_regs_user = 0xff };
	struct perf_sample s;
	struct rec r;

	r_start(&r, PERF_RECORD_SAMPLE);
	r_u64(&r, 5);		/* period */
	r_u64(&r, 0);		/* abi none */
	r_end(&r);
	TEST_ASSERT_EQUAL("parse", perf_sample__parse(&attr, r.buf, r.len, &s), 0);
	TEST_ASSERT_EQUAL("no regs", s.user_regs.nr, 0);
	TEST_ASSERT_EQUAL("period", s.period, 5);
	return TEST_OK;
}

TPERF_TEST(sample_read_single, "perf.data: READ without GROUP")
{
	struct perf_event_attr attr = { .sample_type = PERF_SAMPLE_READ,
		.read_format = PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_LOST };
	struct perf_sample s;
	struct rec r;

	r_start(&r, PERF_RECORD_SAMPLE);
	r_u64(&r, 1234);	/* value */
	r_u64(&r, 50);		/* running */
	r_u64(&r, 77);		/* id */
	r_u64(&r, 2);		/* lost */
	r_end(&r);
	TEST_ASSERT_EQUAL("parse", perf_sample__parse(&attr, r.buf, r.len, &s), 0);
	TEST_ASSERT_EQUAL("value", s.read.value, 1234);
	TEST_ASSERT_EQUAL("running", s.read.time_running, 50);
	TEST_ASSERT_EQUAL("id", s.read.id, 77);
	TEST_ASSERT_EQUAL("lost", s.read.lost, 2);
	TEST_ASSERT_EQUAL("too short", perf_sample__parse(&attr, r.buf, r.len - 8, &s), -EINVAL);
	return TEST_OK;
}

TPERF_TEST(sample_branch_no_hw_idx, "perf.data: BRANCH_STACK without hw_idx")
{
	struct perf_event_attr attr = { .sample_type = PERF_SAMPLE_BRANCH_STACK,
					.branch_sample_type = PERF_SAMPLE_BRANCH_ANY };
	struct perf_sample s;
	struct rec r;

	r_start(&r, PERF_RECORD_SAMPLE);
	r_u64(&r, 1);
	r_u64(&r, 0x10); r_u64(&r, 0x20); r_u64(&r, 0x30);
	r_end(&r);
	TEST_ASSERT_EQUAL("parse", perf_sample__parse(&attr, r.buf, r.len, &s), 0);
	TEST_ASSERT_VAL("no hw_idx", !s.branch_has_hw_idx);
	TEST_ASSERT_EQUAL("from", s.branch_entries[0].from, 0x10);
	TEST_ASSERT_EQUAL("flags", s.branch_entries[0].flags, 0x30);
	return TEST_OK;
}

TPERF_TEST(sample_synthesize_roundtrip, "perf.data: synthesize is the inverse of parse")
{
	struct perf_event_attr attr;
	struct perf_sample s, s2;
	struct rec r;
	u64 out[1024];
	int n;

	build_all(&r, &attr);
	TEST_ASSERT_EQUAL("parse", perf_sample__parse(&attr, r.buf, r.len, &s), 0);
	TEST_ASSERT_EQUAL("size", perf_sample__size(&attr, &s), r.len);
	n = perf_sample__synthesize(&attr, &s, out, sizeof(out));
	TEST_ASSERT_EQUAL("written", n, r.len);
	TEST_ASSERT_VAL("same bytes", !memcmp(out, r.buf, r.len));
	TEST_ASSERT_EQUAL("too small", perf_sample__synthesize(&attr, &s, out, r.len - 8), -ENOSPC);
	TEST_ASSERT_EQUAL("parse again", perf_sample__parse(&attr, out, n, &s2), 0);
	TEST_ASSERT_EQUAL("time", s2.time, s.time);
	return TEST_OK;
}

TPERF_TEST(sample_id_all_trailer, "perf.data: the sample_id_all trailer of a COMM record")
{
	struct perf_event_attr attr = { .sample_id_all = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			       PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP };
	struct perf_sample s = { .pid = 5, .tid = 6, .time = 777, .id = 31, .cpu = 1 }, p;
	struct rec r;
	u8 trailer[64];

	TEST_ASSERT_EQUAL("trailer size", perf_sample__id_hdr_size(&attr), 40);
	r_start(&r, PERF_RECORD_COMM);
	r_u32(&r, 5); r_u32(&r, 6);
	r_bytes(&r, "sleep\0\0\0", 8);
	TEST_ASSERT_EQUAL("synthesize", perf_sample__synthesize_id(&attr, &s, trailer), 40);
	r_bytes(&r, trailer, 40);
	r_end(&r);
	TEST_ASSERT_EQUAL("parse", perf_event__parse_sample(&attr, (void *)r.buf, r.len, &p), 0);
	TEST_ASSERT_EQUAL("time", p.time, 777);
	TEST_ASSERT_EQUAL("id", p.id, 31);
	TEST_ASSERT_EQUAL("cpu", p.cpu, 1);
	TEST_ASSERT_EQUAL("tid", p.tid, 6);
	TEST_ASSERT_EQUAL("ip is not in a trailer", p.ip, 0);
	{
		u64 time = 0;

		TEST_ASSERT_EQUAL("time of a COMM", perf_event__time(&attr, (void *)r.buf, r.len,
								      &time), 0);
		TEST_ASSERT_EQUAL("its value", time, 777);
		TEST_ASSERT_EQUAL("cut", perf_event__time(&attr, (void *)r.buf, 40, &time), -EINVAL);
		attr.sample_id_all = 0;
		TEST_ASSERT_EQUAL("no trailer", perf_event__time(&attr, (void *)r.buf, r.len, &time),
				  -ENOENT);
		attr.sample_id_all = 1;
	}
	TEST_ASSERT_EQUAL("too short for the trailer",
			  perf_sample__parse_id(&attr, r.buf, 40, &p), -EINVAL);
	TEST_ASSERT_EQUAL("id position, identifier", perf_sample__is_pos(attr.sample_type), 1);
	attr.sample_type &= ~PERF_SAMPLE_IDENTIFIER;
	TEST_ASSERT_EQUAL("id position from the end", perf_sample__is_pos(attr.sample_type), 2);
	TEST_ASSERT_EQUAL("id position in a sample", perf_sample__id_pos(attr.sample_type), 3);
	TEST_ASSERT_EQUAL("no id", perf_sample__id_pos(PERF_SAMPLE_IP), -1);
	return TEST_OK;
}
