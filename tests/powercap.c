// SPDX-License-Identifier: GPL-2.0-or-later
/* RAPL through powercap, on a fake sysfs tree. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/event/powercap.h"

#define Z "class/powercap/"

static char *fake_powercap(void)
{
	char *dir = test_mkdtemp();

	if (!dir)
		return NULL;
	test_write_file(dir, Z "intel-rapl:0/name", "package-0\n");
	test_write_file(dir, Z "intel-rapl:0/energy_uj", "1000\n");
	test_write_file(dir, Z "intel-rapl:0/max_energy_range_uj", "262143328850\n");
	test_write_file(dir, Z "intel-rapl:0:0/name", "core\n");
	test_write_file(dir, Z "intel-rapl:0:0/energy_uj", "500\n");
	test_write_file(dir, Z "intel-rapl:0:0/max_energy_range_uj", "1000\n");
	test_write_file(dir, Z "intel-rapl:1/name", "package-1\n");
	test_write_file(dir, Z "intel-rapl:1/energy_uj", "7\n");
	test_write_file(dir, Z "intel-rapl:1/max_energy_range_uj", "262143328850\n");
	test_write_file(dir, Z "intel-rapl:1:0/name", "dram\n");
	test_write_file(dir, Z "intel-rapl:1:0/energy_uj", "0\n");
	setenv("TPERF_SYSFS", dir, 1);
	return dir;
}

TPERF_TEST(powercap_zones, "powercap: RAPL zones by event name")
{
	char *dir = fake_powercap();
	struct powercap_event *ev;
	const char *names[POWERCAP_NR_EVENTS + 1];

	TEST_ASSERT_VAL("fake tree", dir);
	TEST_ASSERT_VAL("available", powercap__available());
	ev = powercap__find("energy-pkg");
	TEST_ASSERT_VAL("energy-pkg", ev);
	TEST_ASSERT_EQUAL("two packages", powercap_event__nr_zones(ev), 2);
	TEST_ASSERT_EQUAL("package of zone 1", powercap_event__zone_package(ev, 1), 1);
	powercap_event__delete(ev);
	ev = powercap__find("energy-ram");
	TEST_ASSERT_VAL("energy-ram", ev && powercap_event__nr_zones(ev) == 1);
	TEST_ASSERT_EQUAL("dram is in package 1", powercap_event__zone_package(ev, 0), 1);
	powercap_event__delete(ev);
	TEST_ASSERT_VAL("no gpu zone", !powercap__find("energy-gpu"));
	TEST_ASSERT_VAL("not an event", !powercap__find("energy-foo"));
	powercap__event_names(names);
	TEST_ASSERT_STR("first name", names[0], "energy-pkg");
	TEST_ASSERT_STR("second name", names[1], "energy-cores");
	TEST_ASSERT_STR("third name", names[2], "energy-ram");
	TEST_ASSERT_VAL("three names", !names[3]);
	return test_rm_rf(dir) ? TEST_FAIL : TEST_OK;
}

TPERF_TEST(powercap_wrap, "powercap: energy accumulates across wrap-around")
{
	char *dir = fake_powercap();
	struct powercap_event *ev;
	uint64_t uj;

	TEST_ASSERT_VAL("fake tree", dir);
	ev = powercap__find("energy-cores");
	TEST_ASSERT_VAL("energy-cores", ev);
	TEST_ASSERT_EQUAL("start", powercap_event__start(ev), 0);
	test_write_file(dir, Z "intel-rapl:0:0/energy_uj", "900\n");
	TEST_ASSERT_EQUAL("read", powercap_event__read(ev, 0, &uj), 0);
	TEST_ASSERT_EQUAL("400 uJ", uj, 400);
	/* wraps at 1000: 900 -> 1000 -> 0 -> 150 is 250 more */
	test_write_file(dir, Z "intel-rapl:0:0/energy_uj", "150\n");
	TEST_ASSERT_EQUAL("read after wrap", powercap_event__read(ev, 0, &uj), 0);
	TEST_ASSERT_EQUAL("650 uJ", uj, 650);
	TEST_ASSERT_VAL("bad index", powercap_event__read(ev, 1, &uj) < 0);
	powercap_event__delete(ev);
	return test_rm_rf(dir) ? TEST_FAIL : TEST_OK;
}
