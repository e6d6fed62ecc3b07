// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Name filters: a tree of globs, '!', '&' and '|' (see probe-filter.h).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "util/probe/probe-filter.h"

enum filter_op { F_GLOB, F_NOT, F_AND, F_OR };

struct probe_filter {
	enum filter_op op;
	struct probe_filter *l, *r;	/* F_NOT: l only */
	char *glob;
};

struct filter_parser {
	const char *start, *p;
	int err;
	int factors;	/* at most MAX_FACTORS: bounded recursion and tree */
};

#define MAX_FACTORS 2000

static struct probe_filter *node(struct filter_parser *ps, enum filter_op op,
				 struct probe_filter *l, struct probe_filter *r)
{
	struct probe_filter *n;

	if (!l || (op != F_NOT && !r) || !(n = calloc(1, sizeof(*n)))) {
		if (!ps->err)
			ps->err = -ENOMEM;
		probe_filter__delete(l);
		probe_filter__delete(r);
		return NULL;
	}
	n->op = op;
	n->l = l;
	n->r = r;
	return n;
}

static void skip_spaces(struct filter_parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static struct probe_filter *parse_or(struct filter_parser *ps);

/* GLOB, '!' FACTOR or '(' OR ')'. */
static struct probe_filter *parse_factor(struct filter_parser *ps)
{
	struct probe_filter *n;
	size_t len;

	skip_spaces(ps);
	if (++ps->factors > MAX_FACTORS) {	/* too complex: refused there */
		ps->err = ps->err ?: -EINVAL;
		return NULL;
	}
	if (*ps->p == '!') {
		ps->p++;
		return node(ps, F_NOT, parse_factor(ps), NULL);
	}
	if (*ps->p == '(') {
		ps->p++;
		n = parse_or(ps);
		skip_spaces(ps);
		if (n && *ps->p != ')') {
			ps->err = -EINVAL;
			probe_filter__delete(n);
			return NULL;
		}
		ps->p += n != NULL;
		return n;
	}
	len = strcspn(ps->p, " \t!&|()");
	if (!len) {
		ps->err = ps->err ?: -EINVAL;
		return NULL;
	}
	n = calloc(1, sizeof(*n));
	if (!n || !(n->glob = strndup(ps->p, len))) {
		free(n);
		ps->err = -ENOMEM;
		return NULL;
	}
	n->op = F_GLOB;
	ps->p += len;
	return n;
}

static struct probe_filter *parse_and(struct filter_parser *ps)
{
	struct probe_filter *n = parse_factor(ps);

	for (;;) {
		skip_spaces(ps);
		if (!n || *ps->p != '&')
			return n;
		ps->p++;
		n = node(ps, F_AND, n, parse_factor(ps));
	}
}

static struct probe_filter *parse_or(struct filter_parser *ps)
{
	struct probe_filter *n = parse_and(ps);

	for (;;) {
		skip_spaces(ps);
		if (!n || *ps->p != '|')
			return n;
		ps->p++;
		n = node(ps, F_OR, n, parse_and(ps));
	}
}

int probe_filter__add(struct probe_filter **f, const char *expr, int *errpos)
{
	struct filter_parser ps = { .start = expr, .p = expr };
	struct probe_filter *n = parse_or(&ps);

	skip_spaces(&ps);
	if (n && *ps.p) {	/* "a* m*": a second glob without an operator */
		probe_filter__delete(n);
		n = NULL;
		ps.err = -EINVAL;
	}
	if (!n) {
		*errpos = (int)(ps.p - expr);
		return ps.err ?: -EINVAL;
	}
	if (*f) {
		n = node(&ps, F_OR, *f, n);
		if (!n) {
			*f = NULL;	/* freed with the new part */
			return -ENOMEM;
		}
	}
	*f = n;
	return 0;
}

bool probe_filter__match(const struct probe_filter *f, const char *name)
{
	switch (f->op) {
	case F_GLOB:
		return !fnmatch(f->glob, name, 0);
	case F_NOT:
		return !probe_filter__match(f->l, name);
	case F_AND:
		return probe_filter__match(f->l, name) && probe_filter__match(f->r, name);
	case F_OR:
		return probe_filter__match(f->l, name) || probe_filter__match(f->r, name);
	}
	return false;
}

void probe_filter__delete(struct probe_filter *f)
{
	if (!f)
		return;
	probe_filter__delete(f->l);
	probe_filter__delete(f->r);
	free(f->glob);
	free(f);
}
