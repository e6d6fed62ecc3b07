// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the ftrace page decoder and of the function / function_graph
 * decode paths: pages are laid out as the kernel lays them out (64-bit,
 * little-endian header: u64 timestamp, long commit, data; 32-bit event
 * headers type_len:5 time_delta:27), the event formats are this kernel's
 * events/ftrace/{function,funcgraph_entry,funcgraph_exit}/format.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "util/trace/ftrace-page.h"
#include "util/trace/trace-event.h"

struct page_builder {
	uint8_t page[4096];
	uint32_t len;
};

static void put32(struct page_builder *b, uint32_t v)
{
	memcpy(b->page + 16 + b->len, &v, 4);
	b->len += 4;
}

/* An event of @size payload bytes (a multiple of 4), @delta after the last. */
static void put_event(struct page_builder *b, uint32_t delta, const void *data, uint32_t size)
{
	if (size <= 28 * 4) {
		put32(b, (size / 4) | delta << 5);
	} else {
		put32(b, delta << 5);
		put32(b, size + 4);
	}
	memcpy(b->page + 16 + b->len, data, size);
	b->len += size;
}

static void finish(struct page_builder *b, uint64_t ts)
{
	uint64_t commit = b->len;

	memcpy(b->page, &ts, 8);
	memcpy(b->page + 8, &commit, 8);
}

struct fn_rec {
	uint16_t type;
	uint8_t flags, preempt;
	int32_t pid;
	uint64_t ip, parent;
};

struct graph_exit_rec {
	uint16_t type;
	uint8_t flags, preempt;
	int32_t pid;
	uint64_t func;
	uint32_t depth, overrun;
	uint64_t calltime, rettime;
};

TPERF_TEST(test_ftrace_page_layout, "ftrace page: deltas, time extends, padding, big events")
{
	struct page_builder b = { 0 };
	struct ftrace_page_fmt fmt;
	struct ftrace_page_iter it;
	struct ftrace_page_event ev;
	uint8_t big[200] = { 7 };
	struct fn_rec fn = { .type = 1, .pid = 42, .ip = 0x1000, .parent = 0x2000 };

	put_event(&b, 10, &fn, sizeof(fn));
	put32(&b, 30 | 5 << 5);		/* time extend: 1 << 27 + 5 */
	put32(&b, 1);
	put_event(&b, 3, &fn, sizeof(fn));
	put32(&b, 29 | 1 << 5);		/* padding (a discarded event) of 8 bytes */
	put32(&b, 8);
	b.len += 4;
	put_event(&b, 2, big, sizeof(big));
	finish(&b, 1000);
	ftrace_page_fmt__init_default(&fmt, 8, 0, 4096);
	TEST_ASSERT_EQUAL("check", ftrace_page__init(&it, &fmt, b.page, sizeof(b.page)), 0);
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), 1);
	TEST_ASSERT_EQUAL("check", ev.ts, 1010);
	TEST_ASSERT_EQUAL("check", ev.size, sizeof(fn));
	TEST_ASSERT_VAL("check", !memcmp(ev.data, &fn, sizeof(fn)));
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), 1);
	TEST_ASSERT_EQUAL("check", ev.ts, 1010 + (1ULL << 27) + 5 + 3);
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), 1);
	TEST_ASSERT_EQUAL("check", ev.ts, 1010 + (1ULL << 27) + 5 + 3 + 1 + 2);
	TEST_ASSERT_EQUAL("check", ev.size, sizeof(big));
	TEST_ASSERT_EQUAL("check", ev.data[0], 7);
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), 0);
	return TEST_OK;
}

TPERF_TEST(test_ftrace_page_corrupt, "ftrace page: lengths beyond the commit are refused")
{
	struct page_builder b = { 0 };
	struct ftrace_page_fmt fmt;
	struct ftrace_page_iter it;
	struct ftrace_page_event ev;
	uint64_t commit = 5000;

	ftrace_page_fmt__init_default(&fmt, 8, 0, 4096);
	memcpy(b.page + 8, &commit, 8);
	TEST_ASSERT_EQUAL("check", ftrace_page__init(&it, &fmt, b.page, sizeof(b.page)), -EINVAL);
	TEST_ASSERT_EQUAL("check", ftrace_page__init(&it, &fmt, b.page, 10), -EINVAL);
	put32(&b, 0);			/* type_len 0: the length word says 4000 */
	put32(&b, 4000);
	finish(&b, 0);
	TEST_ASSERT_EQUAL("check", ftrace_page__init(&it, &fmt, b.page, sizeof(b.page)), 0);
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), -EINVAL);
	return TEST_OK;
}

