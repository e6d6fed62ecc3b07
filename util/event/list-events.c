// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Collect the events `tperf list` shows, section by section, in Linux perf
 * 6.1's order and spelling (see list-events.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/lib/debug.h"
#include "util/event/evlist.h"
#include "util/lib/fs.h"
#include "util/event/list-events.h"
#include "util/event/parse-events.h"
#include "util/event/pmu.h"
#include "util/event/powercap.h"

static const char *const section_type[] = {
	[LIST_HW] = "Hardware event",
	[LIST_SW] = "Software event",
	[LIST_TOOL] = "Tool event",
	[LIST_CACHE] = "Hardware cache event",
	[LIST_PMU] = "Kernel PMU event",
	[LIST_RAW] = "Raw hardware event descriptor",
	[LIST_BREAKPOINT] = "Hardware breakpoint",
	[LIST_TRACEPOINT] = "Tracepoint event",
};

void list_events__init(struct list_events *le)
{
	const char *all = getenv("TPERF_LIST_ALL");

	memset(le, 0, sizeof(*le));
	le->check_supported = !(all && !strcmp(all, "1"));
}

static void entry__exit(struct list_entry *e)
{
	free(e->name);
	free(e->alias);
	free(e->raw_name);
	free(e->pmu);
	free(e->desc);
	free(e->encoding);
	free(e->scale_unit);
}

void list_events__exit(struct list_events *le)
{
	for (size_t i = 0; i < le->n; i++)
		entry__exit(&le->v[i]);
	free(le->v);
	le->v = NULL;
	le->n = le->alloc = 0;
}

/* A new zeroed entry of @section at the end of @le, or NULL. */
static struct list_entry *list_events__new(struct list_events *le, enum list_section section)
{
	struct list_entry *e;

	if (le->n == le->alloc) {
		size_t alloc = le->alloc ? le->alloc * 2 : 64;
		struct list_entry *v = realloc(le->v, alloc * sizeof(*v));

		if (!v)
			return NULL;
		le->v = v;
		le->alloc = alloc;
	}
	e = &le->v[le->n++];
	memset(e, 0, sizeof(*e));
	e->section = section;
	e->type = section_type[section];
	return e;
}

/* Drop the last entry (its allocation failed half way). */
static int list_events__drop_last(struct list_events *le)
{
	entry__exit(&le->v[--le->n]);
	return -ENOMEM;
}

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* Sort the entries from @first on (qsort() must not see a NULL array). */
static void sort_from(struct list_events *le, size_t first,
		      int (*cmp)(const void *, const void *))
{
	if (le->n > first + 1)
		qsort(le->v + first, le->n - first, sizeof(*le->v), cmp);
}

static bool glob_match(const char *glob, const char *s, bool nocase)
{
	return !glob || (s && fnmatch(glob, s, nocase ? FNM_CASEFOLD : 0) == 0);
}

/*
 * Can this machine open the event?  As perf does: on this thread, disabled;
 * with exclude_kernel when perf_event_paranoid forbids kernel counting.
 */
