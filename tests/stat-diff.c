// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf stat diff's statistics and its reader, on known numbers: Student's
 * t against table values (computed with mpmath to 17 digits), Welch's test
 * on the textbook sample of Wikipedia's "Welch's t-test" (t 2.46, df 25.0,
 * p 0.021), the verdicts of hand-made files and what the reader refuses.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/tests.h"
#include "util/stat/stat-compare.h"
#include "util/stat/stat-json.h"

static bool close_to(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

#define ASSERT_CLOSE(text, got, want, rel)						\
	do {										\
		double __g = (got), __w = (want);					\
		if (!close_to(__g, __w, rel)) {						\
			TEST_FAILED_AT("%s: got %.17g, expected %.17g", text, __g, __w);	\
			return TEST_FAIL;						\
		}									\
	} while (0)

TPERF_TEST(stat_diff_student_t, "stat diff: Student's t distribution and quantiles, as the tables")
{
	static const struct {
		double df, q975, q95;
	} tab[] = {
		{ 1, 12.706204736174705, 6.3137515146750431 },
		{ 2, 4.3026527297494639, 2.9199855803537257 },
		{ 5, 2.5705818356363155, 2.0150483733330242 },
		{ 10, 2.2281388519862747, 1.8124611228116764 },
		{ 30, 2.0422724563012383, 1.6972608865939578 },
		{ 2.5, 3.5746548420036832, 2.5582186141359366 },
		{ 24.9, 2.0599580324598347, 1.7084046110997223 },
		{ 1e6, 1.959966356814107, 1.6448551507220405 },
	};

	/* (lgamma's rounding leaves about 1e-9 at a million degrees of freedom) */
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		ASSERT_CLOSE("0.975 quantile", student_t__quantile(0.975, tab[i].df), tab[i].q975, 1e-8);
		ASSERT_CLOSE("0.95 quantile", student_t__quantile(0.95, tab[i].df), tab[i].q95, 1e-8);
		ASSERT_CLOSE("0.025 quantile", student_t__quantile(0.025, tab[i].df), -tab[i].q975,
			     1e-8);
		ASSERT_CLOSE("cdf of the quantile", student_t__cdf(tab[i].q975, tab[i].df), 0.975,
			     1e-10);
	}
	/* closed forms: df 1 is Cauchy, df 2 is 1/2 + t / (2 sqrt(2 + t^2)) */
	ASSERT_CLOSE("cdf(1, 1)", student_t__cdf(1, 1), 0.75, 1e-14);
	ASSERT_CLOSE("cdf(2, 2)", student_t__cdf(2, 2), 0.5 + 1 / sqrt(6), 1e-14);
	ASSERT_CLOSE("cdf(-3, 4.5)", student_t__cdf(-3, 4.5), 0.017190433944379812, 1e-10);
	ASSERT_CLOSE("cdf(10, 3)", student_t__cdf(10, 3), 0.99893580047079292, 1e-12);
	TEST_ASSERT_VAL("cdf(0)", student_t__cdf(0, 7) == 0.5);
	TEST_ASSERT_VAL("quantile(0.5)", student_t__quantile(0.5, 7) == 0);
	TEST_ASSERT_VAL("quantile(0)", isnan(student_t__quantile(0, 7)));
	TEST_ASSERT_VAL("quantile(1)", isnan(student_t__quantile(1, 7)));
	TEST_ASSERT_VAL("df 0", isnan(student_t__quantile(0.9, 0)));
	return TEST_OK;
}

static void mean_sd(const double *x, int n, double *m, double *s)
{
	double sum = 0, ss = 0;

	for (int i = 0; i < n; i++)
		sum += x[i];
	*m = sum / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - *m) * (x[i] - *m);
	*s = sqrt(ss / (n - 1));
}

