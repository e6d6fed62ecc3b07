// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tperf list: the symbolic event types, as `perf list` shows them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "builtin.h"
#include "util/lib/debug.h"
#include "util/lib/fs.h"
#include "util/event/list-events.h"
#include "util/lib/pager.h"
#include "util/lib/parse-options.h"
#include "util/stat/metric-table.h"

struct list_opts {
	bool desc, long_desc, raw_dump, json, details;
};

static const char *const list_usage[] = {
	"tperf list [<options>] [hw|sw|cache|tracepoint|pmu|metric|metricgroup|<event_glob>]",
	NULL
};

/* Width for wrapping descriptions: $COLUMNS, the terminal's, else 80. */
static int output_columns(void)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	int fd = pager_in_use() ? STDERR_FILENO : STDOUT_FILENO;

	if (env && atoi(env) > 0)
		return atoi(env);
	if (isatty(fd) && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col)
		return ws.ws_col;
	return 80;
}

static int add_tracepoints(struct list_events *le, const char *sys, const char *event,
			   const struct list_opts *o, bool asked)
{
	int err = list_events__add_tracepoints(le, sys, event, o->json);

	builtin__note_tracefs(le->tracefs_mounted);
	le->tracefs_mounted = false;
	if (err == -ENOMEM)
		return err;
	if (err) {
		const char *tracefs = tracefs__mountpoint();

		if (asked)
			ui__warning("cannot list tracepoints: cannot read '%s/events': %s",
				tracefs ? tracefs : "/sys/kernel/tracing", strerror(-err));
		else
			pr_debug("list: no tracepoints: %s\n", strerror(-err));
	}
	return 0;
}

/* Everything matching "*@word*", as perf does for a word that is no section. */
static int add_glob(struct list_events *le, const char *word, const struct list_opts *o)
{
	char *glob;
	int err;

	if (asprintf(&glob, "*%s*", word) < 0)
		return -ENOMEM;
	err = list_events__add_hw(le, glob);
	err = err ?: list_events__add_sw(le, glob);
	err = err ?: list_events__add_tool(le, glob);
	err = err ?: list_events__add_cache(le, glob);
	err = err ?: list_events__add_pmu(le, glob);
	err = err ?: add_tracepoints(le, NULL, glob, o, false);
	free(glob);
	return err;
}

/* "sys:event" globs select tracepoints. */
static int add_sys_event(struct list_events *le, const char *arg, const struct list_opts *o)
{
	char *sys = strdup(arg), *sep;
	int err;

	if (!sys)
		return -ENOMEM;
	sep = strchr(sys, ':');
	*sep = '\0';
	err = add_tracepoints(le, sys, sep + 1, o, false);
	free(sys);
	return err;
}

static int add_arg(struct list_events *le, const char *arg, const struct list_opts *o)
{
	int err;

	if (!strcmp(arg, "tracepoint"))
		return add_tracepoints(le, NULL, NULL, o, true);
	if (!strcmp(arg, "hw") || !strcmp(arg, "hardware"))
		return list_events__add_hw(le, NULL);
	if (!strcmp(arg, "sw") || !strcmp(arg, "software")) {
		err = list_events__add_sw(le, NULL);
		return err ?: list_events__add_tool(le, NULL);
	}
	if (!strcmp(arg, "cache") || !strcmp(arg, "hwcache"))
		return list_events__add_cache(le, NULL);
	if (!strcmp(arg, "pmu"))
		return list_events__add_pmu(le, NULL);
	if (strchr(arg, ':'))
		return add_sys_event(le, arg, o);
	return add_glob(le, arg, o);
}

static int add_all(struct list_events *le, const struct list_opts *o)
{
	int err = list_events__add_hw(le, NULL);

	err = err ?: list_events__add_sw(le, NULL);
	err = err ?: list_events__add_tool(le, NULL);
	err = err ?: list_events__add_cache(le, NULL);
	err = err ?: list_events__add_pmu(le, NULL);
	err = err ?: list_events__add_descriptors(le);
	return err ?: add_tracepoints(le, NULL, NULL, o, false);
}

