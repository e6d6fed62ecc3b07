// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf stat: statistics, aggregation and the output layouts, on evsels
 * whose counts are filled in by hand.  The expected lines follow perf
 * 6.1's widths (checked against `perf stat` on a real machine).
 */
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/parse-events.h"
#include "util/event/pmu.h"
#include "util/stat/stat-display.h"
#include "util/stat/stat.h"
#include "util/event/target.h"
#include "util/event/threadmap.h"

TPERF_TEST(stat_welford, "stat: running mean and stddev of the mean (Welford)")
{
	struct stats s;

	init_stats(&s);
	TEST_ASSERT_VAL("no stddev of nothing", stddev_stats(&s) == 0.0);
	update_stats(&s, 100);
	TEST_ASSERT_VAL("one value: no stddev", stddev_stats(&s) == 0.0);
	update_stats(&s, 110);
	update_stats(&s, 90);
	TEST_ASSERT_VAL("mean", avg_stats(&s) == 100.0);
	/* sample variance 100, of the mean 100/3 */
	TEST_ASSERT_VAL("stddev", fabs(stddev_stats(&s) - sqrt(100.0 / 3)) < 1e-9);
	TEST_ASSERT_VAL("relative", fabs(rel_stddev_stats(stddev_stats(&s), 100) - 5.7735) < 1e-4);
	TEST_ASSERT_VAL("relative to 0", rel_stddev_stats(1, 0) == 0.0);
	TEST_ASSERT_EQUAL("max", s.max, 110);
	TEST_ASSERT_EQUAL("min", s.min, 90);
	return TEST_OK;
}

struct fixture {
	struct evlist *evlist;
	struct perf_stat_config config;
	char *buf;
	size_t size;
};

/* An evsel open on CPUs @cpus (NULL: a per-thread event) with one thread. */
static struct evsel *add_evsel(struct fixture *f, uint32_t type, uint64_t config,
			       const char *name, const char *cpus)
{
	struct perf_event_attr attr = { .type = type, .config = config };
	struct evsel *evsel = evsel__new(&attr);

	evsel__set_name(evsel, name);
	evsel->cpus = cpus ? cpu_map__new(cpus) : cpu_map__new_any();
	evsel->threads = thread_map__new_any();
	evsel->counts = calloc(evsel->cpus->nr, sizeof(*evsel->counts));
	evsel->supported = true;
	evlist__add(f->evlist, evsel);
	return evsel;
}

static void set_counts(struct evsel *evsel, int idx, uint64_t val, uint64_t ena, uint64_t run)
{
	evsel->counts[idx] = (struct counts_values){ val, ena, run };
}

static int fixture_init(struct fixture *f, enum aggr_mode mode)
{
	setlocale(LC_NUMERIC, "C");
	f->evlist = evlist__new();
	perf_stat_config__init(&f->config);
	f->config.aggr_mode = mode;
	f->config.output = open_memstream(&f->buf, &f->size);
	return f->evlist && f->config.output ? 0 : -1;
}

/* Aggregate what was set, print, and return the text. */
static const char *fixture_print(struct fixture *f, uint64_t walltime)
{
	struct evsel *evsel;

	perf_stat__init_evlist(&f->config, f->evlist);
	evlist__for_each_entry(f->evlist, evsel) {
		perf_stat__setup_aggr(&f->config, evsel);
		perf_stat__process_counts(&f->config, evsel, false, false);
	}
	update_stats(&f->config.walltime_nsecs_stats, walltime);
	perf_stat__print_counters(&f->config, f->evlist, NULL);
	fflush(f->config.output);
	return f->buf;
}

static void fixture_exit(struct fixture *f)
{
	fclose(f->config.output);
	free(f->buf);
	perf_stat__exit_evlist(f->evlist);
	evlist__delete(f->evlist);
}