TPERF_TEST(stat_diff_welch, "stat diff: Welch's t-test on a textbook sample (t 2.46, df 25.0, p 0.021)")
{
	static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
				     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
				     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	double ma, sa, mb, sb;
	struct welch w;

	mean_sd(a1, 15, &ma, &sa);
	mean_sd(a2, 15, &mb, &sb);
	TEST_ASSERT_EQUAL("test", welch__test(15, ma, sa, 15, mb, sb, &w), 0);
	ASSERT_CLOSE("diff", w.diff, 2.1666666666666667, 1e-12);
	ASSERT_CLOSE("se", w.se, 0.8824245100137553, 1e-12);
	ASSERT_CLOSE("t", w.t, 2.455356398286006, 1e-12);
	ASSERT_CLOSE("df", w.df, 24.988529290231413, 1e-12);
	ASSERT_CLOSE("p", w.p, 0.021378001462866988, 1e-9);
	/* the other way round: t changes sign, nothing else */
	welch__test(15, mb, sb, 15, ma, sa, &w);
	ASSERT_CLOSE("-t", w.t, -2.455356398286006, 1e-12);
	ASSERT_CLOSE("same p", w.p, 0.021378001462866988, 1e-9);
	/* unequal sizes and spreads: n 5 sd 1 against n 20 sd 4 */
	welch__test(5, 100, 1, 20, 106, 4, &w);
	ASSERT_CLOSE("t", w.t, 6.0, 1e-14);
	ASSERT_CLOSE("df", w.df, 22.8915662650602, 1e-12);
	ASSERT_CLOSE("p", w.p, 4.13650631564423e-6, 1e-9);
	/* no spread: a difference is certain, none is none */
	welch__test(3, 10, 0, 3, 11, 0, &w);
	TEST_ASSERT_VAL("certain", w.se == 0 && isinf(w.t) && w.t > 0 && w.p == 0 && isnan(w.df));
	welch__test(3, 10, 0, 3, 10, 0, &w);
	TEST_ASSERT_VAL("same", w.t == 0 && w.p == 1);
	/* scaled, not squared: tiny and huge numbers keep their spread */
	welch__test(5, 100e-200, 1e-200, 20, 106e-200, 4e-200, &w);
	ASSERT_CLOSE("tiny t", w.t, 6.0, 1e-12);
	ASSERT_CLOSE("tiny se", w.se, 1e-200, 1e-12);
	welch__test(5, 100e98, 1e98, 20, 106e98, 4e98, &w);
	ASSERT_CLOSE("huge t", w.t, 6.0, 1e-12);
	ASSERT_CLOSE("huge df", w.df, 22.8915662650602, 1e-12);
	welch__test(3, 0, 0, 3, 0, 0, &w);
	TEST_ASSERT_VAL("zeros", w.diff == 0 && w.se == 0 && w.t == 0 && w.p == 1);
	/* one side without spread: df is the other's n - 1 */
	welch__test(3, 10, 0, 8, 11, 2, &w);
	ASSERT_CLOSE("df", w.df, 7, 1e-14);
	TEST_ASSERT_EQUAL("one run", welch__test(1, 10, 0, 8, 11, 2, &w), -EINVAL);
	TEST_ASSERT_EQUAL("negative sd", welch__test(2, 10, -1, 8, 11, 2, &w), -EINVAL);
	return TEST_OK;
}

/* A file of one counter: "EVENT" in UNIT, RUNS runs, MEAN, SD. */
static int one_counter(struct stat_counts *c, const char *event, const char *unit, int runs,
		       double mean, double sd)
{
	char text[512], msg[128];

	snprintf(text, sizeof(text),
		 "{\"counter-value\" : \"%f\", \"unit\" : \"%s\", \"event\" : \"%s\", "
		 "\"runs\" : %d, \"mean\" : %.17g, \"stddev\" : %.17g}\n",
		 mean, unit, event, runs, mean, sd);
	return stat_counts__parse(c, text, strlen(text), msg, sizeof(msg));
}

/* The verdict of base (10 runs, 100 +- 2) against new (10 runs, MEAN +- SD). */
static int verdict_of(double mean, double sd, double threshold, const char *hib,
		      struct stat_diff_row *row)
{
	const char *list[] = { hib, NULL };
	struct stat_diff_opts o = { .threshold = threshold, .confidence = 95,
				    .higher_is_better = list, .base_name = "a", .new_name = "b" };
	struct stat_counts a, b;
	struct stat_diff d;
	char msg[256];
	int v = -1;

