// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * util/stat/metric-expr, metric-table, metricgroup: perf's MetricExpr
 * language (precedence, numbers against names, escapes, literals, if/else,
 * the functions, its errors), the pmu-events JSON reader and the mapfile
 * lookup, and the order perf gives a metric's events.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/stat/metric-expr.h"
#include "util/stat/metric-table.h"

struct vars {
	const char *names[8];
	double vals[8];
};

static int lookup(enum metric_op kind, const char *name, double *val, void *arg)
{
	const struct vars *v = arg;

	if (kind == MOP_LITERAL && !strcmp(name, "#smt_on")) {
		*val = 1;
		return 0;
	}
	for (int i = 0; i < 8 && v->names[i]; i++)
		if (!strcmp(v->names[i], name)) {
			*val = kind == MOP_SOURCE_COUNT ? 4 : v->vals[i];
			return 0;
		}
	return -ENODATA;
}

/* The value of @text with a = 6, b = 3, c = 0, INST.ANY = 10, msr@tsc@ = 20. */
static double value(const char *text)
{
	struct vars v = { { "a", "b", "c", "INST.ANY", "msr@tsc@", "cpu@event=0x3c,umask=0x1@",
			    "x:k" },
			  { 6, 3, 0, 10, 20, 7, 5 } };
	struct metric_expr *e;
	char msg[128];
	double val;

	if (metric_expr__parse(text, &e, msg, sizeof(msg))) {
		fprintf(stderr, "'%s': %s\n", text, msg);
		return -12345;
	}
	if (metric_expr__eval(e, lookup, &v, &val))
		val = -54321;
	metric_expr__delete(e);
	return val;
}

TPERF_TEST(metric_expr_values, "metric expressions: precedence, functions, if/else")
{
	TEST_ASSERT_VAL("1 + 2 * 3", value("1 + 2 * 3") == 7);
	TEST_ASSERT_VAL("(1 + 2) * 3", value("(1 + 2) * 3") == 9);
	TEST_ASSERT_VAL("left to right", value("a - b - 1") == 2);
	TEST_ASSERT_VAL("division", value("a / b / 2") == 1);
	TEST_ASSERT_VAL("unary minus", value("-a * -b") == 18);
	TEST_ASSERT_VAL("modulo of whole parts", value("7.9 % 3") == 1);
	TEST_ASSERT_VAL("exponent", value("2e3 + 1.5e-1") == 2000.15);
	TEST_ASSERT_VAL("comparison", value("a > b") == 1 && value("a < b") == 0);
	TEST_ASSERT_VAL("comparison below +", value("a < b + 4") == 1);
	TEST_ASSERT_VAL("logical", value("a & c") == 0 && value("a | c") == 1 &&
				   value("a ^ b") == 0);
	TEST_ASSERT_VAL("min max", value("min(a, b) + max(a, b)") == 9);
	TEST_ASSERT_VAL("d_ratio by 0", value("d_ratio(a, c)") == 0);
	TEST_ASSERT_VAL("d_ratio", value("d_ratio(a, b)") == 2);
	TEST_ASSERT_VAL("0/0 is NaN", isnan(value("c / c")));
	TEST_ASSERT_VAL("if taken", value("a if b > 1 else c") == 6);
	TEST_ASSERT_VAL("if not taken", value("a if b < 1 else c") == 0);
	TEST_ASSERT_VAL("chained else", value("1 if c else 2 if c else 3") == 3);
	TEST_ASSERT_VAL("if in parens", value("(a if #smt_on else b) * 2") == 12);
	TEST_ASSERT_VAL("dotted name", value("INST.ANY / 2") == 5);
	TEST_ASSERT_VAL("@ name", value("msr@tsc@ / INST.ANY") == 2);
	TEST_ASSERT_VAL("escapes", value("cpu@event\\=0x3c\\,umask\\=0x1@") == 7);
	TEST_ASSERT_VAL("modifier", value("x:k") == 5);
	TEST_ASSERT_VAL("source_count", value("source_count(a)") == 4);
	TEST_ASSERT_VAL("unknown name", value("nosuch + 1") == -54321);
	return TEST_OK;
}

static int parse_error(const char *text, const char *want)
{
	struct metric_expr *e;
	char msg[128];
	int err = metric_expr__parse(text, &e, msg, sizeof(msg));

	if (err != -EINVAL || e || strcmp(msg, want)) {
		fprintf(stderr, "'%s': %d '%s', want '%s'\n", text, err, msg, want);
		return -1;
	}
	return 0;
}

