// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stat -M: choosing the metrics, forming their events as perf 6.1 does,
 * and computing their values.
 *
 * Order.  perf keeps a metric's events in a hash map (libbpf's: the string
 * hash h = 31 h + c, the top bits of h times 0x9E3779B97F4A7C15 choose a
 * bucket, a new key goes at the head of its bucket, the buckets double
 * from 4 when the map would be more than 3/4 full) and writes them into
 * the event string in the map's order, so its output lists a metric's
 * events in that order.  ids_order() below plays the same insertions and
 * removals on a model of that map to list them the same way (a fact of
 * perf's output, the code is ours).  The metrics are taken in reverse of
 * the order they are asked for, then by their number of events, most
 * first (a stable sort), as perf lists them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/parse-events.h"
#include "util/lib/fs.h"
#include "util/stat/metricgroup.h"

#define MAX_REFS 64

/* A model of the order of perf's id hash map. */
struct idmap {
	char ***buckets;	/* each a NULL-terminated array, head first */
	int *lens;
	int bits, cap, nr;
};

static size_t str_hash(const char *s)
{
	size_t h = 0;

	for (; *s; s++)
		h = h * 31 + *s;
	return h;
}

static size_t hash_bits(size_t h, int bits)
{
	if (!bits)
		return 0;
	return (size_t)((uint64_t)h * 11400714819323198485ull) >> (64 - bits);
}

static int bucket_push(char ***b, int *len, char *key)
{
	char **t = realloc(*b, (*len + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	memmove(t + 1, t, *len * sizeof(*t));
	t[0] = key;
	*b = t;
	(*len)++;
	return 0;
}

static bool idmap__has(const struct idmap *m, const char *key)
{
	if (!m->cap)
		return false;
	size_t b = hash_bits(str_hash(key), m->bits);

	for (int i = 0; i < m->lens[b]; i++)
		if (!strcmp(m->buckets[b][i], key))
			return true;
	return false;
}

static int idmap__grow(struct idmap *m)
{
	int bits = m->bits + 1 < 2 ? 2 : m->bits + 1, cap = 1 << bits;
	char ***nb = calloc(cap, sizeof(*nb));
	int *nl = calloc(cap, sizeof(*nl));
	int err = nb && nl ? 0 : -ENOMEM;

	/* the old buckets in order, each entry to the head of its new bucket */
	for (int b = 0; !err && b < m->cap; b++)
		for (int i = 0; !err && i < m->lens[b]; i++)
			err = bucket_push(&nb[hash_bits(str_hash(m->buckets[b][i]), bits)],
					  &nl[hash_bits(str_hash(m->buckets[b][i]), bits)],
					  m->buckets[b][i]);
	for (int b = 0; b < (err ? cap : m->cap); b++)
		free(err ? (nb ? nb[b] : NULL) : m->buckets[b]);
	if (err) {
		free(nb);
		free(nl);
		return err;	/* @m as it was: the keys are still its own */
	}
	free(m->buckets);
	free(m->lens);
	m->buckets = nb;
	m->lens = nl;
	m->bits = bits;
	m->cap = cap;
	return 0;
}

static int idmap__add(struct idmap *m, const char *key)
{
	size_t b;
	char *k;

	if (idmap__has(m, key))
		return 0;
	if (!m->cap || (m->nr + 1) * 4 / 3 > m->cap) {
		if (idmap__grow(m))
			return -ENOMEM;
	}
	k = strdup(key);
	b = hash_bits(str_hash(key), m->bits);
	if (!k || bucket_push(&m->buckets[b], &m->lens[b], k)) {
		free(k);
		return -ENOMEM;
	}
	m->nr++;
	return 0;
}

static void idmap__del(struct idmap *m, const char *key)
{
	size_t b;

	if (!m->cap)
		return;
	b = hash_bits(str_hash(key), m->bits);
	for (int i = 0; i < m->lens[b]; i++)
		if (!strcmp(m->buckets[b][i], key)) {
			free(m->buckets[b][i]);
			memmove(&m->buckets[b][i], &m->buckets[b][i + 1],
				(m->lens[b] - i - 1) * sizeof(char *));
			m->lens[b]--;
			m->nr--;
			return;
		}
}

/* The keys in the map's order, malloc'ed copies in *@res. */
static int idmap__keys(const struct idmap *m, char ***res, int *nr)
{
	char **keys = calloc(m->nr + 1, sizeof(*keys));
	int n = 0;

	if (!keys)
		return -ENOMEM;
	for (int b = 0; b < m->cap; b++)
		for (int i = 0; i < m->lens[b]; i++) {
			keys[n] = strdup(m->buckets[b][i]);
			if (!keys[n++]) {
				while (n--)
					free(keys[n]);
				free(keys);
				return -ENOMEM;
			}
		}
	*res = keys;
	*nr = n;
	return 0;
}

static void idmap__exit(struct idmap *m)
{
	for (int b = 0; b < m->cap; b++) {
		for (int i = 0; i < m->lens[b]; i++)
			free(m->buckets[b][i]);
		free(m->buckets[b]);
	}
	free(m->buckets);
	free(m->lens);
}

/**
 * metric__literal - perf's `#` literals from the CPU topology
 * @name: "#smt_on", "#num_cpus", "#num_cores", "#num_dies", "#num_packages"
 *        (any case)
 * @val: receives the value
 *
 * Return: 0 or -ENOENT (an unknown literal).
 */
int metric__literal(const char *name, double *val)
{
	int cores = 0, dies = 0, packages = 0;
	struct cpu_map *cpus = cpu_map__new_online();
	int (*keys)[3];

	if (!cpus)
		return -ENOMEM;
	keys = calloc(cpus->nr ?: 1, sizeof(*keys));
	if (!keys) {
		cpu_map__put(cpus);
		return -ENOMEM;
	}
	for (int i = 0; i < cpus->nr; i++) {
		int s = cpu__get_socket_id(cpus->map[i]), d = cpu__get_die_id(cpus->map[i]);
		int c = cpu__get_core_id(cpus->map[i]);
		bool new_core = true, new_die = true, new_pkg = true;

		for (int j = 0; j < i; j++) {
			if (keys[j][0] == s)
				new_pkg = false;
			if (keys[j][0] == s && keys[j][1] == d)
				new_die = false;
			if (keys[j][0] == s && keys[j][1] == d && keys[j][2] == c)
				new_core = false;
		}
		keys[i][0] = s;
		keys[i][1] = d;
		keys[i][2] = c;
		cores += new_core;
		dies += new_die;
		packages += new_pkg;
	}
	free(keys);
	if (!strcasecmp(name, "#num_cpus"))
		*val = cpus->nr;
	else if (!strcasecmp(name, "#num_cores"))
		*val = cores;
	else if (!strcasecmp(name, "#num_dies"))
		*val = dies;
	else if (!strcasecmp(name, "#num_packages"))
		*val = packages;
	else if (!strcasecmp(name, "#smt_on"))
		*val = cores < cpus->nr;
	else {
		cpu_map__put(cpus);
		return -ENOENT;
	}
	cpu_map__put(cpus);
	return 0;
}

/* A constant condition (numbers and literals only): 0 with its value. */
static int const_value(const struct metric_node *n, double *val);

static int const_lookup(enum metric_op kind, const char *name, double *val, void *arg)
{
	(void)arg;
	return kind == MOP_LITERAL ? metric__literal(name, val) : -ENODATA;
}

static int const_value(const struct metric_node *n, double *val)
{
	struct metric_expr e = { .root = (struct metric_node *)n };

	return metric_expr__eval(&e, const_lookup, NULL, val);
}

/*
 * The ids of @n in the order of the text, into @m; the branch of an `if`
 * whose condition is a constant is the only one kept, as perf keeps it.
 */
static int collect_ids(const struct metric_node *n, struct idmap *m)
{
	double cond;
	int err = 0;

	if (!n)
		return 0;
	if (n->op == MOP_ID || n->op == MOP_SOURCE_COUNT)
		return idmap__add(m, n->name);
	if (n->op == MOP_IF && !const_value(n->b, &cond))
		return collect_ids(cond != 0 ? n->a : n->c, m);
	err = collect_ids(n->a, m);
	if (!err)
		err = collect_ids(n->b, m);
	if (!err)
		err = collect_ids(n->c, m);
	return err;
}

static int parse_expr(const struct pmu_metric *pm, struct metric_expr **expr, char *msg,
		      size_t size)
{
	char emsg[256];
	int err = metric_expr__parse(pm->expr, expr, emsg, sizeof(emsg));

	if (err == -EINVAL)
		snprintf(msg, size, "cannot parse the expression of metric '%s': %s", pm->name,
			 emsg);
	else if (err)
		snprintf(msg, size, "out of memory");
	return err;
}

/*
 * The events of @m: its expression's ids, each reference to another
 * metric replaced by that metric's ids (kept in m->refs to compute it).
 */
static int resolve(struct metric *m, const struct metric_table *table, char *msg, size_t size)
{
	struct idmap map = { NULL };
	int err, nr;
	char **keys;

	err = parse_expr(m->pm, &m->expr, msg, size);
	if (err)
		return err;
	err = collect_ids(m->expr->root, &map);
	for (bool more = true; !err && more;) {
		more = false;
		err = idmap__keys(&map, &keys, &nr);
		for (int i = 0; !err && i < nr; i++) {
			const struct pmu_metric *ref = metric_table__find(table, keys[i]);
			struct metric_ref *t;

			if (!ref || !strcmp(keys[i], "duration_time"))
				continue;
			if (ref == m->pm || m->nr_refs >= MAX_REFS) {
				snprintf(msg, size, "metric '%s' refers to itself through '%s'",
					 m->pm->name, ref->name);
				err = -EINVAL;
				break;
			}
			for (int r = 0; r < m->nr_refs; r++)
				if (!strcasecmp(m->refs[r].name, ref->name)) {
					snprintf(msg, size,
						 "metric '%s' refers to itself through '%s'",
						 m->pm->name, ref->name);
					err = -EINVAL;
				}
			if (err)
				break;
			t = realloc(m->refs, (m->nr_refs + 1) * sizeof(*t));
			if (!t) {
				err = -ENOMEM;
				break;
			}
			m->refs = t;
			t[m->nr_refs].name = ref->name;
			err = parse_expr(ref, &t[m->nr_refs].expr, msg, size);
			if (err)
				break;
			m->nr_refs++;
			err = collect_ids(t[m->nr_refs - 1].expr->root, &map);
			idmap__del(&map, keys[i]);
			more = true;
		}
		for (int i = 0; i < nr; i++)
			free(keys[i]);
		free(keys);
	}
	if (!err)
		err = idmap__keys(&map, &m->ids, &m->nr_ids);
	idmap__exit(&map);
	if (err == -ENOMEM)
		snprintf(msg, size, "out of memory");
	for (int i = 0; !err && i < m->nr_ids; i++)
		if (!strcmp(m->ids[i], "duration_time"))
			m->has_duration = true;
	return err;
}

/* ScaleUnit "100%": factor 100, unit "%". */
static void parse_scale_unit(struct metric *m)
{
	const char *su = m->pm->scale_unit;
	char *end;

	m->scale = 1.0;
	m->unit[0] = '\0';
	if (!su)
		return;
	m->scale = strtod(su, &end);
	if (end == su)
		m->scale = 1.0;
	while (*end == ' ')
		end++;
	snprintf(m->unit, sizeof(m->unit), "%s", end);
}

static bool no_group_constraint(const struct pmu_metric *pm)
{
	int watchdog = 0;
	double smt = 0;

	if (!pm->constraint)
		return false;
	if (!strcmp(pm->constraint, "NO_GROUP_EVENTS"))
		return true;
	if (!strcmp(pm->constraint, "NO_GROUP_EVENTS_NMI"))
		return !procfs__read_int("sys/kernel/nmi_watchdog", &watchdog) && watchdog;
	if (!strcmp(pm->constraint, "NO_GROUP_EVENTS_SMT"))
		return !metric__literal("#smt_on", &smt) && smt;
	return false;
}

static int nr_events(const struct metric *m)
{
	return m->nr_ids - m->has_duration;
}

/* Every id of @a is one of @b. */
static bool ids_subset(const struct metric *a, const struct metric *b)
{
	for (int i = 0; i < a->nr_ids; i++) {
		bool found = false;

		for (int j = 0; j < b->nr_ids && !found; j++)
			found = !strcmp(a->ids[i], b->ids[j]);
		if (!found)
			return false;
	}
	return true;
}

/*
 * Parse the events of @ids (duration_time is none) into @evlist as one
 * string, a weak group when @group, and give each id its event in
 * @evsels; the string in *@events.  @what names them in messages.
 */
static int add_events(const char *what, char **ids, int nr_ids, bool group,
		      struct evlist *evlist, struct evsel **evsels, char **events, char *msg,
		      size_t size)
{
	size_t len = 4, off = 0;
	struct parse_events_error perr;
	int start = evlist->nr_entries, n = 0, k = 0;
	struct evsel *evsel;
	char *str;

	for (int i = 0; i < nr_ids; i++)
		len += strlen(ids[i]) + 1;
	str = *events = malloc(len);
	if (!str) {
		snprintf(msg, size, "out of memory");
		return -ENOMEM;
	}
	if (group)
		str[off++] = '{';
	for (int i = 0; i < nr_ids; i++) {
		if (!strcmp(ids[i], "duration_time"))
			continue;
		if (n++)
			str[off++] = ',';
		metric_expr__event_name(ids[i], str + off, len - off);
		off += strlen(str + off);
	}
	if (group)
		off += snprintf(str + off, len - off, "}:W");
	str[off] = '\0';
	if (!n) {
		str[0] = '\0';
		return 0;
	}
	if (parse_events(evlist, str, &perr)) {
		snprintf(msg, size, "%s: cannot parse the events '%s': %s", what, str,
			 perr.msg ? perr.msg : "bad event");
		parse_events_error__exit(&perr);
		return -EINVAL;
	}
	parse_events__end_option(evlist);
	if (evlist->nr_entries - start != n) {
		snprintf(msg, size, "%s: the events '%s' are %d events, not %d", what, str,
			 evlist->nr_entries - start, n);
		return -EINVAL;
	}
	evlist__for_each_entry(evlist, evsel) {
		if (evsel->idx < start)
			continue;
		while (k < nr_ids && !strcmp(ids[k], "duration_time"))
			k++;
		if (k >= nr_ids)
			break;
		evsels[k++] = evsel;
	}
	return 0;
}

/* Give each id of @m the event of the same id in @ids/@evsels. */
static void match_events(struct metric *m, char **ids, int nr_ids, struct evsel **evsels)
{
	for (int i = 0; i < m->nr_ids; i++)
		for (int k = 0; k < nr_ids; k++)
			if (!strcmp(m->ids[i], ids[k]))
				m->evsels[i] = evsels[k];
}

/*
 * The metrics without a group (--metric-no-group, NO_GROUP_EVENTS) count
 * one set of events together, each id once, as perf forms it.
 */
static int form_ungrouped(struct metric_list *list, struct evlist *evlist, char *msg,
			  size_t size)
{
	struct idmap map = { NULL };
	struct evsel **evsels = NULL;
	char **ids = NULL;
	int err = 0, nr = 0;

	for (int i = 0; i < list->nr && !err; i++)
		for (int k = 0; !list->metrics[i].group && k < list->metrics[i].nr_ids && !err; k++)
			err = idmap__add(&map, list->metrics[i].ids[k]);
	if (!err)
		err = idmap__keys(&map, &ids, &nr);
	idmap__exit(&map);
	if (!err && nr) {
		evsels = calloc(nr, sizeof(*evsels));
		err = evsels ? add_events("the metrics' events", ids, nr, false, evlist, evsels,
					  &list->ungrouped_events, msg, size) : -ENOMEM;
	}
	for (int i = 0; i < list->nr && !err; i++)
		if (!list->metrics[i].group)
			match_events(&list->metrics[i], ids, nr, evsels);
	if (err == -ENOMEM)
		snprintf(msg, size, "out of memory");
	for (int i = 0; i < nr; i++)
		free(ids[i]);
	free(ids);
	free(evsels);
	return err;
}

/* Share the events of an earlier metric's group, or parse a new group. */
static int form_events(struct metric_list *list, int idx, bool no_merge, struct evlist *evlist,
		       char *msg, size_t size)
{
	struct metric *m = &list->metrics[idx];
	char what[160];

	for (int j = 0; !no_merge && j < idx; j++) {
		const struct metric *n = &list->metrics[j];

		if (n->shares || !n->group || !ids_subset(m, n))
			continue;
		m->shares = n;
		match_events(m, n->ids, n->nr_ids, n->evsels);
		return 0;
	}
	snprintf(what, sizeof(what), "metric '%s'", m->pm->name);
	return add_events(what, m->ids, m->nr_ids, true, evlist, m->evsels, &m->events, msg,
			  size);
}

static const char *const literal_names[] = {
	"#smt_on", "#num_cpus", "#num_cores", "#num_dies", "#num_packages",
};

/* The literals read once for the whole list. */
static void read_literals(struct metric_list *list)
{
	for (int i = 0; i < 5 && !list->literals_err; i++)
		list->literals_err = metric__literal(literal_names[i], &list->literals[i]);
}

static int list_literal(const struct metric_list *list, const char *name, double *val)
{
	for (int i = 0; i < 5; i++)
		if (!strcasecmp(name, literal_names[i])) {
			*val = list->literals[i];
			return list->literals_err;
		}
	return -ENOENT;
}

/* Append the metrics of one name (table order); -ENOENT when none. */
static int select_name(struct metric_list *list, const char *name)
{
	const struct metric_table *t = list->table;
	int found = 0;

	for (int i = 0; i < t->nr; i++) {
		const struct pmu_metric *pm = &t->metrics[i];
		struct metric *ms;

		if (strcasecmp(name, "all") && strcasecmp(pm->name, name) &&
		    !pmu_metric__in_group(pm, name))
			continue;
		ms = realloc(list->metrics, (list->nr + 1) * sizeof(*ms));
		if (!ms)
			return -ENOMEM;
		list->metrics = ms;
		memset(&ms[list->nr], 0, sizeof(*ms));
		ms[list->nr++].pm = pm;
		found++;
	}
	return found ? 0 : -ENOENT;
}

/**
 * metricgroup__parse - the metrics of -M and their events
 * @list: receives the metrics (free with metricgroup__exit())
 * @table: the metric table (kept by @list, freed with it)
 * @names: metric or group names, comma-separated
 * @no_group: --metric-no-group: no weak groups
 * @no_merge: --metric-no-merge: no events shared between metrics
 * @evlist: receives the events
 * @msg: the error
 * @size: its size
 *
 * Return: 0, -ENOENT, -EINVAL or -ENOMEM.
 */
int metricgroup__parse(struct metric_list *list, struct metric_table *table, const char *names,
		       bool no_group, bool no_merge, struct evlist *evlist, char *msg, size_t size)
{
	char *copy = strdup(names), *save = NULL, *tok;
	int err = 0;

	memset(list, 0, sizeof(*list));
	list->table = table;
	if (!copy) {
		snprintf(msg, size, "out of memory");
		return -ENOMEM;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		err = select_name(list, tok);
		if (err == -ENOENT)
			snprintf(msg, size, "Cannot find metric or group `%s'", tok);
		else if (err)
			snprintf(msg, size, "out of memory");
	}
	free(copy);
	if (!err && !list->nr) {
		snprintf(msg, size, "no metric named in '%s'", names);
		err = -EINVAL;
	}
	if (err)
		return err;
	/* perf's order: last asked first, then the most events first (stable) */
	for (int i = 0, j = list->nr - 1; i < j; i++, j--) {
		struct metric t = list->metrics[i];

		list->metrics[i] = list->metrics[j];
		list->metrics[j] = t;
	}
	for (int i = 0; i < list->nr && !err; i++) {
		err = resolve(&list->metrics[i], table, msg, size);
		parse_scale_unit(&list->metrics[i]);
	}
	for (int i = 1; i < list->nr && !err; i++) {
		struct metric t = list->metrics[i];
		int j = i;

		for (; j > 0 && nr_events(&list->metrics[j - 1]) < nr_events(&t); j--)
			list->metrics[j] = list->metrics[j - 1];
		list->metrics[j] = t;
	}
	read_literals(list);
	for (int i = 0; i < list->nr && !err; i++) {
		struct metric *m = &list->metrics[i];

		m->list = list;
		m->group = !no_group && !no_group_constraint(m->pm);
		m->evsels = calloc(m->nr_ids ?: 1, sizeof(*m->evsels));
		if (!m->evsels) {
			snprintf(msg, size, "out of memory");
			err = -ENOMEM;
		}
	}
	if (!err)
		err = form_ungrouped(list, evlist, msg, size);
	for (int i = 0; i < list->nr && !err; i++)
		if (list->metrics[i].group)
			err = form_events(list, i, no_merge, evlist, msg, size);
	return err;
}

/**
 * metricgroup__exit - free the metrics and their table
 * @list: from metricgroup__parse(), or zeroed
 */
void metricgroup__exit(struct metric_list *list)
{
	for (int i = 0; i < list->nr; i++) {
		struct metric *m = &list->metrics[i];

		metric_expr__delete(m->expr);
		for (int r = 0; r < m->nr_refs; r++)
			metric_expr__delete(m->refs[r].expr);
		free(m->refs);
		for (int k = 0; k < m->nr_ids; k++)
			free(m->ids[k]);
		free(m->ids);
		free(m->evsels);
		free(m->events);
	}
	free(list->metrics);
	free(list->ungrouped_events);
	metric_table__delete(list->table);
	memset(list, 0, sizeof(*list));
}

struct eval_arg {
	const struct metric *m;
	const struct metric_ctx *ctx;
	int depth;
};

static const struct stat_aggr *row_of(const struct evsel *evsel, const struct aggr_id *id)
{
	struct evsel_stat *es = evsel ? evsel__stat(evsel) : NULL;

	for (int i = 0; es && i < es->nr_aggr; i++)
		if (aggr_id__equal(&es->aggr[i].id, id))
			return &es->aggr[i];
	return NULL;
}

static int lookup(enum metric_op kind, const char *name, double *val, void *data)
{
	struct eval_arg *arg = data;
	const struct metric *m = arg->m;
	const struct stat_aggr *row;

	if (kind == MOP_LITERAL)
		return list_literal(m->list, name, val);
	if (kind == MOP_ID && !strcmp(name, "duration_time")) {
		*val = arg->ctx->duration;
		return 0;
	}
	for (int r = 0; kind == MOP_ID && r < m->nr_refs; r++)
		if (!strcasecmp(m->refs[r].name, name)) {
			int err;

			if (++arg->depth > MAX_REFS)
				return -EINVAL;
			err = metric_expr__eval(m->refs[r].expr, lookup, arg, val);
			arg->depth--;
			return err;
		}
	for (int i = 0; i < m->nr_ids; i++) {
		if (strcmp(m->ids[i], name))
			continue;
		row = row_of(m->evsels[i], arg->ctx->id);
		if (!row || !row->counted)
			return -ENODATA;
		*val = kind == MOP_SOURCE_COUNT ? row->nr : stat_aggr__value(row);
		return 0;
	}
	return -ENODATA;
}

/**
 * metric__value - a metric's value in one row
 * @m: the metric
 * @ctx: the row and the elapsed time
 * @val: receives the value, ScaleUnit's factor applied
 *
 * Return: 0, -ENODATA (an event of it was not counted there) or -EINVAL.
 */
int metric__value(const struct metric *m, const struct metric_ctx *ctx, double *val)
{
	struct eval_arg arg = { .m = m, .ctx = ctx };
	int err = metric_expr__eval(m->expr, lookup, &arg, val);

	if (!err)
		*val *= m->scale;
	return err;
}

/**
 * metric__leader - the event a metric is printed beside
 * @m: the metric
 *
 * Return: the first of its events in the list, NULL when it has none.
 */
struct evsel *metric__leader(const struct metric *m)
{
	struct evsel *first = NULL;

	/* the first in the list: a shared group's order, not the metric's own */
	for (int i = 0; i < m->nr_ids; i++)
		if (m->evsels[i] && (!first || m->evsels[i]->idx < first->idx))
			first = m->evsels[i];
	return first;
}

/**
 * metric__label - a metric's name in the # column
 * @m: the metric
 * @buf: receives "NAME" or "UNIT  NAME"
 * @size: its size
 */
void metric__label(const struct metric *m, char *buf, size_t size)
{
	if (m->unit[0] || m->pm->scale_unit)
		snprintf(buf, size, "%s  %s", m->unit, m->pm->name);
	else
		snprintf(buf, size, "%s", m->pm->name);
}