static int load_format(struct trace_event *t, const char *name)
{
	char path[256], buf[8192];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/ftrace/%s/format", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return trace_event__parse_format(t, "ftrace", buf, n);
}

static int payload(struct trace_event *t, const void *data, uint32_t size, char *out, size_t n)
{
	struct tep_record rec = { .data = (void *)data, .size = size };
	struct trace_seq s;

	trace_seq_init(&s);
	if (!trace_event__payload(t, &rec, &s)) {
		trace_seq_destroy(&s);
		return -1;
	}
	trace_seq_terminate(&s);
	snprintf(out, n, "%s", s.buffer);
	trace_seq_destroy(&s);
	return 0;
}

TPERF_TEST(test_ftrace_function_decode, "function and function_graph records decode with this kernel's formats")
{
	struct trace_event t;
	struct tep_event *fe, *ge, *gx;
	struct page_builder b = { 0 };
	struct ftrace_page_fmt fmt;
	struct ftrace_page_iter it;
	struct ftrace_page_event ev;
	char out[256];
	char syms[] = "ffffffff81000000 T schedule\nffffffff81000100 T do_work\n";

	if (trace_event__init(&t, 8, 0, 4096))
		return TEST_FAIL;
	if (load_format(&t, "function") || load_format(&t, "funcgraph_entry") ||
	    load_format(&t, "funcgraph_exit")) {
		trace_event__exit(&t);
		return test_skip("cannot read events/ftrace/*/format (tracefs)");
	}
	tep_parse_kallsyms(t.tep, syms);
	fe = tep_find_event_by_name(t.tep, "ftrace", "function");
	ge = tep_find_event_by_name(t.tep, "ftrace", "funcgraph_entry");
	gx = tep_find_event_by_name(t.tep, "ftrace", "funcgraph_exit");
	TEST_ASSERT_VAL("check", fe && ge && gx);
	{
		struct fn_rec fn = { .type = fe->id, .pid = 1, .ip = 0xffffffff81000000ULL,
				     .parent = 0xffffffff81000104ULL };
		struct fn_rec entry = { .type = ge->id, .pid = 1, .ip = 0xffffffff81000100ULL,
					.parent = 2 };	/* func, depth 2 (+ padding) */
		struct graph_exit_rec exit = { .type = gx->id, .pid = 1,
					       .func = 0xffffffff81000100ULL, .depth = 2,
					       .calltime = 0x100, .rettime = 0x180 };

		put_event(&b, 1, &fn, sizeof(fn));
		put_event(&b, 1, &entry, 24);
		put_event(&b, 1, &exit, sizeof(exit));
		finish(&b, 0);
	}
	ftrace_page_fmt__init_default(&fmt, 8, 0, 4096);
	TEST_ASSERT_EQUAL("check", ftrace_page__init(&it, &fmt, b.page, sizeof(b.page)), 0);
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), 1);
	TEST_ASSERT_EQUAL("check", payload(&t, ev.data, ev.size, out, sizeof(out)), 0);
	TEST_ASSERT_STR("function, as the function plugin prints it", out, "schedule");
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), 1);
	TEST_ASSERT_EQUAL("check", payload(&t, ev.data, ev.size, out, sizeof(out)), 0);
	TEST_ASSERT_STR("check", out, "--> do_work (2)");
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), 1);
	TEST_ASSERT_EQUAL("check", payload(&t, ev.data, ev.size, out, sizeof(out)), 0);
	TEST_ASSERT_STR("check", out, "<-- do_work (2) (start: 100  end: 180) over: 2");
	TEST_ASSERT_EQUAL("check", ftrace_page__next(&it, &ev), 0);
	trace_event__exit(&t);
	return TEST_OK;
}

#include <sys/mman.h>
#include <unistd.h>

#include "util/trace/ftrace-show.h"
#include "util/trace/trace-dat.h"

static int format_id(const char *name)
{
	char path[256], buf[4096];
	FILE *f;
	size_t n;
	const char *id;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/ftrace/%s/format", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	id = strstr(buf, "ID: ");
	return id ? atoi(id + 4) : -1;
}