TPERF_TEST(metric_expr_errors, "metric expressions: errors say the column")
{
	char deep[200];

	TEST_ASSERT_VAL("empty", !parse_error("", "column 1: unexpected end of the expression"));
	TEST_ASSERT_VAL("dangling", !parse_error("a +", "column 4: unexpected end of the expression"));
	TEST_ASSERT_VAL("paren", !parse_error("(a", "column 3: ')' expected"));
	TEST_ASSERT_VAL("else", !parse_error("a if b", "column 7: 'else' expected"));
	TEST_ASSERT_VAL("char", !parse_error("a $ b", "column 3: unexpected character '$'"));
	TEST_ASSERT_VAL("trailing", !parse_error("a b", "column 3: unexpected text after the expression"));
	TEST_ASSERT_VAL("min args", !parse_error("min(a)", "column 6: ',' expected"));
	TEST_ASSERT_VAL("literal", !parse_error("# + 1", "column 1: '#' without a name after it"));
	memset(deep, '(', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = '\0';
	TEST_ASSERT_VAL("too deep", !parse_error(deep, "column 65: expression nested too deep"));
	return TEST_OK;
}

TPERF_TEST(metric_expr_ids, "metric expressions: ids once each, in the text's order; event names")
{
	struct metric_expr *e;
	char msg[128], ev[64];

	TEST_ASSERT_EQUAL("parse", metric_expr__parse("b / a + b * 1e3 + #smt_on + 10abc", &e,
						      msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("ids", e->nr_ids, 3);
	TEST_ASSERT_VAL("order", !strcmp(e->ids[0], "b") && !strcmp(e->ids[1], "a") &&
				 !strcmp(e->ids[2], "10abc"));
	metric_expr__delete(e);
	metric_expr__event_name("cstate_pkg@c2-residency@", ev, sizeof(ev));
	TEST_ASSERT_VAL("@ to /", !strcmp(ev, "cstate_pkg/c2-residency/"));
	TEST_ASSERT_EQUAL("runtime ?", metric_expr__parse("x?", &e, msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("? is 0", !strcmp(e->ids[0], "x0"));
	metric_expr__delete(e);
	return TEST_OK;
}

TPERF_TEST(metric_table_json, "metric tables: pmu-events JSON, groups, errors")
{
	const char *json = "[{\"MetricName\": \"M1\", \"MetricExpr\": \"a / b\", "
			   "\"MetricGroup\": \"G1;G2\", \"ScaleUnit\": \"100%\"},"
			   " {\"EventName\": \"a\", \"EventCode\": \"0x3c\"},"
			   " {\"MetricName\": \"m2\", \"MetricExpr\": \"M1 * 2\"}]";
	struct metric_table *t = metric_table__new();
	const struct pmu_metric *m;
	char msg[128];

	TEST_ASSERT_VAL("table", t);
	TEST_ASSERT_EQUAL("read", metric_table__add_json(t, json, strlen(json), msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("metrics only", t->nr, 2);
	m = metric_table__find(t, "m1");
	TEST_ASSERT_VAL("case-insensitive", m && !strcmp(m->name, "M1"));
	TEST_ASSERT_VAL("scale unit", !strcmp(m->scale_unit, "100%"));
	TEST_ASSERT_VAL("groups", pmu_metric__in_group(m, "g2") && !pmu_metric__in_group(m, "G"));
	TEST_ASSERT_VAL("no group", !pmu_metric__in_group(metric_table__find(t, "M2"), "G1"));
	TEST_ASSERT_EQUAL("no expr", metric_table__add_json(t, "[{\"MetricName\": \"x\"}]", 21, msg,
							    sizeof(msg)), -EINVAL);
	TEST_ASSERT_VAL("its message", !strcmp(msg, "entry 0: a metric needs a MetricName and a MetricExpr"));
	TEST_ASSERT_EQUAL("not strings", metric_table__add_json(t, "[{\"MetricName\": 1}]", 19, msg,
								sizeof(msg)), -EINVAL);
	TEST_ASSERT_VAL("its message", !strcmp(msg, "entry 0: a metric's fields must be strings"));
	TEST_ASSERT_EQUAL("not an array", metric_table__add_json(t, "{}", 2, msg, sizeof(msg)), -EINVAL);
	metric_table__delete(t);
	return TEST_OK;
}

TPERF_TEST(metric_table_mapfile, "metric tables: mapfile.csv, PERF_CPUID, TPERF_PMU_EVENTS")
{
	char *dir = test_mkdtemp(), msg[512];
	struct metric_table *t;
	int ok;

	TEST_ASSERT_VAL("tmp", dir);
	TEST_ASSERT_VAL("mapfile", !test_write_file(dir, "x86/mapfile.csv",
		"Family-model,Version,Filename,EventType\n"
		"GenuineIntel-6-55-[01234],v1,skx,core\n"
		"GenuineIntel-6-55-4,v1,other,uncore\n"));
	TEST_ASSERT_VAL("json", !test_write_file(dir, "x86/skx/b.json",
		"[{\"MetricName\": \"B\", \"MetricExpr\": \"x\"}]"));
	TEST_ASSERT_VAL("json", !test_write_file(dir, "x86/skx/a.json",
		"[{\"MetricName\": \"A\", \"MetricExpr\": \"y\"}]"));
	setenv("TPERF_PMU_EVENTS", dir, 1);
	setenv("PERF_CPUID", "GenuineIntel-6-55-4", 1);
	TEST_ASSERT_EQUAL("load", metric_table__load(&t, msg, sizeof(msg)), 0);
	ok = t && t->nr == 2 && !strcmp(t->metrics[0].name, "A") && !strcmp(t->metrics[1].name, "B");
	metric_table__delete(t);
	TEST_ASSERT_VAL("files in name order", ok);
	setenv("PERF_CPUID", "GenuineIntel-6-55-40", 1);
	TEST_ASSERT_EQUAL("no row", metric_table__load(&t, msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("whole match only", !t && strstr(msg, "no metric table for CPUID 'GenuineIntel-6-55-40'"));
	unsetenv("TPERF_PMU_EVENTS");
	TEST_ASSERT_EQUAL("no tree", metric_table__load(&t, msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("says how", !t && strstr(msg, "set TPERF_PMU_EVENTS"));
	unsetenv("PERF_CPUID");
	test_rm_rf(dir);
	return TEST_OK;
}
