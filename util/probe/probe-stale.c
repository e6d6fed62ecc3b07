// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Markers of the uprobes of a run, and what dead tperfs left (see
 * probe-stale.h).
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "util/probe/probe-event.h"
#include "util/probe/probe-stale.h"

#define MARKER_PREFIX	"tperf_"

void probe_stale__marker_group(const char *group, char *buf, size_t size)
{
	snprintf(buf, size < 64 ? size : 64, MARKER_PREFIX "%d_%s", (int)getpid(), group);
}

/* The pid of a marker group tperf_PID_GROUP, the GROUP part in *@tail; or -1. */
static long marker_pid(const char *group, const char **tail)
{
	const char *p = group + strlen(MARKER_PREFIX);
	char *end;
	long pid;

	if (strncmp(group, MARKER_PREFIX, strlen(MARKER_PREFIX)) || !isdigit((unsigned char)*p))
		return -1;
	pid = strtol(p, &end, 10);
	if (*end != '_' || !end[1] || pid <= 0)
		return -1;
	*tail = end + 1;
	return pid;
}

/*
 * Does process @pid run?  Only a pid that is gone makes a marker stale: a
 * tperf may run under another name, and its probes are in use.
 */
static bool pid_runs(long pid)
{
	return !kill((pid_t)pid, 0) || errno != ESRCH;
}

struct uprobe {
	char *group, *event, *addr;
};

static void uprobes_free(struct uprobe *v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i].group), free(v[i].event), free(v[i].addr);
	free(v);
}

/* Every uprobe of uprobe_events: *@v, *@n.  0 or -errno. */
static int read_uprobes(struct uprobe **v, int *n)
{
	struct tracefs_dynevent **evs;
	int nr = 0, ret = 0;

	*v = NULL;
	*n = 0;
	errno = 0;
	evs = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE, NULL);
	if (!evs)
		return errno && errno != ENOENT ? -errno : 0;
	while (evs[nr])
		nr++;
	*v = calloc((size_t)nr + 1, sizeof(**v));
	for (int i = 0; *v && i < nr; i++) {
		struct uprobe *u = &(*v)[*n];

		tracefs_dynevent_info(evs[i], &u->group, &u->event, NULL, &u->addr, NULL);
		if (u->group && u->event && u->addr)
			(*n)++;
		else
			free(u->group), free(u->event), free(u->addr);
	}
	if (!*v)
		ret = -ENOMEM;
	tracefs_dynevent_list_free(evs);
	return ret;
}

/* Is @u the probe marker @m stands for (of group @tail, cut when @m's was)? */
static bool marked_by(const struct uprobe *u, const struct uprobe *m, const char *tail)
{
	size_t n = strlen(tail);
	bool cut = strlen(m->group) == 63;

	if (cut ? strncmp(u->group, tail, n) : strcmp(u->group, tail))
		return false;
	return !strcmp(u->event, m->event) && !strcmp(u->addr, m->addr) &&
	       strncmp(u->group, MARKER_PREFIX, strlen(MARKER_PREFIX));
}

static bool listed(const struct probe_leftover *v, int n, const char *marker, const char *event)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i].marker, marker) && !strcmp(v[i].event, event))
			return true;
	return false;
}

int probe_stale__find(struct probe_leftover **out, int *nr)
{
	struct probe_leftover *v = NULL;
	struct uprobe *u;
	int n, ret = read_uprobes(&u, &n);

	*out = NULL;
	*nr = 0;
	for (int i = 0; !ret && i < n; i++) {
		const char *tail;
		long pid = marker_pid(u[i].group, &tail);
		struct probe_leftover *l;

		if (pid < 0 || pid == (long)getpid() || pid_runs(pid) ||
		    listed(v, *nr, u[i].group, u[i].event))	/* a marker of several places */
			continue;
		l = realloc(v, (size_t)(*nr + 1) * sizeof(*v));
		if (!l) {
			ret = -ENOMEM;
			break;
		}
		v = l;
		l = &v[(*nr)++];
		memset(l, 0, sizeof(*l));
		snprintf(l->marker, sizeof(l->marker), "%s", u[i].group);
		snprintf(l->event, sizeof(l->event), "%s", u[i].event);
		for (int j = 0; j < n; j++)
			if (marked_by(&u[j], &u[i], tail)) {
				snprintf(l->group, sizeof(l->group), "%s", u[j].group);
				break;
			}
	}
	uprobes_free(u, n);
	if (ret) {
		free(v);
		*nr = 0;
		return ret;
	}
	*out = v;
	return 0;
}

void probe_leftover__name(const struct probe_leftover *l, char *buf, size_t size)
{
	snprintf(buf, size, "%s:%s", l->group[0] ? l->group : l->marker, l->event);
}

int probe_stale__remove(const struct probe_leftover *l)
{
	char name[160];
	int ret = 0;

	if (l->group[0]) {
		snprintf(name, sizeof(name), "%s:%s", l->group, l->event);
		ret = probe__delete(name, NULL);
	}
	if (ret < 0)
		return ret;
	snprintf(name, sizeof(name), "%s:%s", l->marker, l->event);
	ret = probe__delete(name, NULL);
	return ret < 0 ? ret : 0;
}