TPERF_TEST(test_ftrace_graph_dat, "function_graph pages through trace.dat: calls, total and self time")
{
	int entry_id = format_id("funcgraph_entry"), exit_id = format_id("funcgraph_exit");
	struct page_builder b = { 0 };
	struct graph_exit_rec x = { .type = exit_id, .pid = 7 };
	int fds[2] = { memfd_create("cpu0", 0), memfd_create("cpu1", 0) };
	struct trace_dat_wparams p = { .tracefs = "/sys/kernel/tracing", .nr_cpus = 2,
				       .cpu_fds = fds };
	struct ftrace_graph_stats *st = calloc(1, sizeof(*st));
	struct trace_dat td;
	struct trace_dat_iter it;
	struct trace_dat_event ev;
	char *dir = test_mkdtemp(), path[256], err[512];
	int n = 0;

	if (entry_id < 0 || exit_id < 0)
		return test_skip("cannot read events/ftrace/*/format (tracefs)");
	/* A (depth 0) calls B twice: B 100 and 200 ns, A 1000 ns */
	{
		struct fn_rec e = { .type = entry_id, .pid = 7, .ip = 0xa000, .parent = 0 };

		put_event(&b, 1, &e, 24);
	}
	x.func = 0xb000, x.depth = 1, x.calltime = 100, x.rettime = 200;
	put_event(&b, 1, &x, sizeof(x));
	x.calltime = 300, x.rettime = 500;
	put_event(&b, 1, &x, sizeof(x));
	x.func = 0xa000, x.depth = 0, x.calltime = 0, x.rettime = 1000;
	put_event(&b, 1, &x, sizeof(x));
	finish(&b, 0);
	TEST_ASSERT_EQUAL("page written", write(fds[0], b.page, sizeof(b.page)), sizeof(b.page));
	snprintf(path, sizeof(path), "%s/g.dat", dir);
	TEST_ASSERT_EQUAL("trace.dat written", trace_dat__write(path, &p, err, sizeof(err)), 0);
	TEST_ASSERT_EQUAL("trace.dat read", trace_dat__open(&td, path, err, sizeof(err)), 0);
	TEST_ASSERT_EQUAL("iterator", trace_dat__iter_init(&it, &td), 0);
	while (trace_dat__iter_next(&it, &ev) > 0) {
		struct ftrace_line line;

		TEST_ASSERT_EQUAL("decode", ftrace_show__decode(&td, &ev, &line), 0);
		TEST_ASSERT_EQUAL("pid", line.pid, 7);
		TEST_ASSERT_EQUAL("cpu", ev.cpu, 0);
		TEST_ASSERT_EQUAL("stats", ftrace_graph_stats__add(st, &line), 0);
		if (n == 0 || n == 3) {
			struct trace_seq s;
			char text[256];

			trace_seq_init(&s);
			ftrace_show__format(&td, &line, 0, &s);
			trace_seq_terminate(&s);
			snprintf(text, sizeof(text), "%s", s.buffer);
			trace_seq_destroy(&s);
			TEST_ASSERT_VAL("nested form", n ? strstr(text, "funcgraph_exit:         1.000 us   |  }") != NULL
						  : strstr(text, "funcgraph_entry:                   |  ") && strstr(text, "() {"));
		}
		n++;
	}
	TEST_ASSERT_EQUAL("events", n, 4);
	TEST_ASSERT_EQUAL("functions", st->nr, 2);
	TEST_ASSERT_EQUAL("B", st->funcs[0].addr, 0xb000);
	TEST_ASSERT_EQUAL("B calls", st->funcs[0].calls, 2);
	TEST_ASSERT_EQUAL("B total", st->funcs[0].total_ns, 300);
	TEST_ASSERT_EQUAL("B self", st->funcs[0].self_ns, 300);
	TEST_ASSERT_EQUAL("A total", st->funcs[1].total_ns, 1000);
	TEST_ASSERT_EQUAL("A self", st->funcs[1].self_ns, 700);
	trace_dat__iter_exit(&it);
	trace_dat__close(&td);
	free(st->funcs);
	free(st);
	close(fds[0]);
	close(fds[1]);
	test_rm_rf(dir);
	return TEST_OK;
}

/* The events of @path as "cpu ts size sum" lines, or NULL. */
static char *dat_events(const char *path, char *err, size_t errsize)
{
	struct trace_dat td;
	struct trace_dat_iter it;
	struct trace_dat_event ev;
	char *out = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if (trace_dat__open(&td, path, err, errsize))
		return NULL;
	f = open_memstream(&out, &len);
	if (!f || trace_dat__iter_init(&it, &td)) {
		trace_dat__close(&td);
		return NULL;
	}
	while ((ret = trace_dat__iter_next(&it, &ev)) > 0) {
		unsigned sum = 0;

		for (uint32_t i = 0; i < ev.size; i++)
			sum = sum * 31 + ev.data[i];
		fprintf(f, "%d %llu %u %u\n", ev.cpu, (unsigned long long)ev.ts, ev.size, sum);
	}
	fprintf(f, "end %d version %d\n", ret, td.version);
	fclose(f);
	trace_dat__iter_exit(&it);
	trace_dat__close(&td);
	return out;
}

