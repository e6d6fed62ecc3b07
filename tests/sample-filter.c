// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for the sample filter of script and report (util/report/sample-filter.c). */
#include <errno.h>
#include <stdint.h>

#include "tests/tests.h"
#include "util/report/sample-filter.h"

static bool at(const struct sample_filter *f, u64 t)
{
	return sample_filter__match_time(f, t);
}

TPERF_TEST(sample_filter_time_abs, "sample filter: --time START,STOP forms as perf 6.1 parses them")
{
	struct sample_filter f = { 0 };
	char msg[256];

	TEST_ASSERT_EQUAL("range", sample_filter__parse_time(&f, "10.5,11.000000001", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("start", f.times[0].start, 10500000000ULL);
	TEST_ASSERT_EQUAL("stop", f.times[0].end, 11000000001ULL);
	TEST_ASSERT_VAL("before", !at(&f, 10499999999ULL));
	TEST_ASSERT_VAL("start is in", at(&f, 10500000000ULL));
	TEST_ASSERT_VAL("stop is in", at(&f, 11000000001ULL));
	TEST_ASSERT_VAL("after", !at(&f, 11000000002ULL));
	TEST_ASSERT_EQUAL("open start", sample_filter__parse_time(&f, ",2", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("from the beginning", at(&f, 1) && at(&f, 2000000000ULL) && !at(&f, 2000000001ULL));
	TEST_ASSERT_EQUAL("open stop", sample_filter__parse_time(&f, "3,", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("to the end", !at(&f, 2999999999ULL) && at(&f, UINT64_MAX));
	TEST_ASSERT_EQUAL("two ranges", sample_filter__parse_time(&f, "1,2 3,4", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("two", f.nr_times, 2);
	TEST_ASSERT_VAL("end of a middle range is out", !at(&f, 2000000000ULL));
	TEST_ASSERT_VAL("end of the last range is in", at(&f, 4000000000ULL));
	TEST_ASSERT_VAL("between", !at(&f, 2500000000ULL));
	TEST_ASSERT_EQUAL("no comma", sample_filter__parse_time(&f, "1234", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_STR("message", msg,
			"invalid time string '1234' in --time: use START,STOP in seconds (either may be empty) or percentages such as 10%/2 or 0%-10%");
	TEST_ASSERT_EQUAL("10 decimals", sample_filter__parse_time(&f, "1.1234567891,2", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("reversed", sample_filter__parse_time(&f, "2,1", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("three ends", sample_filter__parse_time(&f, "1,2,3", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("letters", sample_filter__parse_time(&f, "abc", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("a failed parse leaves no range", f.nr_times, 0);
	sample_filter__exit(&f);
	return TEST_OK;
}

TPERF_TEST(sample_filter_time_percent, "sample filter: --time percent slices of the file's time span")
{
	struct sample_filter f = { 0 };
	char msg[256];

	TEST_ASSERT_EQUAL("slice", sample_filter__parse_time(&f, "10%/2", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("not yet prepared: all", at(&f, 5));
	TEST_ASSERT_EQUAL("prepare", sample_filter__prepare(&f, PERF_SAMPLE_TIME, 1000, 2000, "f", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("start", f.times[0].start, 1100);
	TEST_ASSERT_EQUAL("end", f.times[0].end, 1200);
	TEST_ASSERT_VAL("in", at(&f, 1100) && at(&f, 1200) && !at(&f, 1099) && !at(&f, 1201));

	TEST_ASSERT_EQUAL("dash, two", sample_filter__parse_time(&f, "0%-10%,30%-40%", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("prepare", sample_filter__prepare(&f, PERF_SAMPLE_TIME, 1000, 2000, "f", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("first half-open", at(&f, 1000) && at(&f, 1099) && !at(&f, 1100));
	TEST_ASSERT_VAL("last closed", at(&f, 1300) && at(&f, 1400) && !at(&f, 1401));

	TEST_ASSERT_EQUAL("bare percent", sample_filter__parse_time(&f, "5%", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("prepare", sample_filter__prepare(&f, PERF_SAMPLE_TIME, 1000, 2000, "f", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("as 0%-5%", f.times[0].end, 1050);

	TEST_ASSERT_EQUAL("reversed", sample_filter__parse_time(&f, "10%-5%", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("prepare", sample_filter__prepare(&f, PERF_SAMPLE_TIME, 1000, 2000, "f", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("selects nothing", !at(&f, 1000) && !at(&f, 1075) && !at(&f, 2000));

	TEST_ASSERT_EQUAL("past 100%", sample_filter__parse_time(&f, "10%/11", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("junk", sample_filter__parse_time(&f, "10%/1x", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("not a number", sample_filter__parse_time(&f, "x%/1", msg, sizeof(msg)), -EINVAL);

	TEST_ASSERT_EQUAL("again", sample_filter__parse_time(&f, "10%/1", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("no SAMPLE_TIME", sample_filter__prepare(&f, PERF_SAMPLE_TIME, 0, 0, "p.data", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_STR("message", msg,
			"'p.data' has no first and last sample times (SAMPLE_TIME header feature): use --time with seconds, not percentages");
	TEST_ASSERT_EQUAL("no time in samples", sample_filter__prepare(&f, PERF_SAMPLE_IP, 1, 2, "p.data", msg, sizeof(msg)), -EINVAL);
	sample_filter__exit(&f);
	return TEST_OK;
}

TPERF_TEST(sample_filter_lists, "sample filter: --comm, --pid, --tid, --cpu lists")
{
	struct sample_filter f = { 0 };
	struct perf_sample s = { .pid = 10, .tid = 11, .cpu = 3 };
	char msg[256];

	TEST_ASSERT_VAL("empty matches all", sample_filter__match(&f, &s, NULL) && !sample_filter__active(&f));
	TEST_ASSERT_EQUAL("comm", sample_filter__parse_comm(&f, "sh,ls", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("sh", sample_filter__match(&f, &s, "sh"));
	TEST_ASSERT_VAL("bash", !sample_filter__match(&f, &s, "bash"));
	TEST_ASSERT_VAL("no comm", !sample_filter__match(&f, &s, NULL));
	TEST_ASSERT_EQUAL("pid", sample_filter__parse_pid(&f, "9,10", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("pid 10", sample_filter__match(&f, &s, "ls"));
	TEST_ASSERT_EQUAL("tid", sample_filter__parse_tid(&f, "12", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("tid 11 is not 12", !sample_filter__match(&f, &s, "ls"));
	TEST_ASSERT_EQUAL("bad pid", sample_filter__parse_pid(&f, "1,x2", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_STR("message", msg, "invalid number 'x2' in --pid");
	sample_filter__exit(&f);

	TEST_ASSERT_EQUAL("cpu", sample_filter__parse_cpu(&f, "0-2,4", msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("needs CPU", sample_filter__prepare(&f, PERF_SAMPLE_TIME, 0, 0, "c.data", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_STR("message", msg,
			"'c.data' has events without the CPU of their samples: --cpu cannot filter them; record with -a or --sample-cpu");
	TEST_ASSERT_VAL("3 is out", !sample_filter__match(&f, &s, NULL));
	s.cpu = 4;
	TEST_ASSERT_VAL("4 is in", sample_filter__match(&f, &s, NULL));
	s.cpu = 2;
	TEST_ASSERT_VAL("2 is in", sample_filter__match(&f, &s, NULL));
	s.cpu = 5000;
	TEST_ASSERT_VAL("5000 is out", !sample_filter__match(&f, &s, NULL));
	TEST_ASSERT_EQUAL("range down", sample_filter__parse_cpu(&f, "3-1", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_STR("message", msg,
			"invalid CPU list '3-1' in --cpu: use CPU numbers below 4096 and ranges, e.g. 0-2,4");
	TEST_ASSERT_EQUAL("too big", sample_filter__parse_cpu(&f, "4096", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("junk", sample_filter__parse_cpu(&f, "1a", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("empty", sample_filter__parse_cpu(&f, "", msg, sizeof(msg)), -EINVAL);
	sample_filter__exit(&f);
	return TEST_OK;
}

TPERF_TEST(sample_filter_dso_sym, "sample filter: --dso by path or base name, --symbols by name or address")
{
	struct sample_filter f = { 0 };
	char msg[256];

	TEST_ASSERT_VAL("no filter", sample_filter__match_dso(&f, NULL) && sample_filter__match_sym(&f, NULL, 0));
	TEST_ASSERT_EQUAL("dso", sample_filter__parse_dso(&f, "libc.so.6,[kernel.kallsyms]", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("base name", sample_filter__match_dso(&f, "/usr/lib/x86_64-linux-gnu/libc.so.6"));
	TEST_ASSERT_VAL("kernel", sample_filter__match_dso(&f, "[kernel.kallsyms]"));
	TEST_ASSERT_VAL("other", !sample_filter__match_dso(&f, "/usr/bin/dash"));
	TEST_ASSERT_VAL("no map", !sample_filter__match_dso(&f, NULL));
	TEST_ASSERT_EQUAL("path", sample_filter__parse_dso(&f, "/usr/bin/dash", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("whole path", sample_filter__match_dso(&f, "/usr/bin/dash"));
	TEST_ASSERT_EQUAL("sym", sample_filter__parse_sym(&f, "main,0x401000", msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("name", sample_filter__match_sym(&f, "main", 0x1234));
	TEST_ASSERT_VAL("address", sample_filter__match_sym(&f, "foo", 0x401000));
	TEST_ASSERT_VAL("neither", !sample_filter__match_sym(&f, "foo", 0x401001));
	TEST_ASSERT_VAL("unresolved", !sample_filter__match_sym(&f, NULL, 0x401000));
	sample_filter__exit(&f);
	return TEST_OK;
}