static bool event_supported(const struct list_events *le, uint32_t type, uint64_t config)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr), .type = type, .config = config, .disabled = 1,
	};
	int fd;

	if (!le->check_supported)
		return true;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		attr.exclude_kernel = 1;
		fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		pr_debug2("list: type %u config %#" PRIx64 " cannot be opened: %s\n", type,
			  config, strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

static int cmp_entry_name(const void *a, const void *b)
{
	const struct list_entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

static int add_symbol(struct list_events *le, enum list_section section,
		      const struct event_symbol *sym)
{
	struct list_entry *e = list_events__new(le, section);
	bool alias = sym->alias && *sym->alias;

	if (!e)
		return -ENOMEM;
	e->name = strdup(sym->symbol);
	e->alias = alias ? strdup(sym->alias) : NULL;
	if (!e->name || (alias && !e->alias) ||
	    asprintf(&e->encoding, "type=%u,config=%#" PRIx64, sym->type, sym->config) < 0) {
		e->encoding = NULL;
		return list_events__drop_last(le);
	}
	return 0;
}

/* perf sorts symbolic events by their whole line: "NAME OR ALIAS". */
static int cmp_symbol_line(const void *a, const void *b)
{
	const struct list_entry *x = a, *y = b;
	char lx[128], ly[128];

	snprintf(lx, sizeof(lx), x->alias ? "%s OR %s" : "%s", x->name, x->alias);
	snprintf(ly, sizeof(ly), y->alias ? "%s OR %s" : "%s", y->name, y->alias);
	return strcmp(lx, ly);
}

/* Symbols matching @glob (by name or alias) that can be opened, sorted. */
static int add_symbols(struct list_events *le, enum list_section section,
		       const struct event_symbol *syms, int nr, const char *glob)
{
	size_t first = le->n;

	for (int i = 0; i < nr; i++) {
		const struct event_symbol *s = &syms[i];

		if (glob && !glob_match(glob, s->symbol, false) &&
		    !(s->alias && *s->alias && glob_match(glob, s->alias, false)))
			continue;
		if (!event_supported(le, s->type, s->config))
			continue;
		if (add_symbol(le, section, s))
			return -ENOMEM;
	}
	sort_from(le, first, cmp_symbol_line);
	return 0;
}

int list_events__add_hw(struct list_events *le, const char *glob)
{
	return add_symbols(le, LIST_HW, event_symbols_hw, nr_event_symbols_hw, glob);
}

int list_events__add_sw(struct list_events *le, const char *glob)
{
	return add_symbols(le, LIST_SW, event_symbols_sw, nr_event_symbols_sw, glob);
}

/* True when the event parser accepts @name (tool events come with stat). */
static bool parser_accepts(const char *name)
{
	struct parse_events_error err = { 0 };
	struct evlist *evlist = evlist__new();
	int ret;

	if (!evlist)
		return false;
	ret = parse_events(evlist, name, &err);
	if (ret)
		parse_events_error__exit(&err);
	evlist__delete(evlist);
	return ret == 0;
}

int list_events__add_tool(struct list_events *le, const char *glob)
{
	/* perf's tool events, in perf's order: listed once the parser takes them */
	static const char *const tools[] = { "duration_time", "user_time", "system_time" };

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		struct list_entry *e;

		if (!glob_match(glob, tools[i], false) || !parser_accepts(tools[i]))
			continue;
		e = list_events__new(le, LIST_TOOL);
		if (!e)
			return -ENOMEM;
		e->name = strdup(tools[i]);
		if (!e->name)
			return list_events__drop_last(le);
	}
	return 0;
}

struct cache_ctx {
	struct list_events *le;
	const char *glob;
	int err;
};

static int add_cache_cb(const char *name, uint64_t config, void *data)
{
	struct cache_ctx *c = data;
	struct list_entry *e;
	if (!glob_match(c->glob, name, false) ||
	    !event_supported(c->le, PERF_TYPE_HW_CACHE, config))
		return 0;
	e = list_events__new(c->le, LIST_CACHE);
	if (!e)
		return c->err = -ENOMEM;
	e->name = strdup(name);
	if (!e->name ||
	    asprintf(&e->encoding, "type=%u,config=%#" PRIx64, PERF_TYPE_HW_CACHE, config) < 0) {
		e->encoding = NULL;
		return c->err = list_events__drop_last(c->le);
	}
	return 0;
}

int list_events__add_cache(struct list_events *le, const char *glob)
{
	struct cache_ctx c = { .le = le, .glob = glob };
	size_t first = le->n;

	for_each_hw_cache_event(add_cache_cb, &c);
	sort_from(le, first, cmp_entry_name);
	return c.err;
}

/* "pmu/alias/" followed by ",term=?" for each term the user must give. */
static char *pmu_alias_raw_name(const struct pmu *pmu, const struct pmu_alias *a)
{
	size_t size = strlen(pmu->name) + strlen(a->name) + strlen(a->terms ? a->terms : "") + 4;
	char *buf = malloc(size), *terms, *tok, *save;
	int used;

	if (!buf)
		return NULL;
	used = snprintf(buf, size, "%s/%s", pmu->name, a->name);
	terms = strdup(a->terms ? a->terms : "");
	if (!terms) {
		free(buf);
		return NULL;
	}
	for (tok = strtok_r(terms, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		const char *eq = strchr(tok, '=');

		if (eq && !strcmp(eq + 1, "?"))
			used += snprintf(buf + used, size - used, ",%s", tok);
	}
	snprintf(buf + used, size - used, "/");
	free(terms);
	return buf;
}

static int add_pmu_alias(struct list_events *le, const struct pmu *pmu,
			 const struct pmu_alias *a)
{
	struct list_entry *e = list_events__new(le, LIST_PMU);
	char *full = NULL;
	bool ok;

	if (!e)
		return -ENOMEM;
	e->core = pmu->is_core;
	if (asprintf(&full, "%s/%s/", pmu->name, a->name) < 0)
		return list_events__drop_last(le);
	if (pmu->is_core) {
		/* a core PMU's alias is an event name of its own */
		e->name = strdup(a->name);
		e->alias = a->desc ? NULL : full;
		if (a->desc)
			free(full);
	} else {
		e->name = full;
	}
	e->raw_name = pmu_alias_raw_name(pmu, a);
	e->pmu = strdup(pmu->name);
	e->desc = xstrdup(a->desc);
	ok = e->name && e->raw_name && e->pmu && (!a->desc || e->desc);
	if (ok && asprintf(&e->encoding, "%s/%s/", pmu->name, a->terms ? a->terms : "") < 0) {
		e->encoding = NULL;
		ok = false;
	}
	if (ok && ((a->unit && *a->unit) || a->scale != 1.0) &&
	    asprintf(&e->scale_unit, "%G%s", a->scale, a->unit ? a->unit : "") < 0) {
		e->scale_unit = NULL;
		ok = false;
	}
	return ok ? 0 : list_events__drop_last(le);
}

/* RAPL energy from powercap zones, spelled as the missing "power" PMU's. */
static int add_powercap(struct list_events *le, const char *glob)
{
	const char *list[POWERCAP_NR_EVENTS + 1];

	if (pmu__find("power") || !powercap__available())
		return 0;
	powercap__event_names(list);
	for (const char *const *names = list; *names; names++) {
		struct list_entry *e;
		char *name;

		if (asprintf(&name, "power/%s/", *names) < 0)
			return -ENOMEM;
		if (glob && !glob_match(glob, name, true) && !glob_match(glob, *names, true)) {
			free(name);
			continue;
		}
		e = list_events__new(le, LIST_PMU);
		if (!e) {
			free(name);
			return -ENOMEM;
		}
		e->name = name;
		e->type = "Powercap event";
		e->pmu = strdup("power");
		e->scale_unit = strdup("1E-06Joules");
		if (!e->pmu || !e->scale_unit)
			return list_events__drop_last(le);
	}
	return 0;
}

/* perf's order: described events last, core PMUs first, then by name. */
static int cmp_pmu_entry(const void *a, const void *b)
{
	const struct list_entry *x = a, *y = b;

	if (!x->desc != !y->desc)
		return x->desc ? 1 : -1;
	if (x->core != y->core)
		return x->core ? -1 : 1;
	return strcmp(x->name, y->name);
}

int list_events__add_pmu(struct list_events *le, const char *glob)
{
	size_t first = le->n;
	struct pmu *pmu = NULL;
	int err;

	while ((pmu = pmu__scan(pmu)) != NULL) {
		struct pmu_alias *a;

		list_for_each_entry(a, &pmu->aliases, node) {
			char full[PATH_MAX];

			snprintf(full, sizeof(full), "%s/%s/", pmu->name, a->name);
			if (glob && !glob_match(glob, full, true) &&
			    !glob_match(glob, a->name, true))
				continue;
			err = add_pmu_alias(le, pmu, a);
			if (err)
				return err;
		}
	}
	err = add_powercap(le, glob);
	if (err)
		return err;
	sort_from(le, first, cmp_pmu_entry);
	return 0;
}

int list_events__add_descriptors(struct list_events *le)
{
	static const struct { enum list_section section; const char *name; } d[] = {
		{ LIST_RAW, "rNNN" },
		{ LIST_RAW, "cpu/t1=v1[,t2=v2,t3 ...]/modifier" },
		{ LIST_BREAKPOINT, "mem:<addr>[/len][:access]" },
	};

	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		struct list_entry *e = list_events__new(le, d[i].section);

		if (!e)
			return -ENOMEM;
		e->name = strdup(d[i].name);
		if (!e->name)
			return list_events__drop_last(le);
	}
	return 0;
}

static int cmp_dirent(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The sub-folders of @path, sorted by name (free with free_dirents()). */
static int scan_dirs(const char *path, struct dirent ***list)
{
	int n = scandir(path, list, NULL, cmp_dirent);
	int out = 0;

	for (int i = 0; i < n; i++) {
		struct dirent *d = (*list)[i];
		char sub[PATH_MAX];
		DIR *dir;
		bool keep = d->d_name[0] != '.';

		if (keep && d->d_type != DT_DIR) {
			/* DT_UNKNOWN on some file systems: ask */
			dir = NULL;
			if (d->d_type == DT_UNKNOWN &&
			    (size_t)snprintf(sub, sizeof(sub), "%s/%s", path, d->d_name) < sizeof(sub))
				dir = opendir(sub);
			keep = dir != NULL;
			if (dir)
				closedir(dir);
		}
		if (keep)
			(*list)[out++] = d;
		else
			free(d);
	}
	return n < 0 ? -errno : out;
}

static void free_dirents(struct dirent **list, int n)
{
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static int add_tracepoint(struct list_events *le, const char *dir, const char *sys,
			  const char *event, bool encoding)
{
	struct list_entry *e;
	char path[PATH_MAX];
	uint64_t id;

	/* an event without an id cannot be opened (ftrace's internal ones) */
	if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s/id", dir, sys, event) >= sizeof(path) ||
	    access(path, R_OK))
		return 0;
	e = list_events__new(le, LIST_TRACEPOINT);
	if (!e || asprintf(&e->name, "%s:%s", sys, event) < 0) {
		if (e)
			e->name = NULL;
		return e ? list_events__drop_last(le) : -ENOMEM;
	}
	if (encoding && filename__read_u64(path, &id) == 0 &&
	    asprintf(&e->encoding, "type=%u,config=%" PRIu64, PERF_TYPE_TRACEPOINT, id) < 0) {
		e->encoding = NULL;
		return list_events__drop_last(le);
	}
	return 0;
}

int list_events__add_tracepoints(struct list_events *le, const char *sys_glob,
				 const char *event_glob, bool encoding)
{
	const char *tracefs = tracefs__mount(&le->tracefs_mounted);
	struct dirent **systems;
	char dir[PATH_MAX], sub[PATH_MAX];
	size_t first = le->n;
	int nsys, err = 0;

	if (!tracefs)
		return -ENOENT;
	if ((size_t)snprintf(dir, sizeof(dir), "%s/events", tracefs) >= sizeof(dir))
		return -ENAMETOOLONG;
	nsys = scan_dirs(dir, &systems);
	if (nsys < 0)
		return nsys;
	for (int i = 0; i < nsys && !err; i++) {
		const char *sys = systems[i]->d_name;
		struct dirent **events;
		int nev;

		if (!glob_match(sys_glob, sys, false))
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, sys) >= sizeof(sub))
			continue;
		nev = scan_dirs(sub, &events);
		for (int j = 0; j < nev && !err; j++)
			if (glob_match(event_glob, events[j]->d_name, false))
				err = add_tracepoint(le, dir, sys, events[j]->d_name, encoding);
		if (nev > 0)
			free_dirents(events, nev);
	}
	free_dirents(systems, nsys);
	/* perf sorts the "sys:event" names: "fib6:..." comes before "fib:..." */
	sort_from(le, first, cmp_entry_name);
	return err;
}