static int metric_cmp(const void *a, const void *b)
{
	const struct pmu_metric *x = *(const struct pmu_metric *const *)a;
	const struct pmu_metric *y = *(const struct pmu_metric *const *)b;

	return strcmp(x->name, y->name);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The group names of @t, sorted, each once, into *@res (pointers into @t's strings). */
static int metric_groups(const struct metric_table *t, char ***res, int *nr, char **buf)
{
	size_t len = 0;
	char **names, *p, *save = NULL;
	int n = 0, k = 0;

	for (int i = 0; i < t->nr; i++)
		len += t->metrics[i].groups ? strlen(t->metrics[i].groups) + 1 : 0;
	*buf = p = malloc(len + 1);
	names = calloc(len / 2 + 2, sizeof(*names));
	if (!p || !names) {
		free(names);
		return -ENOMEM;
	}
	*p = '\0';
	for (int i = 0; i < t->nr; i++)
		if (t->metrics[i].groups) {
			strcat(p, t->metrics[i].groups);
			strcat(p, ";");
		}
	for (char *g = strtok_r(p, ";", &save); g; g = strtok_r(NULL, ";", &save))
		names[n++] = g;
	if (n)
		qsort(names, n, sizeof(*names), str_cmp);
	for (int i = 0; i < n; i++)
		if (!k || strcmp(names[k - 1], names[i]))
			names[k++] = names[i];
	*res = names;
	*nr = k;
	return 0;
}

/*
 * tperf list metric / metricgroup: the metric table of this CPU (stat -M's),
 * in perf's layout: names sorted, each with its description (and with
 * --details its expression); the groups' names one a line.
 */
static int list_metrics(bool groups, const struct list_opts *o)
{
	const struct pmu_metric **sorted;
	struct metric_table *t;
	char msg[1024], **names = NULL, *buf = NULL;
	int err, nr = 0;

	err = metric_table__load(&t, msg, sizeof(msg));
	if (err) {
		ui__error("%s", msg);
		return 1;
	}
	if (!t)
		ui__note("%s", msg);
	printf("\n%s:\n\n", groups ? "Metric Groups" : "Metrics");
	if (!t)
		return 0;
	if (groups) {
		err = metric_groups(t, &names, &nr, &buf);
		for (int i = 0; !err && i < nr; i++)
			printf("%s\n", names[i]);
		free(names);
		free(buf);
		metric_table__delete(t);
		return err ? 1 : 0;
	}
	sorted = calloc(t->nr + 1, sizeof(*sorted));
	if (!sorted) {
		metric_table__delete(t);
		ui__error("out of memory");
		return 1;
	}
	for (int i = 0; i < t->nr; i++)
		sorted[i] = &t->metrics[i];
	qsort(sorted, t->nr, sizeof(*sorted), metric_cmp);
	for (int i = 0; i < t->nr; i++) {
		printf("  %s\n", sorted[i]->name);
		if (o->desc && sorted[i]->desc)
			printf("       [%s]\n", sorted[i]->desc);
		if (o->details)
			printf("       [%s]\n", sorted[i]->expr);
	}
	free(sorted);
	metric_table__delete(t);
	return 0;
}

int cmd_list(int argc, const char **argv)
{
	struct list_opts o = { .desc = true };
	const struct option options[] = {
		OPT_BOOLEAN('d', "desc", &o.desc,
			    "print the events' descriptions (default; --no-desc: names only)"),
		OPT_BOOLEAN('v', "long-desc", &o.long_desc,
			    "print descriptions in full (implies --desc)"),
		OPT_BOOLEAN(0, "raw-dump", &o.raw_dump,
			    "print the event names only, on one line (for completion)"),
		OPT_BOOLEAN('j', "json", &o.json, "print the events as a JSON array"),
		OPT_BOOLEAN(0, "details", &o.details, "print the metrics' expressions (list metric)"),
		OPT_END()
	};
	struct list_print_opts po;
	struct list_events le;
	int err = 0;

	argc = parse_options(argc, argv, options, list_usage, 0);
	if (o.raw_dump && o.json)
		usage_with_options_msg(list_usage, options,
				       "options '--raw-dump' and '--json' cannot be used together");
	if (o.long_desc)
		o.desc = true;
	if (argc == 1 && (!strcmp(argv[0], "metric") || !strcmp(argv[0], "metricgroup")))
		return list_metrics(!strcmp(argv[0], "metricgroup"), &o);
	list_events__init(&le);
	for (int i = 0; i < argc && !err; i++)
		err = add_arg(&le, argv[i], &o);
	if (!argc)
		err = add_all(&le, &o);
	if (err) {
		ui__error("cannot list the events: %s", strerror(-err));
		list_events__exit(&le);
		return 1;
	}
	po = (struct list_print_opts){ .raw_dump = o.raw_dump, .json = o.json, .desc = o.desc,
				       .pager = pager_in_use() && !o.raw_dump && !o.json,
				       .columns = output_columns() };
	err = list_events__fprintf(&le, stdout, &po);
	list_events__exit(&le);
	/* a write error is reported by main(), which checks stdout */
	return err ? 1 : 0;
}
