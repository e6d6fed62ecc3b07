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
