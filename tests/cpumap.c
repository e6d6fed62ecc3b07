// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for util/cpumap and util/fs on a fake sysfs tree. */
#include <errno.h>
#include <stdlib.h>

#include "tests/tests.h"
#include "util/event/cpumap.h"
#include "util/lib/fs.h"

TPERF_TEST(cpumap_parse, "cpumap: parse and print CPU lists")
{
	static const struct { const char *in, *out; } ok[] = {
		{ "0", "0" }, { "0-3", "0-3" }, { "3,1,2,0", "0-3" }, { "0-1,5,7-8\n", "0-1,5,7-8" },
		{ "4,4,4", "4" }, { "2-2", "2" },
	};
	static const char *const bad[] = { "a", "1-", "3-1", ",", "1,", "1;2", "-1", "99999" };
	char buf[64];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct cpu_map *m = cpu_map__new(ok[i].in);

		TEST_ASSERT_VAL(ok[i].in, m);
		cpu_map__snprint(m, buf, sizeof(buf));
		TEST_ASSERT_STR(ok[i].in, buf, ok[i].out);
		cpu_map__put(m);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		TEST_ASSERT_VAL(bad[i], !cpu_map__new(bad[i]) && errno == EINVAL);
	}
	return TEST_OK;
}

TPERF_TEST(cpumap_intersect, "cpumap: intersection and index")
{
	struct cpu_map *a = cpu_map__new("0-7"), *b = cpu_map__new("2,4,9"), *c;
	char buf[64];

	c = cpu_map__intersect(a, b);
	cpu_map__snprint(c, buf, sizeof(buf));
	TEST_ASSERT_STR("intersection", buf, "2,4");
	TEST_ASSERT_EQUAL("idx of 4", cpu_map__idx(c, 4), 1);
	TEST_ASSERT_EQUAL("idx of 3", cpu_map__idx(c, 3), -1);
	cpu_map__put(a);
	cpu_map__put(b);
	cpu_map__put(c);
	return TEST_OK;
}

TPERF_TEST(cpumap_fake_sysfs, "cpumap: online CPUs and topology from a fake sysfs")
{
	char *dir = test_mkdtemp(), buf[64];
	struct cpu_map *m;

	if (!dir)
		return TEST_FAIL;
	test_write_file(dir, "devices/system/cpu/online", "0-2,4\n");
	test_write_file(dir, "devices/system/cpu/possible", "0-7\n");
	test_write_file(dir, "devices/system/cpu/cpu4/topology/physical_package_id", "1\n");
	test_write_file(dir, "devices/system/cpu/cpu4/topology/core_id", "3\n");
	setenv("TPERF_SYSFS", dir, 1);
	m = cpu_map__new(NULL);
	TEST_ASSERT_VAL("online map", m);
	cpu_map__snprint(m, buf, sizeof(buf));
	TEST_ASSERT_STR("online", buf, "0-2,4");
	TEST_ASSERT_EQUAL("socket of cpu4", cpu__get_socket_id(4), 1);
	TEST_ASSERT_EQUAL("core of cpu4", cpu__get_core_id(4), 3);
	TEST_ASSERT_EQUAL("unknown topology", cpu__get_socket_id(1), -1);
	TEST_ASSERT_EQUAL("max cpu", cpu__max_cpu(), 8);
	cpu_map__put(m);
	return test_rm_rf(dir) ? TEST_FAIL : TEST_OK;
}