TPERF_TEST(stat_std_layout, "stat: std rows, CPUs utilized, rates, not supported")
{
	struct fixture f;
	struct evsel *e;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", NULL);
	set_counts(e, 0, 1234567, 1234567, 1234567);
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", NULL);
	set_counts(e, 0, 49, 1234567, 1234567);
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches",
		      NULL);
	set_counts(e, 0, 0, 1234567, 1234567);
	e = add_evsel(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", NULL);
	e->supported = false;
	out = fixture_print(&f, 2469134);
	TEST_ASSERT_STR("rows", out,
		"              1.23 msec task-clock                       #    0.500 CPUs utilized          \n"
		"                49      page-faults                      #   39.690 K/sec                  \n"
		"                 0      context-switches                 #    0.000 /sec                   \n"
		"   <not supported>      cycles                                                      \n");
	fixture_exit(&f);
	return TEST_OK;
}

TPERF_TEST(stat_csv_json, "stat: CSV and JSON fields in perf's order")
{
	struct fixture f;
	struct evsel *e;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.csv_output = true;
	f.config.csv_sep = ",";
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", NULL);
	set_counts(e, 0, 760725, 760725, 760725);
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", NULL);
	set_counts(e, 0, 49, 760725, 760725);
	e = add_evsel(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", NULL);
	e->supported = false;
	out = fixture_print(&f, 1435330);
	TEST_ASSERT_STR("csv", out,
		"0.76,msec,task-clock,760725,100.00,0.530,CPUs utilized\n"
		"49,,page-faults,760725,100.00,64.412,K/sec\n"
		"<not supported>,,cycles,0,100.00,,\n");
	fixture_exit(&f);

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.json_output = true;
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", NULL);
	set_counts(e, 0, 961902, 961902, 961902);
	e = add_evsel(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", NULL);
	e->supported = false;
	out = fixture_print(&f, 1638072);
	TEST_ASSERT_STR("json", out,
		"{\"counter-value\" : \"0.961902\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		"\"event-runtime\" : 961902, \"pcnt-running\" : 100.00, \"metric-value\" : 0.587216, "
		"\"metric-unit\" : \"CPUs utilized\"}\n"
		"{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\", "
		"\"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, "
		"\"metric-unit\" : \"\"}\n");
	fixture_exit(&f);
	return TEST_OK;
}

TPERF_TEST(stat_json_escape, "stat: JSON strings escaped, whatever the name and unit")
{
	struct fixture f;
	struct evsel *e;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.json_output = true;
	/* names from sysfs or a process may hold anything */
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "a\"b\\c\td\x01\xc3\xa9\xff",
		      NULL);
	e->unit = "J\"";
	set_counts(e, 0, 7, 1000, 1000);
	e = add_evsel(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "x\\\"", NULL);
	e->supported = false;
	out = fixture_print(&f, 1000);
	TEST_ASSERT_STR("json", out,
		"{\"counter-value\" : \"7.000000\", \"unit\" : \"J\\\"\", "
		"\"event\" : \"a\\\"b\\\\c\\td\\u0001\xc3\xa9\\u00ff\", "
		"\"event-runtime\" : 1000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, "
		"\"metric-unit\" : \"\"}\n"
		"{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"x\\\\\\\"\", "
		"\"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, "
		"\"metric-unit\" : \"\"}\n");
	fixture_exit(&f);
	return TEST_OK;
}

/* perf prints the mean of -r runs truncated to a whole count. */
TPERF_TEST(stat_repeat_truncated, "stat: -r mean printed as a whole count, as perf")
{
	uint64_t vals[] = { 48, 49, 49 };
	struct fixture f;
	struct evsel *e;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.run_count = 3;
	f.config.csv_output = true;
	f.config.csv_sep = ",";
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", NULL);
	perf_stat__init_evlist(&f.config, f.evlist);
	perf_stat__setup_aggr(&f.config, e);
	for (int i = 0; i < 3; i++) {
		set_counts(e, 0, vals[i], 1000, 1000);
		perf_stat__process_counts(&f.config, e, false, false);
	}
	perf_stat__print_counters(&f.config, f.evlist, NULL);
	f.config.csv_output = false;
	f.config.csv_sep = " ";
	f.config.json_output = true;
	perf_stat__print_counters(&f.config, f.evlist, NULL);
	fflush(f.config.output);
	out = f.buf;
	TEST_ASSERT_STR("rows", out,
		"48,,page-faults,0.68%,1000,100.00,,\n"
		"{\"counter-value\" : \"48.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", "
		"\"variance\" : 0.68, \"event-runtime\" : 1000, \"pcnt-running\" : 100.00, "
		"\"metric-value\" : 0.000000, \"metric-unit\" : \"\", \"runs\" : 3, "
		"\"mean\" : 48.6666666666667, \"stddev\" : 0.577350269189626, "
		"\"values\" : [48, 49, 49]}\n");
	fixture_exit(&f);
	return TEST_OK;
}

/*
 * -j -r: after perf's keys, what a statistical test needs (stat diff): the
 * runs, the mean not truncated, one run's standard deviation and each
 * run's value, in the unit of counter-value (msec for the clocks); rows
 * never counted and interval rows have only perf's keys.
 */
TPERF_TEST(stat_json_runs, "stat: -j -r adds runs, mean, stddev and values after perf's keys")
{
	uint64_t ns[] = { 1000000, 1500000, 2000000, 2500000 };
	struct timespec ts = { 1, 0 };
	struct evsel *clk, *hw;
	struct fixture f;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.run_count = 4;
	f.config.json_output = true;
	clk = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", NULL);
	hw = add_evsel(&f, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", NULL);
	hw->supported = false;
	perf_stat__init_evlist(&f.config, f.evlist);
	perf_stat__setup_aggr(&f.config, clk);
	perf_stat__setup_aggr(&f.config, hw);
	for (int i = 0; i < 4; i++) {
		set_counts(clk, 0, ns[i], ns[i], ns[i]);
		perf_stat__process_counts(&f.config, clk, false, false);
		perf_stat__process_counts(&f.config, hw, false, false);
		update_stats(&f.config.walltime_nsecs_stats, 5000000);
	}
	perf_stat__print_counters(&f.config, f.evlist, NULL);
	perf_stat__print_counters(&f.config, f.evlist, &ts);
	fflush(f.config.output);
	out = f.buf;
	/* sample variance of 1, 1.5, 2, 2.5 ms: 1.25 / 3 */
	TEST_ASSERT_STR("rows", out,
		"{\"counter-value\" : \"1.750000\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		"\"variance\" : 18.44, \"event-runtime\" : 1750000, \"pcnt-running\" : 100.00, "
		"\"metric-value\" : 0.350000, \"metric-unit\" : \"CPUs utilized\", "
		"\"runs\" : 4, \"mean\" : 1.75, \"stddev\" : 0.645497224367903, "
		"\"values\" : [1, 1.5, 2, 2.5]}\n"
		"{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\", "
		"\"variance\" : 0.00, \"event-runtime\" : 0, \"pcnt-running\" : 100.00, "
		"\"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n"
		"{\"interval\" : 1.000000000, \"counter-value\" : \"1.750000\", \"unit\" : \"msec\", "
		"\"event\" : \"task-clock\", \"variance\" : 18.44, \"event-runtime\" : 1750000, "
		"\"pcnt-running\" : 100.00, \"metric-value\" : 0.350000, "
		"\"metric-unit\" : \"CPUs utilized\"}\n"
		"{\"interval\" : 1.000000000, \"counter-value\" : \"<not supported>\", \"unit\" : \"\", "
		"\"event\" : \"cycles\", \"variance\" : 0.00, \"event-runtime\" : 0, "
		"\"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n");
	TEST_ASSERT_VAL("sample stddev", fabs(sample_stddev_stats(&evsel__stat(clk)->aggr[0].val) -
					      sqrt(1.25e12 / 3)) < 1e-3);
	fixture_exit(&f);
	return TEST_OK;
}

TPERF_TEST(stat_multiplexed, "stat: scaling by enabled/running and its percentage")
{
	struct fixture f;
	struct evsel *e;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", NULL);
	set_counts(e, 0, 1000, 300, 200);
	out = fixture_print(&f, 1000);
	TEST_ASSERT_STR("std", out,
		"              1500      page-faults                                                          (66.67%)\n");
	fixture_exit(&f);

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.csv_output = true;
	f.config.csv_sep = ";";
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", NULL);
	set_counts(e, 0, 1000, 300, 200);
	out = fixture_print(&f, 1000);
	/* perf computes the CSV percentage in integers */
	TEST_ASSERT_STR("csv", out, "1500;;page-faults;200;66.00;;\n");
	fixture_exit(&f);

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.scale = false;
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", NULL);
	set_counts(e, 0, 1000, 300, 200);
	out = fixture_print(&f, 1000);
	TEST_ASSERT_VAL("--no-scale keeps the raw count", !strncmp(out, "              1000 ", 19));
	fixture_exit(&f);
	return TEST_OK;
}

TPERF_TEST(stat_per_cpu, "stat: -A rows per CPU, counter by counter")
{
	struct fixture f;
	struct evsel *e;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_NONE));
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", "0-1");
	set_counts(e, 0, 101750000, 101750000, 101750000);
	set_counts(e, 1, 101770000, 101770000, 101770000);
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches",
		      "0-1");
	set_counts(e, 0, 13, 101750000, 101750000);
	set_counts(e, 1, 0, 101770000, 0);
	out = fixture_print(&f, 101752938);
	TEST_ASSERT_STR("rows", out,
		"CPU0                   101.75 msec task-clock                       #    1.000 CPUs utilized          \n"
		"CPU1                   101.77 msec task-clock                       #    1.000 CPUs utilized          \n"
		"CPU0                       13      context-switches                 #  127.764 /sec                   \n"
		"CPU1            <not counted>      context-switches                                              (0.00%)\n");
	fixture_exit(&f);
	return TEST_OK;
}