	if (one_counter(&a, "task-clock", "msec", 10, 100, 2) ||
	    one_counter(&b, "task-clock", "msec", 10, mean, sd))
		return -1;
	if (!stat_diff__compute(&d, &a, &b, &o, msg, sizeof(msg)) && d.nr == 1) {
		v = d.rows[0].verdict;
		*row = d.rows[0];
		if ((v == STAT_REGRESSION) != (d.nr_regressions == 1) ||
		    (v == STAT_IMPROVEMENT) != (d.nr_improvements == 1))
			v = -1;
		row->base = row->new = NULL;	/* freed below */
		stat_diff__exit(&d);
	}
	stat_counts__exit(&a);
	stat_counts__exit(&b);
	return v;
}

TPERF_TEST(stat_diff_paired, "stat diff: the paired test sees through drift Welch's counts as spread")
{
	/* runs that drift from 10 to 50, each pair 1 apart give or take 0.5 */
	static const double a[] = { 10, 20, 30, 40, 50 }, b[] = { 11, 21.5, 30.5, 41, 51 };
	struct welch w;
	double ma, sa, mb, sb;

	TEST_ASSERT_EQUAL("test", paired__test(5, a, b, &w), 0);
	ASSERT_CLOSE("diff", w.diff, 1.0, 1e-12);
	ASSERT_CLOSE("se", w.se, 0.15811388300841897, 1e-12);
	ASSERT_CLOSE("t", w.t, 6.324555320336758, 1e-12);
	ASSERT_CLOSE("df", w.df, 4, 0);
	ASSERT_CLOSE("p", w.p, 0.003198202151958214, 1e-9);
	/* Welch's test of the same sets: no difference to see */
	mean_sd(a, 5, &ma, &sa);
	mean_sd(b, 5, &mb, &sb);
	welch__test(5, ma, sa, 5, mb, sb, &w);
	TEST_ASSERT_VAL("welch: not significant", w.p > 0.5);
	/* every pair 2 apart: certain; no pair apart: nothing */
	paired__test(3, (const double[]){ 1, 5, 9 }, (const double[]){ 3, 7, 11 }, &w);
	TEST_ASSERT_VAL("certain", w.se == 0 && isinf(w.t) && w.p == 0 && isnan(w.df));
	paired__test(2, (const double[]){ 1, 5 }, (const double[]){ 1, 5 }, &w);
	TEST_ASSERT_VAL("same", w.t == 0 && w.p == 1);
	TEST_ASSERT_EQUAL("one pair", paired__test(1, a, b, &w), -EINVAL);
	return TEST_OK;
}

TPERF_TEST(stat_diff_verdicts, "stat diff: regression only when significant and beyond the threshold")
{
	struct stat_diff_row r;

	/* +10%, little noise: t 8.77, df 15.68, 95% interval [+7.58%, +12.42%] */
	TEST_ASSERT_EQUAL("+10%", verdict_of(110, 3, 5, NULL, &r), STAT_REGRESSION);
	ASSERT_CLOSE("t", r.w.t, 8.77058019307029, 1e-12);
	ASSERT_CLOSE("df", r.w.df, 15.680412371134, 1e-12);
	ASSERT_CLOSE("p", r.w.p, 1.93119666713496e-7, 1e-9);
	ASSERT_CLOSE("change", r.change, 10, 1e-12);
	ASSERT_CLOSE("low", r.change_lo, 7.57892615158213, 1e-10);
	ASSERT_CLOSE("high", r.change_hi, 12.4210738484179, 1e-10);
	/* +3%, significant (p 0.018, interval [+0.58%, +5.42%]) but within 5% */
	TEST_ASSERT_EQUAL("+3%", verdict_of(103, 3, 5, NULL, &r), STAT_WITHIN_THRESHOLD);
	ASSERT_CLOSE("low", r.change_lo, 0.578926151582127, 1e-9);
	ASSERT_CLOSE("p", r.w.p, 0.0183763936578707, 1e-9);
	/* ... and a regression with a threshold of 2%, or 0 */
	TEST_ASSERT_EQUAL("+3%, 2%", verdict_of(103, 3, 2, NULL, &r), STAT_REGRESSION);
	TEST_ASSERT_EQUAL("+3%, 0%", verdict_of(103, 3, 0, NULL, &r), STAT_REGRESSION);
	/* +10% in a lot of noise: df 9.08, interval [-11.48%, +31.48%], p 0.32 */
	TEST_ASSERT_EQUAL("noise", verdict_of(110, 30, 5, NULL, &r), STAT_NOT_SIGNIFICANT);
	ASSERT_CLOSE("df", r.w.df, 9.0799984197843, 1e-12);
	ASSERT_CLOSE("low", r.change_lo, -11.4794933037158, 1e-10);
	ASSERT_CLOSE("p", r.w.p, 0.32009485895245, 1e-9);
	/* the same sizes the other way: better */
	TEST_ASSERT_EQUAL("-10%", verdict_of(90, 3, 5, NULL, &r), STAT_IMPROVEMENT);
	ASSERT_CLOSE("high", r.change_hi, -7.57892615158213, 1e-10);
	/* an event where larger is better turns them round; another event does not */
	TEST_ASSERT_EQUAL("hib +10%", verdict_of(110, 3, 5, "task-clock", &r), STAT_IMPROVEMENT);
	TEST_ASSERT_VAL("hib flag", r.higher_is_better);
	TEST_ASSERT_EQUAL("hib -10%", verdict_of(90, 3, 5, "task-clock", &r), STAT_REGRESSION);
	/* deterministic counts: any change is significant, none is not */
	TEST_ASSERT_EQUAL("same", verdict_of(100, 0, 5, NULL, &r), STAT_NOT_SIGNIFICANT);
	TEST_ASSERT_EQUAL("+4.9%", verdict_of(104.9, 0, 5, NULL, &r), STAT_WITHIN_THRESHOLD);
	/* the threshold is a strict bound: +5% of 100 is not beyond 5% */
	TEST_ASSERT_EQUAL("+5%", verdict_of(105, 0.5, 5, NULL, &r), STAT_WITHIN_THRESHOLD);
	TEST_ASSERT_EQUAL("+5.1%", verdict_of(105.1, 0.5, 5, NULL, &r), STAT_REGRESSION);
	return TEST_OK;
}

