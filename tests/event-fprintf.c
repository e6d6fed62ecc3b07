// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for util/perf-data/event-fprintf.c: perf's record lines, short records. */
#include <stdlib.h>
#include <sys/mman.h>

#include "tests/tests.h"
#include "util/perf-data/event-fprintf.h"

/* perf_event__fprintf() of @ev into a string (static buffer). */
static const char *text(const union perf_event *ev)
{
	static char buf[512];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	if (!fp)
		return "";
	perf_event__fprintf(fp, ev);
	fclose(fp);
	return buf;
}

TPERF_TEST(event_fprintf_lines, "event-fprintf: MMAP2, COMM, FORK, SWITCH lines as perf prints them")
{
	u64 rec[32] = { 0 };
	union perf_event *ev = (union perf_event *)rec;

	ev->mmap2.header = (struct perf_event_header){ PERF_RECORD_MMAP2, 0, 0 };
	ev->mmap2.pid = ev->mmap2.tid = 42;
	ev->mmap2.start = 0x400000;
	ev->mmap2.len = 0x1000;
	ev->mmap2.pgoff = 0;
	ev->mmap2.maj = 0xfe;
	ev->mmap2.ino = 7;
	ev->mmap2.prot = PROT_READ | PROT_EXEC;
	ev->mmap2.flags = MAP_PRIVATE;
	strcpy(ev->mmap2.filename, "/bin/x");
	ev->header.size = sizeof(ev->mmap2) + 8;
	TEST_ASSERT_STR("mmap2", text(ev),
			"PERF_RECORD_MMAP2 42/42: [0x400000(0x1000) @ 0 fe:00 7 0]: r-xp /bin/x\n");
	ev->header.size = sizeof(ev->mmap2) + 3;	/* the name cut short: no overread */
	memset(ev->mmap2.filename, 'a', 8);
	TEST_ASSERT_STR("cut name", text(ev),
			"PERF_RECORD_MMAP2 42/42: [0x400000(0x1000) @ 0 fe:00 7 0]: r-xp aaa\n");
	ev->header.size = 16;				/* too short for its fields */
	TEST_ASSERT_STR("short", text(ev), "PERF_RECORD_MMAP2\n");

	memset(rec, 0, sizeof(rec));
	ev->comm.header = (struct perf_event_header){ PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, 32 };
	ev->comm.pid = 5;
	ev->comm.tid = 6;
	strcpy(ev->comm.comm, "sh");
	TEST_ASSERT_STR("comm exec", text(ev), "PERF_RECORD_COMM exec: sh:5/6\n");

	memset(rec, 0, sizeof(rec));
	ev->fork = (struct perf_record_fork){ { PERF_RECORD_FORK, 0, sizeof(ev->fork) }, 2, 1, 3, 1, 0 };
	TEST_ASSERT_STR("fork", text(ev), "PERF_RECORD_FORK(2:3):(1:1)\n");

	ev->context_switch = (struct perf_record_switch){
		{ PERF_RECORD_SWITCH_CPU_WIDE, PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT,
		  sizeof(ev->context_switch) }, 7, 8 };
	TEST_ASSERT_STR("switch", text(ev),
			"PERF_RECORD_SWITCH_CPU_WIDE OUT preempt  next pid/tid:     7/8    \n");
	ev->header.type = 200;
	TEST_ASSERT_STR("unknown type", text(ev), "PERF_RECORD_200: unhandled!\n");
	return TEST_OK;
}

TPERF_TEST(event_fprintf_raw, "event-fprintf: the -D hex dump lines")
{
	u64 rec[32] = { 0 };
	union perf_event *ev = (union perf_event *)rec;
	char buf[512];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	TEST_ASSERT_VAL("fmemopen", fp);
	ev->header = (struct perf_event_header){ PERF_RECORD_FINISHED_ROUND, 0, 8 };
	perf_event__fprintf_raw(fp, ev, 0x13f8, "cc.data");
	fclose(fp);
	TEST_ASSERT_STR("raw", buf,
			"\n0x13f8@cc.data [0x8]: event: 68\n.\n. ... raw event: size 8 bytes\n"
			".  0000:  44 00 00 00 00 00 08 00                          D.......        \n\n");
	return TEST_OK;
}
