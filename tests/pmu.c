// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for util/event/pmu.c on the fake sysfs tree tests/data/sysfs-fake-x86. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/event/cpumap.h"
#include "util/event/pmu.h"

static int use_fake_sysfs(void)
{
	static char dir[4096];

	snprintf(dir, sizeof(dir), "%s", test_data_path("sysfs-fake-x86"));
	setenv("TPERF_SYSFS", dir, 1);
	pmu__reset();
	return pmu__find("cpu") ? 0 : -1;
}

TPERF_TEST(pmu_scan, "pmu: discovery, types, cpumasks, core PMUs")
{
	static const char *const names[] = { "breakpoint", "cpu", "msr", "power", "software",
					     "tracepoint", "uncore_imc_0", "uncore_imc_1" };
	struct pmu *pmu = NULL;
	size_t n = 0;
	char buf[32];

	if (use_fake_sysfs())
		return test_missing_fixture("no fake sysfs tree");
	while ((pmu = pmu__scan(pmu))) {
		TEST_ASSERT_VAL("not too many", n < sizeof(names) / sizeof(names[0]));
		TEST_ASSERT_STR("sorted by name, 'broken' (no type) left out", pmu->name, names[n]);
		n++;
	}
	TEST_ASSERT_EQUAL("PMUs", n, 8);
	pmu = pmu__find("cpu");
	TEST_ASSERT_VAL("cpu is core", pmu->is_core && pmu->type == 4 && !pmu->cpus);
	pmu = pmu__find("power");
	TEST_ASSERT_VAL("power", !pmu->is_core && pmu->type == 20 && pmu->cpus);
	cpu_map__snprint(pmu->cpus, buf, sizeof(buf));
	TEST_ASSERT_STR("power cpumask", buf, "0");
	TEST_ASSERT_VAL("by type", pmu__find_by_type(21) == pmu__find("uncore_imc_0"));
	TEST_ASSERT_VAL("no such type", !pmu__find_by_type(12345));
	TEST_ASSERT_VAL("no such pmu", !pmu__find("nope") && !pmu__find("broken"));
	return TEST_OK;
}