TPERF_TEST(stat_diff_confidence, "stat diff: the interval widens with the confidence asked")
{
	struct stat_diff_opts o = { .threshold = 5, .confidence = 99, .base_name = "a",
				    .new_name = "b" };
	struct stat_counts a, b;
	struct stat_diff d;
	char msg[256];

	TEST_ASSERT_VAL("files", !one_counter(&a, "e", "", 10, 100, 2) &&
				 !one_counter(&b, "e", "", 10, 110, 3));
	TEST_ASSERT_EQUAL("99%", stat_diff__compute(&d, &a, &b, &o, msg, sizeof(msg)), 0);
	ASSERT_CLOSE("low", d.rows[0].change_lo, 6.66080592292267, 1e-10);
	ASSERT_CLOSE("high", d.rows[0].change_hi, 13.3391940770773, 1e-10);
	stat_diff__exit(&d);
	stat_counts__exit(&a);
	stat_counts__exit(&b);
	/* from a mean of 0 there is no percentage; any certain rise is a regression */
	TEST_ASSERT_VAL("files", !one_counter(&a, "e", "", 5, 0, 0) &&
				 !one_counter(&b, "e", "", 5, 2, 0));
	TEST_ASSERT_EQUAL("from 0", stat_diff__compute(&d, &a, &b, &o, msg, sizeof(msg)), 0);
	TEST_ASSERT_VAL("no percent", isnan(d.rows[0].change) && isnan(d.rows[0].change_lo));
	TEST_ASSERT_EQUAL("from 0", d.rows[0].verdict, STAT_REGRESSION);
	stat_diff__exit(&d);
	stat_counts__exit(&a);
	stat_counts__exit(&b);
	return TEST_OK;
}

static int parse(struct stat_counts *c, const char *text, char *msg, size_t size)
{
	return stat_counts__parse(c, text, strlen(text), msg, size);
}

