/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Comparing two sets of stat runs (`tperf stat diff`, `--compare`):
 * Student's t distribution, Welch's t-test on two means, and per counter
 * the change, its confidence interval and whether it is a regression.
 * No printing: the command prints the rows.
 */
#ifndef TPERF_STAT_COMPARE_H
#define TPERF_STAT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/stat/stat-json.h"

/* P(T <= @t) for Student's t with @df (> 0, not necessarily whole) degrees of freedom. */
double student_t__cdf(double t, double df);
/* The @p quantile (0 < p < 1) of Student's t with @df degrees of freedom. */
double student_t__quantile(double p, double df);

/* Welch's t-test of mean b - mean a; no equal variances assumed. */
struct welch {
	double diff;		/* mean b - mean a */
	double se;		/* its standard error, sqrt(sa^2/na + sb^2/nb) */
	double t;		/* diff / se (+-inf when se is 0 and diff is not) */
	double df;		/* Welch-Satterthwaite degrees of freedom (NAN when se is 0) */
	double p;		/* two-sided p-value */
};

/* Both samples need n >= 2.  0, or -EINVAL. */
int welch__test(int na, double ma, double sa, int nb, double mb, double sb, struct welch *w);
/*
 * The paired t-test of the @n differences b[i] - a[i] (runs made in
 * pairs, side by side in time), in a struct welch: diff their mean, se
 * its standard error, df n - 1.  @n >= 2.  0, or -EINVAL.
 */
int paired__test(int n, const double *a, const double *b, struct welch *w);

enum stat_verdict {
	STAT_NOT_SIGNIFICANT,	/* the interval holds 0: no change shown */
	STAT_WITHIN_THRESHOLD,	/* a change, not larger than the threshold */
	STAT_REGRESSION,	/* worse, and by more than the threshold */
	STAT_IMPROVEMENT,	/* better, by more than the threshold */
};

/* "not-significant", "within-threshold", "regression", "improvement". */
const char *stat_verdict__name(enum stat_verdict v);

struct stat_diff_opts {
	double threshold;		/* percent of the base mean, >= 0 */
	double confidence;		/* percent, two-sided, 0 < c < 100 */
	const char *const *higher_is_better;	/* events where larger is better (NULL-ended) */
	const char *base_name, *new_name;	/* the two sets, for messages */
	bool paired;			/* run i of each set were made together:
					 * the paired test where both have "values" */
};

struct stat_diff_row {
	const struct stat_count *base, *new;
	bool higher_is_better;
	struct welch w;			/* Welch's test, or the paired one (paired) */
	bool paired;
	double lo, hi;			/* the confidence interval of w.diff */
	double change, change_lo, change_hi;	/* the same in percent of the base mean (NAN if 0) */
	enum stat_verdict verdict;
};

struct stat_diff {
	struct stat_diff_row *rows;	/* the counters counted in both, in base's order */
	int nr;
	int nr_regressions, nr_improvements;
	const struct stat_count **only_base, **only_new;	/* counted in one file only */
	int nr_only_base, nr_only_new;
};

/*
 * Compare every counter counted in both @base and @new (same event and
 * row): Welch's t-test, the two-sided @o->confidence interval of the
 * change, and the verdict: a change is shown when the interval excludes 0;
 * it is a regression when it is also worse (larger, unless the event is in
 * @o->higher_is_better) by more than @o->threshold percent of the base
 * mean (any change of a base mean of 0 is).  0; -EINVAL with the reason
 * in @msg (no counter in both, one without "runs" or with fewer than 2,
 * units that differ, a --higher-is-better event in neither, bad options);
 * -ENOMEM.  Free with stat_diff__exit().
 */
int stat_diff__compute(struct stat_diff *d, const struct stat_counts *base,
		       const struct stat_counts *new, const struct stat_diff_opts *o, char *msg,
		       size_t size);
void stat_diff__exit(struct stat_diff *d);

#endif
