// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the tracing data reader (util/trace/tracing-data.c), the
 * libtraceevent handle (util/trace/trace-event.c) and the compiled print fmts
 * (util/trace/trace-fast.c), on a blob built here in perf's layout.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/trace/trace-event.h"
#include "util/trace/trace-fast.h"
#include "util/trace/tracing-data.h"

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

#define COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char fmt_ev[] =
	"name: ev\nID: 7\n" COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:int pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:long id;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[2];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:56;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned int u;\toffset:60;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"comm=%s pid=%d id=%ld a=%lx b=%08lx name=%s w=%-5d| u=%u x=%x%%\", "
	"REC->comm, REC->pid, REC->id, REC->args[0], REC->args[1], __get_str(name), "
	"REC->pid, REC->u, REC->u\n";

static const char fmt_bad[] =
	"name: bad\nID: 8\n" COMMON
	"\tfield:int v;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	"print fmt: (((((((\n";

struct blob {
	char b[8192];
	size_t n, before_cmdlines;
};

static void put(struct blob *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put_u32(struct blob *b, uint32_t v) { put(b, &v, 4); }
static void put_u64(struct blob *b, uint64_t v) { put(b, &v, 8); }

static void put_sec(struct blob *b, const char *text)
{
	put_u64(b, strlen(text));
	put(b, text, strlen(text));
}

/* perf's version 0.6 tracing data with the two events of system "test" */
static void build(struct blob *b)
{
	b->n = 0;
	put(b, "\x17\x08\x44tracing0.6", 14);
	put(b, "\0\x08", 2);			/* little endian, long 8 */
	put_u32(b, 4096);
	put(b, "header_page", 12);
	put_sec(b, header_page);
	put(b, "header_event", 13);
	put_sec(b, "# compressed entry header\n");
	put_u32(b, 0);				/* ftrace formats */
	put_u32(b, 1);				/* systems */
	put(b, "test", 5);
	put_u32(b, 2);
	put_sec(b, fmt_ev);
	put_sec(b, fmt_bad);
	put_u32(b, 0);				/* kallsyms */
	put_u32(b, 0);				/* printk formats */
	b->before_cmdlines = b->n;
	put_sec(b, "42 init\nbad line\n");
}

/* A record of "ev" (64 bytes + the dynamic string). */
static size_t record(unsigned char *d, const char *comm, int pid, long id, unsigned long a0,
		     unsigned long a1, const char *name, unsigned int u)
{
	uint16_t type = 7;
	uint32_t loc = (uint32_t)(64 | ((strlen(name) + 1) << 16));

	memset(d, 0, 128);
	memcpy(d, &type, 2);
	memcpy(d + 4, &pid, 4);
	strncpy((char *)d + 8, comm, 15);
	memcpy(d + 24, &pid, 4);
	memcpy(d + 32, &id, 8);
	memcpy(d + 40, &a0, 8);
	memcpy(d + 48, &a1, 8);
	memcpy(d + 56, &loc, 4);
	memcpy(d + 60, &u, 4);
	strcpy((char *)d + 64, name);
	return 64 + strlen(name) + 1;
}

static void print_slow(struct trace_event *t, unsigned char *d, size_t n, char *out, size_t size)
{
	struct tep_record rec = { .data = d, .size = (int)n };
	struct trace_seq s;

	trace_seq_init(&s);
	tep_print_event(t->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(out, size, "%s", s.buffer);
	trace_seq_destroy(&s);
}

TPERF_TEST(test_tracing_data_parse, "tracing data: perf's layout loads, formats print")
{
	struct blob b;
	struct trace_event t;
	unsigned char d[128];
	char out[512];
	struct tep_event *ev;
	size_t n;

	build(&b);
	TEST_ASSERT_EQUAL("parse", tracing_data__parse(&t, b.b, b.n), 0);
	ev = tep_find_event(t.tep, 7);
	TEST_ASSERT_VAL("event 7", ev && !strcmp(ev->system, "test") && !strcmp(ev->name, "ev"));
	n = record(d, "bash", -3, -5, 0xffff, 0x1a, "file.txt", 4000000000u);
	print_slow(&t, d, n, out, sizeof(out));
	TEST_ASSERT_STR("text", out,
			"comm=bash pid=-3 id=-5 a=ffff b=0000001a name=file.txt w=-3   | u=4000000000 x=ee6b2800%");
	TEST_ASSERT_STR("cmdline", tep_data_comm_from_pid(t.tep, 42), "init");
	trace_event__exit(&t);
	return TEST_OK;
}

TPERF_TEST(test_tracing_data_truncated, "tracing data: every cut is refused, never read past")
{
	struct blob b;
	struct trace_event t;

	build(&b);
	for (size_t len = 0; len < b.n; len++) {
		char *copy = malloc(len + 1);	/* exact size: ASan sees overreads */
		int err;

		memcpy(copy, b.b, len);
		err = tracing_data__parse(&t, copy, len);
		free(copy);
		if (len == b.before_cmdlines) {	/* perf may stop before the cmdlines */
			TEST_ASSERT_EQUAL("no cmdlines", err, 0);
			trace_event__exit(&t);
			continue;
		}
		if (err != -EINVAL) {
			fprintf(stderr, "length %zu of %zu: %d\n", len, b.n, err);
			TEST_ASSERT_EQUAL("cut", err, -EINVAL);
		}
	}
	return TEST_OK;
}

TPERF_TEST(test_tracing_data_bad_format, "tracing data: a format that fails is remembered")
{
	struct blob b;
	struct trace_event t;
	struct trace_event_bad *bad;

	build(&b);
	TEST_ASSERT_EQUAL("parse", tracing_data__parse(&t, b.b, b.n), 0);
	TEST_ASSERT_EQUAL("bad count", t.nr_bad, 1);
	bad = trace_event__bad(&t, 8);
	TEST_ASSERT_VAL("bad 8", bad != NULL);
	TEST_ASSERT_STR("bad name", bad->name, "test:bad");
	TEST_ASSERT_VAL("ev is fine", trace_event__bad(&t, 7) == NULL);
	trace_event__exit(&t);
	return TEST_OK;
}

TPERF_TEST(test_trace_fast_same_text, "compiled print fmts print what libtraceevent prints")
{
	static const struct { const char *comm; int pid; long id; unsigned long a0, a1;
			      const char *name; unsigned int u; } recs[] = {
		{ "bash", -3, -5, 0xffff, 0x1a, "file.txt", 4000000000u },
		{ "", 0, 0, 0, 0, "", 0 },
		{ "123456789012345", 2147483647, -9223372036854775807L - 1, ~0UL, ~0UL, "x", 1 },
		{ "a b", -2147483647 - 1, 9223372036854775807L, 1, 123456789, "/a b/c", 0xffffffffu },
	};
	struct blob b;
	struct trace_event t;
	struct trace_fast *p;

	build(&b);
	TEST_ASSERT_EQUAL("parse", tracing_data__parse(&t, b.b, b.n), 0);
	p = trace_fast__compile(tep_find_event(t.tep, 7));
	TEST_ASSERT_VAL("compiled", p != NULL);
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		unsigned char d[128];
		char slow[512], fast[512];
		size_t n = record(d, recs[i].comm, recs[i].pid, recs[i].id, recs[i].a0, recs[i].a1,
				  recs[i].name, recs[i].u);
		int len = trace_fast__print(p, d, n, fast, sizeof(fast) - 1);

		TEST_ASSERT_VAL("printed", len > 0);
		fast[len] = '\0';
		print_slow(&t, d, n, slow, sizeof(slow));
		TEST_ASSERT_STR("same text", fast, slow);
		TEST_ASSERT_EQUAL("short record refused", trace_fast__print(p, d, 40, fast, 500), -1);
	}
	TEST_ASSERT_VAL("bad format not compiled", !trace_fast__compile(tep_find_event(t.tep, 8)));
	trace_fast__free(p);
	trace_event__exit(&t);
	return TEST_OK;
}

TPERF_TEST(test_trace_record_fits, "records too short for their format are not formatted")
{
	struct blob b;
	struct trace_event t;
	struct tep_event *ev;
	unsigned char d[128];
	size_t n;

	build(&b);
	TEST_ASSERT_EQUAL("parse", tracing_data__parse(&t, b.b, b.n), 0);
	ev = tep_find_event(t.tep, 7);
	n = record(d, "bash", 1, 2, 3, 4, "name", 5);
	TEST_ASSERT_VAL("fits", trace_event__record_fits(ev, d, n));
	TEST_ASSERT_VAL("short", !trace_event__record_fits(ev, d, 60));
	TEST_ASSERT_VAL("string cut", !trace_event__record_fits(ev, d, n - 1));
	memset(d + 8, 'x', 16);
	TEST_ASSERT_VAL("comm unterminated", !trace_event__record_fits(ev, d, n));
	trace_event__exit(&t);
	return TEST_OK;
}
