// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sorted arrays of maps with perf's overlap rule: a new map replaces the
 * parts of older maps it covers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/model/map.h"

/* The next generation of a set: unique across the sets of all threads. */
static void maps__changed(struct maps *maps)
{
	static u64 last;

	maps->gen = __atomic_add_fetch(&last, 1, __ATOMIC_RELAXED);
}

struct maps *maps__new(void)
{
	struct maps *m = calloc(1, sizeof(*m));

	if (m) {
		m->refcnt = 1;
		maps__changed(m);
	}
	return m;
}

struct maps *maps__get(struct maps *maps)
{
	if (maps)
		maps->refcnt++;
	return maps;
}

void maps__put(struct maps *maps)
{
	if (!maps || --maps->refcnt)
		return;
	free(maps->m);
	free(maps);
}

/* Index of the first map whose start is > @addr. */
static size_t upper(struct maps *maps, u64 addr)
{
	size_t lo = 0, hi = maps->nr;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (maps->m[mid]->start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct map *maps__find(struct maps *maps, u64 addr)
{
	size_t i = upper(maps, addr);

	if (!i || addr >= maps->m[i - 1]->end)
		return NULL;
	return maps->m[i - 1];
}

static int grow(struct maps *maps, size_t need)
{
	if (need > maps->alloc) {
		size_t n = maps->alloc ? maps->alloc * 2 : 16;
		struct map **p;

		while (n < need)
			n *= 2;
		p = realloc(maps->m, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		maps->m = p;
		maps->alloc = n;
	}
	return 0;
}

static int put_at(struct maps *maps, size_t i, struct map *map)
{
	if (grow(maps, maps->nr + 1))
		return -ENOMEM;
	memmove(maps->m + i + 1, maps->m + i, (maps->nr - i) * sizeof(*maps->m));
	maps->m[i] = map;
	maps->nr++;
	return 0;
}

static void del_at(struct maps *maps, size_t i)
{
	memmove(maps->m + i, maps->m + i + 1, (maps->nr - i - 1) * sizeof(*maps->m));
	maps->nr--;
}

int maps__insert(struct maps *maps, struct map *map,
		 struct map *(*clone)(void *ctx, const struct map *m), void *ctx)
{
	size_t i = upper(maps, map->start);

	maps__changed(maps);
	if (i)
		i--;
	while (i < maps->nr && maps->m[i]->start < map->end) {
		struct map *old = maps->m[i];

		if (old->end <= map->start) {
			i++;
			continue;
		}
		/* old overlaps: keep what sticks out on either side, as copies */
		del_at(maps, i);
		if (old->start < map->start) {
			struct map *b = clone(ctx, old);

			if (!b)
				return -ENOMEM;
			b->end = map->start;
			if (put_at(maps, i++, b))
				return -ENOMEM;
		}
		if (old->end > map->end) {
			struct map *a = clone(ctx, old);

			if (!a)
				return -ENOMEM;
			if (!a->identity)
				a->pgoff += map->end - old->start;
			a->start = map->end;
			if (put_at(maps, i, a))
				return -ENOMEM;
			break;
		}
	}
	return put_at(maps, upper(maps, map->start), map);
}

void maps__remove(struct maps *maps, struct map *map)
{
	for (size_t i = 0; i < maps->nr; i++)
		if (maps->m[i] == map) {
			maps__changed(maps);
			del_at(maps, i);
			return;
		}
}

int maps__copy(struct maps *to, struct maps *from)
{
	maps__changed(to);
	if (grow(to, from->nr))
		return -ENOMEM;
	if (from->nr)	/* an empty source may have no array: memcpy(NULL) is UB */
		memcpy(to->m, from->m, from->nr * sizeof(*to->m));
	to->nr = from->nr;
	return 0;
}
