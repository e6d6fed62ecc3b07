// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evlist: the list of events.  Maps and opening are in evlist-open.c.
 */
#include <stdlib.h>

#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/threadmap.h"

struct evlist *evlist__new(void)
{
	struct evlist *evlist = calloc(1, sizeof(*evlist));

	if (!evlist)
		return NULL;
	INIT_LIST_HEAD(&evlist->entries);
	evlist->workload_pid = -1;
	return evlist;
}

void evlist__add(struct evlist *evlist, struct evsel *evsel)
{
	evsel->evlist = evlist;
	evsel->idx = evlist->nr_entries++;
	list_add_tail(&evsel->node, &evlist->entries);
}

/**
 * evlist__set_leader - put every event into one group (stat's and record's -g)
 * @evlist: the events; the first leads them, earlier groups are dissolved into it
 *
 * One event stays alone, as perf leaves it.
 */
void evlist__set_leader(struct evlist *evlist)
{
	struct evsel *leader, *evsel;

	if (evlist->nr_entries < 2)
		return;
	leader = evlist__first(evlist);
	evlist__for_each_entry(evlist, evsel) {
		evsel->leader = leader;
		evsel->nr_members = 1;
	}
	leader->nr_members = evlist->nr_entries;
	evlist->nr_groups = 1;
}

void evlist__delete(struct evlist *evlist)
{
	struct evsel *evsel, *n;

	if (!evlist)
		return;
	list_for_each_entry_safe(evsel, n, &evlist->entries, node) {
		list_del_init(&evsel->node);
		evsel__delete(evsel);
	}
	cpu_map__put(evlist->cpus);
	thread_map__put(evlist->threads);
	free(evlist);
}

/* Descriptors @evsel takes when opened on the evlist's maps. */
static size_t evsel__fds_on(struct evsel *evsel, struct evlist *evlist)
{
	struct cpu_map *c;
	size_t n;

	if (evsel->powercap || !evlist->cpus)
		return 0;
	if (!evsel->own_cpus && !evsel->requires_cpu)
		return (size_t)evlist->cpus->nr * (evlist->threads ? evlist->threads->nr : 1);
	if (evlist->cpus->nr == 1 && evlist->cpus->map[0] == -1)
		c = evsel->own_cpus ? cpu_map__get(evsel->own_cpus) : cpu_map__new_online();
	else
		c = evsel->own_cpus ? cpu_map__intersect(evsel->own_cpus, evlist->cpus)
				    : cpu_map__get(evlist->cpus);
	n = c ? (size_t)c->nr : 0;
	cpu_map__put(c);
	return n;
}

/**
 * evlist__nr_fds - descriptors evlist__open() needs
 * @evlist: the events, with their maps created
 *
 * Return: the number of event fds.
 */
size_t evlist__nr_fds(struct evlist *evlist)
{
	struct evsel *evsel;
	size_t n = 0;

	evlist__for_each_entry(evlist, evsel)
		n += evsel__fds_on(evsel, evlist);
	return n;
}
