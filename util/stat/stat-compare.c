// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics of `tperf stat diff`.  Student's t distribution comes
 * from the regularized incomplete beta function, evaluated by its
 * continued fraction (modified Lentz); the quantile by bisection on the
 * distribution function.  Welch's test needs only each side's number of
 * runs, mean and standard deviation, which stat -j -r writes.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/stat/stat-compare.h"

/*
 * The continued fraction of I_x(a, b):
 *   I_x(a, b) = x^a (1 - x)^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
 * with d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) and
 * d(2m) = m (b - m) x / ((a + 2m - 1)(a + 2m)).  It converges fast for
 * x < (a + 1) / (a + b + 2); the caller uses I_x(a, b) = 1 - I_1-x(b, a)
 * above that.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double num[2] = {
			m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
			-(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
		};

		for (int k = 0; k < 2; k++) {
			d = 1.0 + num[k] * d;
			if (fabs(d) < tiny)
				d = tiny;
			c = 1.0 + num[k] / c;
			if (fabs(c) < tiny)
				c = tiny;
			d = 1.0 / d;
			h *= d * c;
		}
		if (fabs(d * c - 1.0) < eps)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b), a and b > 0. */
static double inc_beta(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

/* P(|T| >= |t|): both tails, without the cancellation of 1 - cdf. */
static double two_tails(double t, double df)
{
	if (isinf(t))
		return 0;
	return inc_beta(df / 2, 0.5, df / (df + t * t));
}

/**
 * student_t__cdf - Student's t distribution function
 * @t: the value
 * @df: the degrees of freedom (> 0)
 *
 * Return: P(T <= @t).
 */
double student_t__cdf(double t, double df)
{
	double tail = two_tails(t, df) / 2;

	return t > 0 ? 1.0 - tail : tail;
}

/**
 * student_t__quantile - the inverse of student_t__cdf()
 * @p: the probability, 0 < @p < 1
 * @df: the degrees of freedom (> 0)
 *
 * Return: t with P(T <= t) = @p (to about 1e-12 relative), NAN for a bad @p.
 */
double student_t__quantile(double p, double df)
{
	double lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -student_t__quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	while (student_t__cdf(hi, df) < p && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (student_t__cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/**
 * paired__test - the paired t-test of b - a
 * @n: the number of pairs, 2 or more
 * @a: the first set's values
 * @b: the second's, b[i] made beside a[i]
 * @w: receives the mean difference, its standard error, t, df (n - 1), p
 *
 * The differences of pairs made side by side do not carry what changed
 * between pairs (the load of a shared machine drifting during a job),
 * which Welch's test of two whole sets counts as spread.
 *
 * Return: 0, or -EINVAL for fewer than 2 pairs.
 */
int paired__test(int n, const double *a, const double *b, struct welch *w)
{
	double mean = 0, m2 = 0;

	if (n < 2)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		double d = b[i] - a[i], delta = d - mean;

		mean += delta / (i + 1);
		m2 += delta * (d - mean);
	}
	w->diff = mean;
	w->se = sqrt(m2 / (n - 1) / n);
	if (!(w->se > 0)) {
		/* every pair differed by the same: certain */
		w->se = 0;
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->df = NAN;
		w->p = w->diff == 0 ? 1 : 0;
		return 0;
	}
	w->df = n - 1;
	w->t = mean / w->se;
	w->p = two_tails(w->t, w->df);
	return 0;
}

/**
 * welch__test - Welch's unequal-variances t-test
 * @na: runs of a (>= 2)
 * @ma: their mean
 * @sa: their standard deviation (n - 1)
 * @nb: runs of b (>= 2)
 * @mb: their mean
 * @sb: their standard deviation
 * @w: the result, for b - a
 *
 * Return: 0, or -EINVAL for fewer than 2 runs or a negative deviation.
 */
int welch__test(int na, double ma, double sa, int nb, double mb, double sb, struct welch *w)
{
	double scale = fmax(fmax(fabs(ma), fabs(mb)), fmax(sa, sb));
	double va, vb, v, ra, rb, diff;

	if (na < 2 || nb < 2 || !(sa >= 0) || !(sb >= 0))
		return -EINVAL;
	w->diff = mb - ma;	/* as given: a 5% threshold is 5%, not 5.000000000000001% */
	/* in units of the largest number: squares neither overflow nor underflow */
	if (scale > 0) {
		ma /= scale, mb /= scale, sa /= scale, sb /= scale;
	} else {
		scale = 1;
	}
	va = sa * sa / na;
	vb = sb * sb / nb;
	v = va + vb;
	diff = mb - ma;
	w->se = sqrt(v) * scale;
	if (!(v > 0)) {
		/* no spread on either side: any difference is certain */
		w->se = 0;
		w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
		w->df = NAN;
		w->p = w->diff == 0 ? 1 : 0;
		return 0;
	}
	/* (va + vb)^2 / (va^2 / (na - 1) + vb^2 / (nb - 1)), in shares of v */
	ra = va / v;
	rb = vb / v;
	w->df = 1.0 / (ra * ra / (na - 1) + rb * rb / (nb - 1));
	w->t = diff / sqrt(v);
	w->p = two_tails(w->t, w->df);
	return 0;
}

/**
 * stat_verdict__name - a verdict as the JSON output names it
 * @v: the verdict
 *
 * Return: "not-significant", "within-threshold", "regression", "improvement".
 */
const char *stat_verdict__name(enum stat_verdict v)
{
	switch (v) {
	case STAT_NOT_SIGNIFICANT:
		return "not-significant";
	case STAT_WITHIN_THRESHOLD:
		return "within-threshold";
	case STAT_REGRESSION:
		return "regression";
	case STAT_IMPROVEMENT:
		return "improvement";
	}
	return "?";
}

__attribute__((format(printf, 3, 4)))
static int fail(char *msg, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (size) {
		va_start(ap, fmt);
		vsnprintf(msg, size, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return true;
	return false;
}

/* Welch, the interval, the change in percent and the verdict of one counter. */
static void compare_row(struct stat_diff_row *r, const struct stat_diff_opts *o)
{
	const struct stat_count *a = r->base, *b = r->new;
	double base = fabs(a->mean), q;
	bool significant, worse, beyond;

	r->paired = o->paired && a->nr_values >= 2 && a->nr_values == b->nr_values;
	if (r->paired)
		paired__test(a->nr_values, a->values, b->values, &r->w);
	else
		welch__test(a->runs, a->mean, a->stddev, b->runs, b->mean, b->stddev, &r->w);
	/* the two-sided interval; a point when neither side has any spread */
	q = r->w.se > 0 ? student_t__quantile(0.5 + o->confidence / 200, r->w.df) : 0;
	r->lo = r->w.diff - q * r->w.se;
	r->hi = r->w.diff + q * r->w.se;
	r->change = base > 0 ? 100 * r->w.diff / base : NAN;
	r->change_lo = base > 0 ? 100 * r->lo / base : NAN;
	r->change_hi = base > 0 ? 100 * r->hi / base : NAN;
	significant = r->lo > 0 || r->hi < 0;
	worse = r->higher_is_better ? r->w.diff < 0 : r->w.diff > 0;
	/* from a mean of 0, any change is beyond every threshold */
	beyond = base > 0 ? fabs(r->change) > o->threshold : r->w.diff != 0;
	if (!significant)
		r->verdict = STAT_NOT_SIGNIFICANT;
	else if (!beyond)
		r->verdict = STAT_WITHIN_THRESHOLD;
	else
		r->verdict = worse ? STAT_REGRESSION : STAT_IMPROVEMENT;
}

/* Checks of one counter of both sets: the runs and the unit. */
static int check_pair(const struct stat_count *a, const struct stat_count *b,
		      const struct stat_diff_opts *o, char *msg, size_t size)
{
	const struct stat_count *c[2] = { a, b };
	const char *name[2] = { o->base_name, o->new_name };
	char buf[256];

	for (int i = 0; i < 2; i++) {
		if (!c[i]->runs)
			return fail(msg, size,
				    "%s: '%s' has no run count (line %d): record it with tperf stat -r N -j, N of 2 or more",
				    name[i], stat_count__name(c[i], buf, sizeof(buf)), c[i]->line);
		if (c[i]->runs < 2)
			return fail(msg, size,
				    "%s: '%s' was counted in 1 run (line %d): a comparison needs -r 2 or more",
				    name[i], stat_count__name(c[i], buf, sizeof(buf)), c[i]->line);
	}
	if (strcmp(a->unit, b->unit))
		return fail(msg, size, "'%s' is in '%s' in %s but in '%s' in %s",
			    stat_count__name(a, buf, sizeof(buf)), a->unit, o->base_name, b->unit,
			    o->new_name);
	return 0;
}

static int check_opts(const struct stat_diff_opts *o, const struct stat_counts *base,
		      const struct stat_counts *new, char *msg, size_t size)
{
	if (!(o->threshold >= 0) || !isfinite(o->threshold))
		return fail(msg, size, "the threshold must be a percentage of 0 or more");
	if (!(o->confidence > 0 && o->confidence < 100))
		return fail(msg, size, "the confidence must be a percentage above 0 and below 100");
	for (const char *const *e = o->higher_is_better; e && *e; e++) {
		bool found = false;

		for (int i = 0; i < base->nr && !found; i++)
			found = !strcmp(base->c[i].event, *e) &&
				stat_counts__find(new, *e, base->c[i].row);
		if (!found)
			return fail(msg, size, "--higher-is-better '%s': no such event in both %s and %s",
				    *e, o->base_name, o->new_name);
	}
	return 0;
}

/* The counters of @a counted there and not in @b, into *@list. */
static int only_in(const struct stat_counts *a, const struct stat_counts *b,
		   const struct stat_count ***list, int *nr)
{
	*list = calloc(a->nr ? a->nr : 1, sizeof(**list));
	if (!*list)
		return -ENOMEM;
	for (int i = 0; i < a->nr; i++) {
		const struct stat_count *other = stat_counts__find(b, a->c[i].event, a->c[i].row);

		if (a->c[i].counted && !(other && other->counted))
			(*list)[(*nr)++] = &a->c[i];
	}
	return 0;
}

/**
 * stat_diff__compute - compare the counters of two sets of runs
 * @d: the result (zeroed first)
 * @base: the counters of the baseline
 * @new: the counters to judge
 * @o: threshold, confidence, higher-is-better events, names for messages
 * @msg: what is wrong
 * @size: its size
 *
 * Return: 0, -EINVAL (@msg says why) or -ENOMEM.
 */
int stat_diff__compute(struct stat_diff *d, const struct stat_counts *base,
		       const struct stat_counts *new, const struct stat_diff_opts *o, char *msg,
		       size_t size)
{
	int err;

	memset(d, 0, sizeof(*d));
	if (size)
		msg[0] = '\0';
	err = check_opts(o, base, new, msg, size);
	if (err)
		return err;
	d->rows = calloc(base->nr ? base->nr : 1, sizeof(*d->rows));
	if (!d->rows)
		goto nomem;
	for (int i = 0; i < base->nr; i++) {
		const struct stat_count *a = &base->c[i];
		const struct stat_count *b = stat_counts__find(new, a->event, a->row);
		struct stat_diff_row *r = &d->rows[d->nr];

		if (!a->counted || !b || !b->counted)
			continue;
		err = check_pair(a, b, o, msg, size);
		if (err)
			goto out;
		r->base = a;
		r->new = b;
		r->higher_is_better = in_list(o->higher_is_better, a->event);
		compare_row(r, o);
		d->nr_regressions += r->verdict == STAT_REGRESSION;
		d->nr_improvements += r->verdict == STAT_IMPROVEMENT;
		d->nr++;
	}
	if (!d->nr) {
		err = fail(msg, size, "no counter was counted in both %s and %s", o->base_name,
			   o->new_name);
		goto out;
	}
	if (only_in(base, new, &d->only_base, &d->nr_only_base) ||
	    only_in(new, base, &d->only_new, &d->nr_only_new))
		goto nomem;
	return 0;
nomem:
	err = -ENOMEM;
	if (size)
		snprintf(msg, size, "out of memory");
out:
	stat_diff__exit(d);
	return err;
}

/**
 * stat_diff__exit - free a comparison
 * @d: from stat_diff__compute() (zeroed)
 */
void stat_diff__exit(struct stat_diff *d)
{
	free(d->rows);
	free(d->only_base);
	free(d->only_new);
	memset(d, 0, sizeof(*d));
}