TPERF_TEST(stat_per_socket, "stat: --per-socket/--per-core rows from the topology")
{
	struct fixture f;
	struct evsel *e;
	const char *out;
	char *dir = test_mkdtemp();

	TEST_ASSERT_VAL("scratch", dir);
	for (int cpu = 0; cpu < 4; cpu++) {
		char rel[128], val[8];

		snprintf(val, sizeof(val), "%d\n", cpu / 2);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		test_write_file(dir, rel, val);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/die_id", cpu);
		test_write_file(dir, rel, "0\n");
		snprintf(val, sizeof(val), "%d\n", cpu % 2);
		snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/core_id", cpu);
		test_write_file(dir, rel, val);
	}
	setenv("TPERF_SYSFS", dir, 1);
	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_SOCKET));
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", "0-3");
	for (int i = 0; i < 4; i++)
		set_counts(e, i, 10 * (i + 1), 100, 100);
	out = fixture_print(&f, 100);
	TEST_ASSERT_STR("sockets", out,
		"S0        2                 30      page-faults                                                        \n"
		"S1        2                 70      page-faults                                                        \n");
	fixture_exit(&f);

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_CORE));
	f.config.csv_output = true;
	f.config.csv_sep = ",";
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", "0-3");
	for (int i = 0; i < 4; i++)
		set_counts(e, i, 10 * (i + 1), 100, 100);
	out = fixture_print(&f, 100);
	TEST_ASSERT_STR("cores", out,
		"S0-D0-C0,1,10,,page-faults,100,100.00,,\n"
		"S0-D0-C1,1,20,,page-faults,100,100.00,,\n"
		"S1-D0-C0,1,30,,page-faults,100,100.00,,\n"
		"S1-D0-C1,1,40,,page-faults,100,100.00,,\n");
	fixture_exit(&f);
	unsetenv("TPERF_SYSFS");
	return test_rm_rf(dir) ? TEST_FAIL : TEST_OK;
}

