// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evsel: allocation and naming.  Opening, reading and closing live in
 * evsel-open.c; attr printing in evsel-fprintf.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/event/cgroup.h"
#include "util/event/cpumap.h"
#include "util/event/evsel.h"
#include "util/event/powercap.h"
#include "util/event/threadmap.h"

struct evsel *evsel__new(const struct perf_event_attr *attr)
{
	struct evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	if (attr)
		evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->leader = evsel;
	evsel->nr_members = 1;
	evsel->scale = 1.0;
	evsel->unit = "";
	evsel->terms.inherit = -1;
	evsel->terms.time = -1;
	evsel->terms.overwrite = -1;
	evsel->terms.max_stack = -1;
	evsel->cgroup_fd = -1;
	INIT_LIST_HEAD(&evsel->node);
	return evsel;
}

/**
 * evsel__set_cgroup - count an event in one cgroup only
 * @evsel: the event
 * @name: the cgroup, relative to the hierarchy's root
 * @msg: receives the error
 * @size: its size
 *
 * Return: 0, or -errno with @msg filled.
 */
int evsel__set_cgroup(struct evsel *evsel, const char *name, char *msg, size_t size)
{
	char *copy = strdup(name);
	int fd;

	if (!copy) {
		snprintf(msg, size, "out of memory");
		return -ENOMEM;
	}
	fd = cgroup__open(name, msg, size);
	if (fd < 0) {
		free(copy);
		return fd;
	}
	if (evsel->cgroup_fd >= 0)
		close(evsel->cgroup_fd);
	free(evsel->cgroup_name);
	evsel->cgroup_fd = fd;
	evsel->cgroup_name = copy;
	return 0;
}

void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	evsel__close(evsel);
	cpu_map__put(evsel->own_cpus);
	if (evsel->powercap)
		powercap_event__delete(evsel->powercap);
	free(evsel->name);
	free(evsel->group_name);
	free(evsel->tp_sys);
	free(evsel->tp_name);
	free(evsel->filter);
	if (evsel->cgroup_fd >= 0)
		close(evsel->cgroup_fd);
	free(evsel->cgroup_name);
	free(evsel);
}

int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = n;
	return 0;
}

int evsel__append_tp_filter(struct evsel *evsel, const char *filter)
{
	char *n;

	if (!evsel->filter)
		n = strdup(filter);
	else if (asprintf(&n, "(%s) && (%s)", evsel->filter, filter) < 0)
		n = NULL;
	if (!n)
		return -ENOMEM;
	free(evsel->filter);
	evsel->filter = n;
	return 0;
}

const char *evsel__name(struct evsel *evsel)
{
	char buf[64];

	if (evsel->name)
		return evsel->name;
	snprintf(buf, sizeof(buf), "type%u/config=%#llx/", evsel->attr.type,
		 (unsigned long long)evsel->attr.config);
	evsel__set_name(evsel, buf);
	return evsel->name ? evsel->name : "unknown";
}

int evsel__nr_slots(const struct evsel *evsel)
{
	return evsel->cpus && evsel->threads ? evsel->cpus->nr * evsel->threads->nr : 0;
}

void evsel__free_slots(struct evsel *evsel)
{
	int n = evsel__nr_slots(evsel);

	for (int i = 0; evsel->fd && i < n; i++)
		if (evsel->fd[i] >= 0)
			close(evsel->fd[i]);
	free(evsel->fd);
	free(evsel->id);
	free(evsel->powercap_zone);
	evsel->fd = NULL;
	evsel->id = NULL;
	evsel->powercap_zone = NULL;
}

/**
 * evsel__close - close every fd; the maps and counts go too
 * @evsel: the event (supported/open_err stay for reporting)
 */
void evsel__close(struct evsel *evsel)
{
	evsel__free_slots(evsel);
	free(evsel->counts);
	evsel->counts = NULL;
	cpu_map__put(evsel->cpus);
	thread_map__put(evsel->threads);
	evsel->cpus = NULL;
	evsel->threads = NULL;
}
