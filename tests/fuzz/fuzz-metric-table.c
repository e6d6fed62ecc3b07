// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for stat -M's metric tables (util/stat/metric-table.c):
 * the input is one pmu-events JSON file.  It is read into a table or
 * refused with a message; every metric read has a name and an expression,
 * can be found by its name, and its expression parses or is refused with a
 * message.  Seeds: tests/fuzz/corpus/metric-table/.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/stat/metric-expr.h"
#include "util/stat/metric-table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct metric_table *t = metric_table__new();
	struct metric_expr *expr;
	char msg[256];
	int err;

	if (!t)
		return 0;
	msg[0] = '\0';
	err = metric_table__add_json(t, (const char *)data, size, msg, sizeof(msg));
	if (err == -EINVAL && !msg[0])
		abort();
	for (int i = 0; !err && i < t->nr; i++) {
		const struct pmu_metric *m = &t->metrics[i];

		if (!m->name || !m->name[0] || !m->expr || !metric_table__find(t, m->name))
			abort();
		if (m->groups)
			pmu_metric__in_group(m, "Summary");
		if (!metric_expr__parse(m->expr, &expr, msg, sizeof(msg)))
			metric_expr__delete(expr);
		else if (!msg[0])
			abort();
	}
	metric_table__delete(t);
	return 0;
}