TPERF_TEST(pmu_formats, "pmu: format bit ranges, split ranges, encode and ERANGE")
{
	struct perf_event_attr attr;
	struct pmu *cpu, *imc;
	struct pmu_format *f;
	char buf[256];

	if (use_fake_sysfs())
		return test_missing_fixture("no fake sysfs tree");
	cpu = pmu__find("cpu");
	imc = pmu__find("uncore_imc_0");
	f = pmu__find_format(cpu, "cmask");
	TEST_ASSERT_VAL("cmask", f && f->field == PMU_FORMAT_CONFIG && f->bits == 0xff000000ULL);
	f = pmu__find_format(cpu, "edge");
	TEST_ASSERT_VAL("single bit", f && f->bits == 1ULL << 18);
	f = pmu__find_format(cpu, "ldlat");
	TEST_ASSERT_VAL("config1", f && f->field == PMU_FORMAT_CONFIG1 && f->bits == 0xffff);
	f = pmu__find_format(cpu, "offcore_rsp");
	TEST_ASSERT_VAL("0-63", f && f->bits == ~0ULL);
	f = pmu__find_format(cpu, "fc_mask");
	TEST_ASSERT_VAL("config2", f && f->field == PMU_FORMAT_CONFIG2 && f->bits == 7);
	f = pmu__find_format(imc, "event");
	TEST_ASSERT_VAL("split", f && f->bits == 0xf000000ffULL);
	TEST_ASSERT_VAL("unknown", !pmu__find_format(cpu, "nope"));

	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_EQUAL("event", pmu__format_encode(cpu, "event", 0x3c, &attr), 0);
	TEST_ASSERT_EQUAL("umask", pmu__format_encode(cpu, "umask", 0x81, &attr), 0);
	TEST_ASSERT_EQUAL("cmask", pmu__format_encode(cpu, "cmask", 0xff, &attr), 0);
	TEST_ASSERT_EQUAL("config", attr.config, 0xff00813cULL);
	TEST_ASSERT_EQUAL("re-encode replaces", pmu__format_encode(cpu, "event", 0x1, &attr), 0);
	TEST_ASSERT_EQUAL("config", attr.config, 0xff008101ULL);
	TEST_ASSERT_EQUAL("ldlat", pmu__format_encode(cpu, "ldlat", 0xffff, &attr), 0);
	TEST_ASSERT_EQUAL("config1", attr.config1, 0xffff);
	TEST_ASSERT_EQUAL("too big", pmu__format_encode(cpu, "ldlat", 0x10000, &attr), -ERANGE);
	TEST_ASSERT_EQUAL("bit", pmu__format_encode(cpu, "edge", 2, &attr), -ERANGE);
	TEST_ASSERT_EQUAL("64 bits", pmu__format_encode(cpu, "offcore_rsp", ~0ULL, &attr), 0);
	TEST_ASSERT_EQUAL("unknown", pmu__format_encode(cpu, "nope", 1, &attr), -ENOENT);
	memset(&attr, 0, sizeof(attr));
	TEST_ASSERT_EQUAL("split encode", pmu__format_encode(imc, "event", 0xabc, &attr), 0);
	TEST_ASSERT_EQUAL("split bits", attr.config, 0xa000000bcULL);
	TEST_ASSERT_EQUAL("split max", pmu__format_encode(imc, "event", 0x1000, &attr), -ERANGE);
	pmu__format_list(imc, buf, sizeof(buf));
	TEST_ASSERT_STR("format list", buf, "event,thresh,umask");
	pmu__format_list(cpu, buf, 12);
	TEST_ASSERT_STR("truncated at a name", buf, "any,cmask");
	return TEST_OK;
}

TPERF_TEST(pmu_aliases, "pmu: event aliases with scale, unit, per-pkg, snapshot, desc")
{
	struct pmu_alias *a;
	struct pmu *pmu;

	if (use_fake_sysfs())
		return test_missing_fixture("no fake sysfs tree");
	pmu = pmu__find("power");
	a = pmu__find_alias(pmu, "energy-pkg");
	TEST_ASSERT_VAL("energy-pkg", a);
	TEST_ASSERT_STR("terms", a->terms, "event=0x02");
	TEST_ASSERT_VAL("scale", a->scale == 2.3283064365386962890625e-10);
	TEST_ASSERT_STR("unit", a->unit, "Joules");
	TEST_ASSERT_VAL("case-insensitive", pmu__find_alias(pmu, "ENERGY-PKG") == a);
	a = list_first_entry(&pmu->aliases, struct pmu_alias, node);
	TEST_ASSERT_STR("sorted", a->name, "energy-cores");
	pmu = pmu__find("uncore_imc_0");
	a = pmu__find_alias(pmu, "clockticks");
	TEST_ASSERT_VAL("per-pkg, snapshot", a && a->per_pkg && a->snapshot && a->scale == 1.0);
	TEST_ASSERT_STR("no unit", a->unit, "");
	TEST_ASSERT_VAL("no desc", !a->desc);
	a = pmu__find_alias(pmu__find("cpu"), "topdown-total-slots");
	TEST_ASSERT_STR("desc", a->desc, "Total issue slots");
	TEST_ASSERT_VAL("side files are no aliases",
			!pmu__find_alias(pmu__find("cpu"), "topdown-total-slots.scale"));
	return TEST_OK;
}

TPERF_TEST(pmu_no_sysfs, "pmu: a missing sysfs gives no PMUs, not a crash")
{
	setenv("TPERF_SYSFS", "/nonexistent-tperf", 1);
	pmu__reset();
	TEST_ASSERT_VAL("none", !pmu__scan(NULL) && !pmu__find("cpu"));
	pmu__reset();
	return TEST_OK;
}
