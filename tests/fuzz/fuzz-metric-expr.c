// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for stat -M's metric expressions (util/stat/metric-expr.c):
 * the input is a MetricExpr.  A parse gives a tree and its ids or an error
 * with a message; an expression that parses is evaluated with every name
 * worth 2 (a literal 1), which must not crash whatever its divisions.
 * Seeds: tests/fuzz/corpus/metric-expr/.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/stat/metric-expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int lookup(enum metric_op kind, const char *name, double *val, void *arg)
{
	(void)arg;
	if (!name || !*name)
		abort();
	*val = kind == MOP_LITERAL ? 1 : 2;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), msg[256], ev[128];
	struct metric_expr *expr;
	double val;
	int err;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err = metric_expr__parse(text, &expr, msg, sizeof(msg));
	if (err) {
		if (expr || (err == -EINVAL && !msg[0]))
			abort();
	} else {
		if (!expr || !expr->root)
			abort();
		if (metric_expr__eval(expr, lookup, NULL, &val))
			abort();
		for (int i = 0; i < expr->nr_ids; i++) {
			if (!expr->ids[i][0])
				abort();
			metric_expr__event_name(expr->ids[i], ev, sizeof(ev));
		}
		metric_expr__delete(expr);
	}
	free(text);
	return 0;
}
