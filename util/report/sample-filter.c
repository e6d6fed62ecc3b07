// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sample filter of script and report: option parsing and matching.
 * See sample-filter.h for the syntax.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/report/sample-filter.h"

#define BITS_PER_LONG_ (8 * sizeof(unsigned long))

/* Append a copy of each comma separated word of @list to @arr. */
static int add_words(char ***arr, size_t *nr, const char *list, const char *what,
		     char *msg, size_t size)
{
	const char *p = list;

	if (!list || !*list) {
		snprintf(msg, size, "empty list in %s", what);
		return -EINVAL;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		char **n;

		if (len) {
			n = realloc(*arr, (*nr + 1) * sizeof(**arr));
			if (!n)
				return -ENOMEM;
			*arr = n;
			n[*nr] = strndup(p, len);
			if (!n[*nr])
				return -ENOMEM;
			(*nr)++;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

static int add_ints(int **arr, size_t *nr, const char *list, const char *what,
		    char *msg, size_t size)
{
	const char *p = list;

	if (!list || !*list) {
		snprintf(msg, size, "empty list in %s", what);
		return -EINVAL;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		char *end;
		long v;
		int *n;

		if (len) {
			errno = 0;
			v = strtol(p, &end, 10);
			if (end != p + len || errno || v > INT_MAX || !isdigit((unsigned char)*p)) {
				snprintf(msg, size, "invalid number '%.*s' in %s", (int)len, p, what);
				return -EINVAL;
			}
			n = realloc(*arr, (*nr + 1) * sizeof(**arr));
			if (!n)
				return -ENOMEM;
			*arr = n;
			n[(*nr)++] = (int)v;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}

int sample_filter__parse_comm(struct sample_filter *f, const char *list, char *msg, size_t size)
{
	return add_words(&f->comms, &f->nr_comms, list, "--comm", msg, size);
}

int sample_filter__parse_pid(struct sample_filter *f, const char *list, char *msg, size_t size)
{
	return add_ints(&f->pids, &f->nr_pids, list, "--pid", msg, size);
}

int sample_filter__parse_tid(struct sample_filter *f, const char *list, char *msg, size_t size)
{
	return add_ints(&f->tids, &f->nr_tids, list, "--tid", msg, size);
}

int sample_filter__parse_dso(struct sample_filter *f, const char *list, char *msg, size_t size)
{
	return add_words(&f->dsos, &f->nr_dsos, list, "--dso", msg, size);
}

int sample_filter__parse_sym(struct sample_filter *f, const char *list, char *msg, size_t size)
{
	return add_words(&f->syms, &f->nr_syms, list, "--symbols", msg, size);
}

/* A CPU number at *p (advanced); -1 when there is none or it is too big. */
static int parse_cpu_nr(const char **p)
{
	long v = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v >= SAMPLE_FILTER_MAX_CPUS)
			return -1;
		(*p)++;
	}
	return (int)v;
}

int sample_filter__parse_cpu(struct sample_filter *f, const char *list, char *msg, size_t size)
{
	const char *p = list;

	if (!list || !*list) {
		snprintf(msg, size, "empty list in --cpu");
		return -EINVAL;
	}
	if (!f->cpus) {
		f->cpus = calloc(SAMPLE_FILTER_MAX_CPUS / BITS_PER_LONG_, sizeof(unsigned long));
		if (!f->cpus)
			return -ENOMEM;
	}
	while (*p) {
		int a = parse_cpu_nr(&p), b = a;

		if (a >= 0 && *p == '-') {
			p++;
			b = parse_cpu_nr(&p);
		}
		if (a < 0 || b < a || (*p && *p != ',')) {
			snprintf(msg, size,
				 "invalid CPU list '%s' in --cpu: use CPU numbers below %d and ranges, e.g. 0-2,4",
				 list, SAMPLE_FILTER_MAX_CPUS);
			return -EINVAL;
		}
		for (int c = a; c <= b; c++)
			f->cpus[c / BITS_PER_LONG_] |= 1UL << (c % BITS_PER_LONG_);
		if (*p == ',')
			p++;
	}
	return 0;
}

static int add_range(struct sample_filter *f, const struct sample_time_range *r)
{
	struct sample_time_range *n = realloc(f->times, (f->nr_times + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	f->times = n;
	n[f->nr_times++] = *r;
	return 0;
}

/* "SEC[.NSEC]" (up to 9 decimals) of [s, e), or empty (0). */
static int parse_seconds(const char *s, const char *e, u64 *out)
{
	u64 sec = 0, ns = 0;
	int digits = 0;

	*out = 0;
	if (s == e)
		return 0;
	for (; s < e && isdigit((unsigned char)*s); s++) {
		if (sec > (UINT64_MAX / 1000000000ULL - 10) / 10)
			return -1;
		sec = sec * 10 + (*s - '0');
		digits++;
	}
	if (!digits)
		return -1;
	if (s < e && *s == '.') {
		for (s++, digits = 0; s < e && isdigit((unsigned char)*s); s++, digits++) {
			if (digits == 9)
				return -1;
			ns = ns * 10 + (*s - '0');
		}
		for (; digits < 9; digits++)
			ns *= 10;
	}
	if (s != e)
		return -1;
	*out = sec * 1000000000ULL + ns;
	return 0;
}

/* One "START,STOP" of [s, e), in seconds (either may be empty). */
static int parse_abs_range(const char *s, const char *e, struct sample_time_range *r)
{
	const char *comma = memchr(s, ',', e - s);

	if (!comma || memchr(comma + 1, ',', e - comma - 1) ||
	    parse_seconds(s, comma, &r->start) || parse_seconds(comma + 1, e, &r->end))
		return -1;
	return r->end && r->start > r->end ? -1 : 0;
}

/* "N%" of [s, e) as a fraction. */
static int parse_percent(const char *s, const char *e, double *out)
{
	char buf[64], *end;

	if (e - s < 2 || e - s >= (long)sizeof(buf) || e[-1] != '%')
		return -1;
	memcpy(buf, s, e - s - 1);
	buf[e - s - 1] = 0;
	if (!isdigit((unsigned char)buf[0]) && buf[0] != '.')
		return -1;
	*out = strtod(buf, &end) / 100.0;
	return *end ? -1 : 0;
}

/* One "A%/N", "A%-B%" or "A%" of [s, e). */
static int parse_percent_range(const char *s, const char *e, struct sample_time_range *r)
{
	const char *slash = memchr(s, '/', e - s), *dash = memchr(s, '-', e - s);
	double pcnt;

	if (slash) {
		char nbuf[16], *end;
		long n;

		if (parse_percent(s, slash, &pcnt) || pcnt <= 0.0 ||
		    e - slash - 1 <= 0 || e - slash - 1 >= (long)sizeof(nbuf))
			return -1;
		memcpy(nbuf, slash + 1, e - slash - 1);
		nbuf[e - slash - 1] = 0;
		n = strtol(nbuf, &end, 10);
		if (*end || !isdigit((unsigned char)nbuf[0]))
			return -1;
		r->pstart = pcnt * (n - 1);
		r->pend = pcnt * n;
	} else if (dash) {
		if (parse_percent(s, dash, &r->pstart) || parse_percent(dash + 1, e, &r->pend))
			return -1;
	} else {
		if (parse_percent(s, e, &r->pend))
			return -1;
		r->pstart = 0.0;
	}
	if (r->pstart < 0.0 || r->pstart > 1.0 || r->pend < 0.0 || r->pend > 1.0)
		return -1;
	return 0;
}

/*
 * The ranges of @str separated by @sep, each parsed by @one: "START,STOP"
 * ones by spaces (runs of spaces allowed), percent ones by commas.
 */
static int parse_ranges(struct sample_filter *f, const char *str, char sep,
			int (*one)(const char *, const char *, struct sample_time_range *))
{
	const char seps[2] = { sep, 0 };
	const char *p = str;
	int err;

	while (*p) {
		const char *e = p + strcspn(p, seps);
		struct sample_time_range r = { 0 };

		if (e == p && sep == ' ') {
			p++;
			continue;
		}
		if (one(p, e, &r))
			return -EINVAL;
		err = add_range(f, &r);
		if (err)
			return err;
		p = *e ? e + 1 : e;
	}
	return f->nr_times ? 0 : -EINVAL;
}

int sample_filter__parse_time(struct sample_filter *f, const char *str, char *msg, size_t size)
{
	int err;

	free(f->times);
	f->times = NULL;
	f->nr_times = 0;
	f->time_percent = str && strchr(str, '%');
	if (!str)
		err = -EINVAL;
	else if (f->time_percent)
		err = parse_ranges(f, str, ',', parse_percent_range);
	else
		err = parse_ranges(f, str, ' ', parse_abs_range);
	if (err == -EINVAL)
		snprintf(msg, size,
			 "invalid time string '%s' in --time: use START,STOP in seconds (either may be empty) or percentages such as 10%%/2 or 0%%-10%%",
			 str ? str : "");
	if (err) {
		free(f->times);
		f->times = NULL;
		f->nr_times = 0;
	}
	return err;
}

static int prepare_percent(struct sample_filter *f, u64 first, u64 last, const char *path,
			   char *msg, size_t size)
{
	double total = (double)(last - first);

	if (!first && !last) {
		snprintf(msg, size,
			 "'%s' has no first and last sample times (SAMPLE_TIME header feature): use --time with seconds, not percentages",
			 path);
		return -EINVAL;
	}
	for (size_t i = 0; i < f->nr_times; i++) {
		struct sample_time_range *r = &f->times[i];

		r->start = (u64)(first + total * r->pstart);
		r->end = (u64)(first + total * r->pend);
		if (r->start > r->end) {	/* perf selects nothing then */
			r->start = UINT64_MAX;
			r->end = UINT64_MAX - 1;
		}
	}
	f->time_percent = false;
	return 0;
}

int sample_filter__prepare(struct sample_filter *f, u64 sample_type_and, u64 first_time,
			   u64 last_time, const char *path, char *msg, size_t size)
{
	if (f->cpus && !(sample_type_and & PERF_SAMPLE_CPU)) {
		snprintf(msg, size,
			 "'%s' has events without the CPU of their samples: --cpu cannot filter them; record with -a or --sample-cpu",
			 path);
		return -EINVAL;
	}
	if (f->nr_times && !(sample_type_and & PERF_SAMPLE_TIME)) {
		snprintf(msg, size,
			 "'%s' has events without sample times: --time cannot filter them; record with -T (--timestamp)",
			 path);
		return -EINVAL;
	}
	if (f->time_percent)
		return prepare_percent(f, first_time, last_time, path, msg, size);
	return 0;
}

bool sample_filter__match_time(const struct sample_filter *f, u64 t)
{
	if (!f->nr_times || f->time_percent)
		return true;
	if (f->nr_times == 1) {
		const struct sample_time_range *r = &f->times[0];

		return !(r->start && t < r->start) && !(r->end && t > r->end);
	}
	for (size_t i = 0; i < f->nr_times; i++) {
		const struct sample_time_range *r = &f->times[i];
		bool last = i == f->nr_times - 1;

		if (t < r->start)
			continue;
		if (!r->end || t < r->end || (last && t == r->end))
			return true;
	}
	return false;
}

static bool has_int(const int *arr, size_t nr, int v)
{
	for (size_t i = 0; i < nr; i++)
		if (arr[i] == v)
			return true;
	return false;
}

static bool has_word(char *const *arr, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(arr[i], s))
			return true;
	return false;
}

bool sample_filter__match(const struct sample_filter *f, const struct perf_sample *s,
			  const char *comm)
{
	if (f->nr_comms && (!comm || !has_word(f->comms, f->nr_comms, comm)))
		return false;
	if (f->nr_pids && !has_int(f->pids, f->nr_pids, (int)s->pid))
		return false;
	if (f->nr_tids && !has_int(f->tids, f->nr_tids, (int)s->tid))
		return false;
	if (f->cpus && (s->cpu >= SAMPLE_FILTER_MAX_CPUS ||
			!(f->cpus[s->cpu / BITS_PER_LONG_] & (1UL << (s->cpu % BITS_PER_LONG_)))))
		return false;
	return sample_filter__match_time(f, s->time);
}

bool sample_filter__match_dso(const struct sample_filter *f, const char *name)
{
	const char *base;

	if (!f->nr_dsos)
		return true;
	if (!name)
		return false;
	if (has_word(f->dsos, f->nr_dsos, name))
		return true;
	base = strrchr(name, '/');
	return base && has_word(f->dsos, f->nr_dsos, base + 1);
}

bool sample_filter__match_sym(const struct sample_filter *f, const char *name, u64 start)
{
	char addr[32];

	if (!f->nr_syms)
		return true;
	if (!name)
		return false;
	if (has_word(f->syms, f->nr_syms, name))
		return true;
	snprintf(addr, sizeof(addr), "0x%" PRIx64, start);
	return has_word(f->syms, f->nr_syms, addr);
}

bool sample_filter__active(const struct sample_filter *f)
{
	return f->nr_comms || f->nr_pids || f->nr_tids || f->cpus || f->nr_times;
}

static void free_words(char **arr, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(arr[i]);
	free(arr);
}

void sample_filter__exit(struct sample_filter *f)
{
	free_words(f->comms, f->nr_comms);
	free_words(f->dsos, f->nr_dsos);
	free_words(f->syms, f->nr_syms);
	free(f->pids);
	free(f->tids);
	free(f->cpus);
	free(f->times);
	memset(f, 0, sizeof(*f));
}