TPERF_TEST(stat_repeat, "stat: -r means, ( +- x% ) noise and the elapsed footer")
{
	struct fixture f;
	struct evsel *e;
	const char *out;
	uint64_t vals[] = { 100, 110, 90 }, walls[] = { 1100000, 1200000, 1000000 };

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.run_count = 3;
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults", NULL);
	perf_stat__init_evlist(&f.config, f.evlist);
	perf_stat__setup_aggr(&f.config, e);
	for (int i = 0; i < 3; i++) {
		set_counts(e, 0, vals[i], 1000, 1000);
		perf_stat__process_counts(&f.config, e, false, false);
		update_stats(&f.config.walltime_nsecs_stats, walls[i]);
	}
	perf_stat__print_counters(&f.config, f.evlist, NULL);
	perf_stat__print_footer(&f.config);
	fflush(f.config.output);
	out = f.buf;
	/* elapsed: stddev of the mean 0.0000577 s: precision 5 + 2 */
	TEST_ASSERT_STR("rows", out,
		"               100      page-faults                                                          ( +-  5.77% )\n"
		"\n"
		"         0.0011000 +- 0.0000577 seconds time elapsed  ( +-  5.25% )\n"
		"\n");
	fixture_exit(&f);
	return TEST_OK;
}

TPERF_TEST(stat_interval_joules, "stat: -I rows with timestamps, Joules and Watts")
{
	struct fixture f;
	struct evsel *e;
	const char *out;
	struct timespec ts = { 1, 2345 };

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.interval = 1000;
	e = add_evsel(&f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "power/energy-pkg/", "0");
	e->unit = "Joules";
	e->scale = 2.3283064365386962890625e-10;
	perf_stat__init_evlist(&f.config, f.evlist);
	perf_stat__setup_aggr(&f.config, e);
	set_counts(e, 0, 10ULL << 32, 1000, 1000);
	perf_stat__process_counts(&f.config, e, true, true);
	perf_stat__print_counters(&f.config, f.evlist, &ts);
	set_counts(e, 0, 15ULL << 32, 2000, 2000);
	perf_stat__process_counts(&f.config, e, true, true);
	perf_stat__print_counters(&f.config, f.evlist, &ts);
	fflush(f.config.output);
	out = f.buf;
	TEST_ASSERT_STR("interval rows", out,
		"#           time             counts   unit events\n"
		"     1.000002345              10.00 Joules power/energy-pkg/                #    10.00 W                      \n"
		"     1.000002345               5.00 Joules power/energy-pkg/                #     5.00 W                      \n");
	fixture_exit(&f);
	return TEST_OK;
}