TPERF_TEST(test_ftrace_dat_v7, "trace.dat v7 (none, zstd, zlib; several chunks) holds the events v6 holds")
{
	int fds[2] = { memfd_create("cpu0", 0), memfd_create("cpu1", 0) };
	struct trace_dat_wparams p = { .tracefs = "/sys/kernel/tracing", .nr_cpus = 2,
				       .cpu_fds = fds, .clock_text = "[local] global\n" };
	static const char *const algos[] = { NULL, "none", "zstd", "zlib" };
	char *dir = test_mkdtemp(), path[256], err[512], *ref = NULL;
	uint64_t ts = 1000;

	if (access("/sys/kernel/tracing/events/header_page", R_OK))
		return test_skip("cannot read tracefs (events/header_page)");
	/* 150 pages on CPU 0 (3 chunks of 64 pages), 2 on CPU 1 */
	for (int pg = 0; pg < 152; pg++) {
		struct page_builder b = { 0 };
		struct fn_rec fn = { .type = 1, .pid = pg };

		for (int i = 0; i < 100; i++) {
			fn.ip = pg * 1000 + i;
			put_event(&b, 7, &fn, sizeof(fn));
		}
		finish(&b, ts);
		ts += 1000;
		TEST_ASSERT_EQUAL("page", write(fds[pg < 150 ? 0 : 1], b.page, sizeof(b.page)),
				  sizeof(b.page));
	}
	for (size_t a = 0; a < sizeof(algos) / sizeof(algos[0]); a++) {
		char *got;

		p.file_version = a ? 7 : 6;
		p.compression = algos[a];
		snprintf(path, sizeof(path), "%s/t%zu.dat", dir, a);
		TEST_ASSERT_EQUAL("written", trace_dat__write(path, &p, err, sizeof(err)), 0);
		got = dat_events(path, err, sizeof(err));
		TEST_ASSERT_VAL(err, got != NULL);
		if (!ref) {
			ref = got;
			TEST_ASSERT_VAL("15200 events", strstr(ref, "\n1 ") && strlen(ref) > 15200 * 10);
			TEST_ASSERT_VAL("v6", strstr(ref, "end 0 version 6\n"));
			continue;
		}
		TEST_ASSERT_VAL("v7", strstr(got, "end 0 version 7\n"));
		*strstr(got, "end 0 version 7\n") = 0;
		*strstr(ref, "end 0 version 6\n") = 0;
		TEST_ASSERT_STR(algos[a], got, ref);
		strcat(ref, "end 0 version 6\n");
		free(got);
	}
	free(ref);
	close(fds[0]);
	close(fds[1]);
	test_rm_rf(dir);
	return TEST_OK;
}

#include <glob.h>

TPERF_TEST(test_ftrace_formats_ok, "every tracefs event format passes the trace.dat reader's format check")
{
	glob_t g;
	int n = 0;

	if (glob("/sys/kernel/tracing/events/*/*/format", 0, NULL, &g))
		return test_skip("no tracefs event formats");
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char buf[65536];
		FILE *f = fopen(g.gl_pathv[i], "r");
		size_t len;

		if (!f)
			continue;
		len = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		if (len == sizeof(buf))
			continue;
		TEST_ASSERT_VAL(g.gl_pathv[i], trace_dat__format_ok(buf, len));
		n++;
	}
	globfree(&g);
	TEST_ASSERT_VAL("formats read", n > 100);
#define OK(text) trace_dat__format_ok(text, sizeof(text) - 1)
	TEST_ASSERT_VAL("well formed", OK("name: a\nID: 1\nformat:\n\tfield:u32 buf[2];\toffset:0;\tsize:8;\n\nprint fmt: \"x\", (REC->buf[0])\n"));
	TEST_ASSERT_VAL("a field cut in its brackets",
			!OK("name: a\nID: 1\nformat:\n\tfield:u32 buf[;\toffset:0;\tsize:4;\n\nprint fmt: \"x\"\n"));
	TEST_ASSERT_VAL("a stray line among the fields",
			!OK("name: a\nID: 1\nformat:\ne\tflid:int a;\toffset:0;\tsize:4;\n\nprint fmt: \"x\"\n"));
	TEST_ASSERT_VAL("unbalanced print fmt", !OK("name: a\nID: 1\nformat:\n\nprint fmt: \"x\", (REC->a\n"));
	TEST_ASSERT_VAL("a backtick in print fmt", !OK("name: a\nID: 1\nformat:\n\nprint fmt: \"x\", REC->a` REC->b\n"));
