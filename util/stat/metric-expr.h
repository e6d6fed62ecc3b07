/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Metric expressions in the language of perf's pmu-events JSON
 * ("MetricExpr"): numbers (1, 2.5, 1e9, 1e-3), event names with perf's
 * escapes (`msr@tsc@`, `cpu@event\=0x3c\,umask\=0x1@`, INST_RETIRED.ANY:k),
 * names of other metrics, `#smt_on`, `#num_cpus`, `#num_cores`,
 * `#num_dies`, `#num_packages` literals, `duration_time`, `?` (the
 * runtime parameter, 0), + - * / %, unary -, < >, logical | & ^,
 * `A if COND else B`, min(), max(), d_ratio(), source_count().
 *
 * metric_expr__parse() turns a string into a tree; metric_expr__eval()
 * computes it with a callback for every name.
 */
#ifndef TPERF_METRIC_EXPR_H
#define TPERF_METRIC_EXPR_H

#include <stdbool.h>
#include <stddef.h>

enum metric_op {
	MOP_NUM,	/* val */
	MOP_ID,		/* name */
	MOP_LITERAL,	/* name: "#smt_on" ... */
	MOP_SOURCE_COUNT,	/* name */
	MOP_NEG,	/* a */
	MOP_ADD, MOP_SUB, MOP_MUL, MOP_DIV, MOP_MOD,
	MOP_LT, MOP_GT, MOP_OR, MOP_AND, MOP_XOR,
	MOP_MIN, MOP_MAX, MOP_D_RATIO,
	MOP_IF,		/* a if b else c */
};

struct metric_node {
	enum metric_op op;
	double val;
	char *name;		/* MOP_ID, MOP_LITERAL, MOP_SOURCE_COUNT: unescaped */
	struct metric_node *a, *b, *c;
};

struct metric_expr {
	struct metric_node *root;
	char **ids;		/* the distinct names (events and metrics), in order of the text */
	int nr_ids;
};

/*
 * Parse @text into *@res (free with metric_expr__delete()).  0, -EINVAL
 * with "column N: what" in @msg, or -ENOMEM.  At most 64 levels deep and
 * 4096 bytes long.
 */
int metric_expr__parse(const char *text, struct metric_expr **res, char *msg, size_t size);
void metric_expr__delete(struct metric_expr *expr);

/*
 * What a name is worth: the callback returns 0 and sets *@val, or a
 * negative errno (the expression has no value then).  @kind says which
 * kind of name: an id, a `#literal`, or source_count(id).
 */
typedef int (*metric_lookup_fn)(enum metric_op kind, const char *name, double *val, void *arg);

/* Compute @expr.  0 with *@val (NaN for 0/0 as perf), or the lookup's error. */
int metric_expr__eval(const struct metric_expr *expr, metric_lookup_fn lookup, void *arg,
		      double *val);

/*
 * An id as perf writes it into an event string: '@' becomes '/', the
 * escapes' backslashes go ("cstate_pkg@c2\-residency@" was unescaped to
 * "cstate_pkg@c2-residency@" and becomes "cstate_pkg/c2-residency/").
 */
void metric_expr__event_name(const char *id, char *buf, size_t size);

#endif