TPERF_TEST(stat_header_footer, "stat: header for each target and the footer")
{
	struct perf_stat_config config;
	struct target t = { 0 };
	const char *argv[] = { "sleep", "1", NULL };
	char *buf = NULL;
	size_t size;

	perf_stat_config__init(&config);
	config.output = open_memstream(&buf, &size);
	perf_stat__print_header(&config, &t, 2, argv);
	t.system_wide = true;
	perf_stat__print_header(&config, &t, 2, argv);
	t.system_wide = false;
	t.pid = "42";
	config.run_count = 2;
	perf_stat__print_header(&config, &t, 0, NULL);
	config.run_count = 1;
	config.ru_display = true;
	config.ru_data.ru_utime.tv_usec = 1500;
	update_stats(&config.walltime_nsecs_stats, 1234567);
	perf_stat__print_footer(&config);
	fclose(config.output);
	TEST_ASSERT_STR("text", buf,
		"\n Performance counter stats for 'sleep 1':\n\n"
		"\n Performance counter stats for 'system wide':\n\n"
		"\n Performance counter stats for process id '42' (2 runs):\n\n"
		"\n       0.001234567 seconds time elapsed\n\n"
		"       0.001500000 seconds user\n"
		"       0.000000000 seconds sys\n\n\n");
	free(buf);
	return TEST_OK;
}