#undef OK
	return TEST_OK;
}

static int load_sched_format(struct trace_event *t, const char *name)
{
	char path[256], buf[16384];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/sched/%s/format", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return trace_event__parse_format(t, "sched", buf, n);
}

static void set_field(struct tep_event *e, uint8_t *rec, const char *name, long long v)
{
	struct tep_format_field *f = tep_find_any_field(e, name);

	if (f && f->size <= 8)
		memcpy(rec + f->offset, &v, f->size);	/* little-endian host */
}

static void set_comm(struct tep_event *e, uint8_t *rec, const char *name, const char *comm)
{
	struct tep_format_field *f = tep_find_field(e, name);

	memset(rec + f->offset, 0, f->size);
	memcpy(rec + f->offset, comm, strnlen(comm, f->size));
}

/* The payload of @line: after the 22-column event name. */
static const char *payload_of(struct trace_dat *td, struct ftrace_line *l, int slow,
			      struct trace_seq *s)
{
	const char *p;

	trace_seq_reset(s);
	ftrace_show__format(td, l, slow, s);	/* -l takes libtraceevent's path */
	trace_seq_terminate(s);
	p = strstr(s->buffer, l->event->name);
	return p ? p + 22 : "";
}

TPERF_TEST(test_ftrace_show_fast, "show's own sched_switch/sched_wakeup text equals libtraceevent's for odd values")
{
	static const long long states[] = { 0, 1, 2, 3, 0x40, 0x80, 0x81, 0x100, 0x1ff, -1 };
	static const long long ints[] = { 0, 1, -1, 120, 2147483647 };
	static const char *const comms[] = { "a", "sixteen_chars_xx", "" };
	struct trace_dat td;
	struct trace_seq fast, slow;
	struct tep_event *sw, *wk;
	int n = 0;

	memset(&td, 0, sizeof(td));
	if (trace_event__init(&td.tevent, 8, 0, 4096))
		return TEST_FAIL;
	if (load_sched_format(&td.tevent, "sched_switch") ||
	    load_sched_format(&td.tevent, "sched_wakeup")) {
		trace_event__exit(&td.tevent);
		return test_skip("cannot read events/sched/*/format (tracefs)");
	}
	sw = tep_find_event_by_name(td.tevent.tep, "sched", "sched_switch");
	wk = tep_find_event_by_name(td.tevent.tep, "sched", "sched_wakeup");
	TEST_ASSERT_VAL("events", sw && wk);
	trace_seq_init(&fast);
	trace_seq_init(&slow);
	for (size_t si = 0; si < sizeof(states) / sizeof(states[0]); si++)
	for (size_t ii = 0; ii < sizeof(ints) / sizeof(ints[0]); ii++)
	for (size_t ci = 0; ci < sizeof(comms) / sizeof(comms[0]); ci++) {
		uint8_t rec[128] = { 0 };
		struct ftrace_line l = { .rec = { .data = rec, .size = 64, .ts = 1000 },
					 .pid = 1, .comm = "x" };
		char a[512];
		struct tep_event *e = n % 2 ? wk : sw;

		l.event = e;
		set_field(e, rec, "common_type", e->id);
		if (e == sw) {
			set_comm(e, rec, "prev_comm", comms[ci]);
			set_field(e, rec, "prev_pid", ints[ii]);
			set_field(e, rec, "prev_prio", ints[(ii + 1) % 5]);
			set_field(e, rec, "prev_state", states[si]);
			set_comm(e, rec, "next_comm", comms[(ci + 1) % 3]);
			set_field(e, rec, "next_pid", ints[(ii + 2) % 5]);
			set_field(e, rec, "next_prio", ints[(ii + 3) % 5]);
		} else {
			set_comm(e, rec, "comm", comms[ci]);
			set_field(e, rec, "pid", ints[ii]);
			set_field(e, rec, "prio", ints[(ii + 1) % 5]);
			set_field(e, rec, "target_cpu", states[si] & 0xffff);
		}
		snprintf(a, sizeof(a), "%s", payload_of(&td, &l, 0, &fast));
		TEST_ASSERT_STR(e->name, a, payload_of(&td, &l, 1, &slow));
		n++;
	}
	TEST_ASSERT_VAL("the fast path was taken", td.show_priv != NULL);
	trace_seq_destroy(&fast);
	trace_seq_destroy(&slow);
	if (td.show_priv_free)
		td.show_priv_free(td.show_priv);
	trace_event__exit(&td.tevent);
	return TEST_OK;
}