TPERF_TEST(stat_diff_compute_errors, "stat diff: no run count, one run, other units, nothing in common")
{
	static const char base[] =
		"{\"counter-value\" : \"1.5\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		"\"runs\" : 3, \"mean\" : 1.5, \"stddev\" : 0.1}\n"
		"{\"counter-value\" : \"48.000000\", \"unit\" : \"\", \"event\" : \"page-faults\", "
		"\"runs\" : 3, \"mean\" : 48.3, \"stddev\" : 0.5}\n"
		"{\"counter-value\" : \"7\", \"unit\" : \"\", \"event\" : \"only-base\", "
		"\"runs\" : 3, \"mean\" : 7, \"stddev\" : 0}\n"
		"{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\"}\n";
	static const struct {
		const char *new, *hib, *msg;
	} bad[] = {
		{ "{\"counter-value\" : \"1.5\", \"unit\" : \"msec\", \"event\" : \"task-clock\"}",
		  NULL,
		  "new: 'task-clock' has no run count (line 1): record it with tperf stat -r N -j, N of 2 or more" },
		{ "{\"counter-value\" : \"1.5\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		  "\"runs\" : 1, \"mean\" : 1.5, \"stddev\" : 0}",
		  NULL, "new: 'task-clock' was counted in 1 run (line 1): a comparison needs -r 2 or more" },
		{ "{\"counter-value\" : \"1.5\", \"unit\" : \"usec\", \"event\" : \"task-clock\", "
		  "\"runs\" : 2, \"mean\" : 1.5, \"stddev\" : 0}",
		  NULL, "'task-clock' is in 'msec' in base but in 'usec' in new" },
		{ "{\"counter-value\" : \"1\", \"event\" : \"other\", \"runs\" : 2, \"mean\" : 1, \"stddev\" : 0}\n"
		  "{\"counter-value\" : \"<not counted>\", \"event\" : \"task-clock\"}",
		  NULL, "no counter was counted in both base and new" },
		{ "{\"counter-value\" : \"1.5\", \"unit\" : \"msec\", \"event\" : \"task-clock\", "
		  "\"runs\" : 2, \"mean\" : 1.5, \"stddev\" : 0}",
		  "page-faults", "--higher-is-better 'page-faults': no such event in both base and new" },
	};
	struct stat_diff_opts o = { .threshold = 5, .confidence = 95, .base_name = "base",
				    .new_name = "new" };
	struct stat_counts a, b;
	struct stat_diff d;
	char msg[256];

	TEST_ASSERT_EQUAL("base", parse(&a, base, msg, sizeof(msg)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *list[] = { bad[i].hib, NULL };

		o.higher_is_better = list;
		TEST_ASSERT_EQUAL("new", parse(&b, bad[i].new, msg, sizeof(msg)), 0);
		TEST_ASSERT_EQUAL(bad[i].msg, stat_diff__compute(&d, &a, &b, &o, msg, sizeof(msg)),
				  -EINVAL);
		TEST_ASSERT_STR("message", msg, bad[i].msg);
		TEST_ASSERT_VAL("nothing kept", !d.rows && !d.nr);
		stat_counts__exit(&b);
	}
	o.higher_is_better = NULL;
	o.threshold = -1;
	TEST_ASSERT_EQUAL("threshold", stat_diff__compute(&d, &a, &a, &o, msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_STR("threshold", msg, "the threshold must be a percentage of 0 or more");
	o.threshold = 5;
	o.confidence = 100;
	TEST_ASSERT_EQUAL("confidence", stat_diff__compute(&d, &a, &a, &o, msg, sizeof(msg)),
			  -EINVAL);
	TEST_ASSERT_STR("confidence", msg,
			"the confidence must be a percentage above 0 and below 100");
	/* a file against itself: every counted counter, nothing only on one side */
	o.confidence = 95;
	TEST_ASSERT_EQUAL("itself", stat_diff__compute(&d, &a, &a, &o, msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("rows", d.nr, 3);
	TEST_ASSERT_VAL("no change", d.rows[0].verdict == STAT_NOT_SIGNIFICANT &&
				     d.rows[1].verdict == STAT_NOT_SIGNIFICANT &&
				     d.rows[2].verdict == STAT_NOT_SIGNIFICANT && !d.nr_regressions);
	stat_diff__exit(&d);
	/* counters counted on one side are listed, not compared */
	TEST_ASSERT_EQUAL("new", parse(&b, "{\"counter-value\" : \"1.6\", \"unit\" : \"msec\", "
				       "\"event\" : \"task-clock\", \"runs\" : 2, \"mean\" : 1.6, "
				       "\"stddev\" : 0.1}\n{\"counter-value\" : \"9\", \"event\" : "
				       "\"cycles\", \"runs\" : 2, \"mean\" : 9, \"stddev\" : 1}",
				       msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("one side", stat_diff__compute(&d, &a, &b, &o, msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("rows", d.nr, 1);
	TEST_ASSERT_EQUAL("only in base", d.nr_only_base, 2);
	TEST_ASSERT_STR("first", d.only_base[0]->event, "page-faults");
	TEST_ASSERT_STR("second", d.only_base[1]->event, "only-base");
	TEST_ASSERT_EQUAL("only in new", d.nr_only_new, 1);
	TEST_ASSERT_STR("new", d.only_new[0]->event, "cycles");
	stat_diff__exit(&d);
	stat_counts__exit(&b);
	stat_counts__exit(&a);
	return TEST_OK;
}

TPERF_TEST(stat_diff_read, "stat diff: reading stat -j output, -o's header and -A rows")
{
	static const char text[] =
		"# started on Mon Jan  1 00:00:00 2024\n"
		"\n"
		"{\"cpu\" : \"0\", \"counter-value\" : \"2.000000\", \"unit\" : \"msec\", "
		"\"event\" : \"task-clock\", \"variance\" : 1.00, \"event-runtime\" : 2000000, "
		"\"pcnt-running\" : 100.00, \"metric-value\" : 0.5, \"metric-unit\" : \"CPUs utilized\", "
		"\"runs\" : 4, \"mean\" : 2.25, \"stddev\" : 0.5, \"values\" : [2, 2, 2, 3]}\r\n"
		"{\"cpu\" : \"1\", \"counter-value\" : \"<not counted>\", \"unit\" : \"msec\", "
		"\"event\" : \"task-clock\"}\n"
		"  # a comment\n"
		"{\"counter-value\" : 48, \"event\" : \"page-faults\"}";
	const struct stat_count *c;
	struct stat_counts counts;
	char msg[128], name[64];

	TEST_ASSERT_EQUAL("parsed", parse(&counts, text, msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("counters", counts.nr, 3);
	c = stat_counts__find(&counts, "task-clock", "cpu 0");
	TEST_ASSERT_VAL("cpu 0", c && c->counted && c->value == 2 && c->runs == 4 &&
				 c->mean == 2.25 && c->stddev == 0.5 && c->line == 3);
	TEST_ASSERT_STR("unit", c->unit, "msec");
	TEST_ASSERT_STR("name", stat_count__name(c, name, sizeof(name)), "task-clock (cpu 0)");
	c = stat_counts__find(&counts, "task-clock", "cpu 1");
	TEST_ASSERT_VAL("cpu 1", c && !c->counted && c->line == 4);
	c = stat_counts__find(&counts, "page-faults", "");
	TEST_ASSERT_VAL("perf's own", c && c->counted && c->value == 48 && !c->runs && c->line == 6);
	TEST_ASSERT_STR("no unit", c->unit, "");
	TEST_ASSERT_STR("name", stat_count__name(c, name, sizeof(name)), "page-faults");
	TEST_ASSERT_VAL("not there", !stat_counts__find(&counts, "page-faults", "cpu 0"));
	stat_counts__exit(&counts);
	return TEST_OK;
}

TPERF_TEST(stat_diff_read_errors, "stat diff: what the reader refuses, by line")
{
	static const struct {
		const char *text, *msg;
	} bad[] = {
		{ "", "no counter in it (is it the output of tperf stat -j?)" },
		{ "# started on\n\n", "no counter in it (is it the output of tperf stat -j?)" },
		{ "\n task-clock 1.5\n", "line 2, byte 1: unexpected character" },
		{ "[1]", "line 1: not a JSON object" },
		{ "{\"counter-value\" : \"1\"}", "line 1: no \"event\" string" },
		{ "{\"event\" : 1, \"counter-value\" : \"1\"}", "line 1: no \"event\" string" },
		{ "{\"event\" : \"e\"}", "line 1: no \"counter-value\"" },
		{ "{\"event\" : \"e\", \"counter-value\" : null}", "line 1: no \"counter-value\"" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1,5\"}",
		  "line 1: \"counter-value\" is not a number up to 1e100" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"\"}",
		  "line 1: \"counter-value\" is not a number up to 1e100" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"inf\"}",
		  "line 1: \"counter-value\" is not a number up to 1e100" },
		{ "{\"event\" : \"e\", \"counter-value\" : -1e101}",
		  "line 1: \"counter-value\" is not a number up to 1e100" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : 2, \"mean\" : 1e101, \"stddev\" : 0}",
		  "line 1: \"runs\" without a \"mean\" number up to 1e100" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : 2, \"mean\" : 1, \"stddev\" : 2e100}",
		  "line 1: \"runs\" without a \"stddev\" number from 0 to 1e100" },
		{ "{\"event\" : \"e\", \"unit\" : 3, \"counter-value\" : \"1\"}",
		  "line 1: \"unit\" is not a string" },
		{ "{\"event\" : \"e\", \"cpu\" : 0, \"counter-value\" : \"1\"}",
		  "line 1: \"cpu\" is not a string" },
		{ "{\"interval\" : 1.0, \"event\" : \"e\", \"counter-value\" : \"1\"}",
		  "line 1: an interval row (-I): only a run's totals can be compared" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : 0, \"mean\" : 1, \"stddev\" : 0}",
		  "line 1: \"runs\" is not a count from 1 to 1000000" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : 2.5, \"mean\" : 1, \"stddev\" : 0}",
		  "line 1: \"runs\" is not a count from 1 to 1000000" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : \"2\", \"mean\" : 1, \"stddev\" : 0}",
		  "line 1: \"runs\" is not a count from 1 to 1000000" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : 1e7, \"mean\" : 1, \"stddev\" : 0}",
		  "line 1: \"runs\" is not a count from 1 to 1000000" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : 2, \"stddev\" : 0}",
		  "line 1: \"runs\" without a \"mean\" number up to 1e100" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : 2, \"mean\" : 1, \"stddev\" : -1}",
		  "line 1: \"runs\" without a \"stddev\" number from 0 to 1e100" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\", \"runs\" : 2, \"mean\" : 1}",
		  "line 1: \"runs\" without a \"stddev\" number from 0 to 1e100" },
		{ "{\"event\" : \"e\", \"counter-value\" : \"1\"}\n{\"event\" : \"f\", \"counter-value\" : \"1\"}\n"
		  "{\"event\" : \"e\", \"counter-value\" : \"2\"}",
		  "line 3: 'e' again, first on line 1: one stat run per file (no --append)" },
	};
	struct stat_counts counts;
	char msg[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		TEST_ASSERT_EQUAL(bad[i].text, parse(&counts, bad[i].text, msg, sizeof(msg)), -EINVAL);
		TEST_ASSERT_STR(bad[i].text, msg, bad[i].msg);
		TEST_ASSERT_VAL("nothing kept", !counts.c && !counts.nr);
	}
	/* the same counter in two rows is two counters */
	TEST_ASSERT_EQUAL("rows", parse(&counts, "{\"event\" : \"e\", \"cpu\" : \"0\", \"counter-value\" : \"1\"}\n"
					"{\"event\" : \"e\", \"cpu\" : \"1\", \"counter-value\" : \"1\"}",
					msg, sizeof(msg)), 0);
	TEST_ASSERT_EQUAL("two", counts.nr, 2);
	stat_counts__exit(&counts);
	TEST_ASSERT_EQUAL("no file", stat_counts__read(&counts, "/nonexistent/base.json", msg,
						       sizeof(msg)), -ENOENT);
	TEST_ASSERT_STR("no file", msg,
			"cannot read '/nonexistent/base.json': No such file or directory");
	/* named files: regular ones only (/dev/zero would be read for ever) */
	TEST_ASSERT_EQUAL("device", stat_counts__read(&counts, "/dev/zero", msg, sizeof(msg)),
			  -EINVAL);
	TEST_ASSERT_STR("device", msg, "'/dev/zero' is not a regular file");
	TEST_ASSERT_EQUAL("folder", stat_counts__read(&counts, "/", msg, sizeof(msg)), -EINVAL);
	TEST_ASSERT_EQUAL("empty", stat_counts__read(&counts, "/dev/null", msg, sizeof(msg)),
			  -EINVAL);
	TEST_ASSERT_STR("empty", msg,
			"'/dev/null': no counter in it (is it the output of tperf stat -j?)");
	return TEST_OK;
}