TPERF_TEST(stat_rapl_pmu, "stat: power/energy-pkg/ of a fake PMU prints scaled Joules")
{
	struct parse_events_error err;
	struct fixture f;
	struct evsel *e;
	const char *out;

	setenv("TPERF_SYSFS", test_data_path("sysfs-fake-x86"), 1);
	pmu__reset();
	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	if (parse_events(f.evlist, "power/energy-pkg/", &err)) {
		parse_events_error__exit(&err);
		fixture_exit(&f);
		return test_missing_fixture("no power PMU in the fake sysfs tree");
	}
	e = evlist__first(f.evlist);
	TEST_ASSERT_STR("unit", e->unit, "Joules");
	TEST_ASSERT_VAL("scale", e->scale == 2.3283064365386962890625e-10);
	e->cpus = cpu_map__new("0");
	e->threads = thread_map__new_any();
	e->counts = calloc(1, sizeof(*e->counts));
	e->supported = true;
	set_counts(e, 0, 3ULL << 31, 1000, 1000);
	out = fixture_print(&f, 1000);
	TEST_ASSERT_STR("row", out,
		"              1.50 Joules power/energy-pkg/                                                  \n");
	fixture_exit(&f);
	unsetenv("TPERF_SYSFS");
	pmu__reset();
	return TEST_OK;
}

/* Two PMUs' events of one alias name, as parse-events makes them. */
static void add_alias_pair(struct fixture *f, struct pmu *a, struct pmu *b,
			   const char *cpus_a, const char *cpus_b)
{
	struct evsel *e1 = add_evsel(f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
				     "pfaults", cpus_a);
	struct evsel *e2 = add_evsel(f, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS,
				     "pfaults", cpus_b);

	e1->pmu = a;
	e2->pmu = b;
	e1->auto_merge_stats = e2->auto_merge_stats = true;
	set_counts(e1, 0, 100, 1000, 1000);
	set_counts(e2, 0, 50, 2000, 2000);
}

TPERF_TEST(stat_merge_aliases, "stat: one alias on two PMUs, merged or not (--no-merge)")
{
	struct pmu x0 = { .name = (char *)"uncore_x_0" }, x1 = { .name = (char *)"uncore_x_1" };
	struct fixture f;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.csv_output = true;
	f.config.csv_sep = ",";
	add_alias_pair(&f, &x0, &x1, "0", "0");
	out = fixture_print(&f, 1000);
	TEST_ASSERT_STR("one row: counts and times added", out, "150,,pfaults,3000,100.00,,\n");
	fixture_exit(&f);

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_GLOBAL));
	f.config.csv_output = true;
	f.config.csv_sep = ",";
	f.config.no_merge = true;
	add_alias_pair(&f, &x0, &x1, "0", "0");
	out = fixture_print(&f, 1000);
	TEST_ASSERT_STR("a row per PMU", out,
			"100,,pfaults [uncore_x_0],1000,100.00,,\n"
			"50,,pfaults [uncore_x_1],2000,100.00,,\n");
	fixture_exit(&f);
	return TEST_OK;
}

TPERF_TEST(stat_hybrid_merge, "stat: hybrid PMUs apart, or one row per CPU with --hybrid-merge")
{
	struct pmu core = { .name = (char *)"cpu_core" }, atom = { .name = (char *)"cpu_atom" };
	struct fixture f;
	const char *out;

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_NONE));
	f.config.csv_output = true;
	f.config.csv_sep = ",";
	add_alias_pair(&f, &core, &atom, "0", "1");
	out = fixture_print(&f, 1000);
	TEST_ASSERT_STR("apart", out,
			"CPU0,100,,cpu_core/pfaults/,1000,100.00,,\n"
			"CPU1,50,,cpu_atom/pfaults/,2000,100.00,,\n");
	fixture_exit(&f);

	TEST_ASSERT_VAL("fixture", !fixture_init(&f, AGGR_NONE));
	f.config.csv_output = true;
	f.config.csv_sep = ",";
	f.config.hybrid_merge = true;
	add_alias_pair(&f, &core, &atom, "0", "1");
	out = fixture_print(&f, 1000);
	TEST_ASSERT_STR("merged: each CPU its own count", out,
			"CPU0,100,,pfaults,1000,100.00,,\n"
			"CPU1,50,,pfaults,2000,100.00,,\n");
	fixture_exit(&f);
	return TEST_OK;
}
