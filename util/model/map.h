/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Maps: address ranges of a process (or of the kernel) backed by a DSO,
 * and the sorted, non-overlapping set of them a process has.
 */
#ifndef TPERF_MAP_H
#define TPERF_MAP_H

#include "util/symbol/dso.h"

struct map {
	u64 start, end, pgoff;		/* [start, end), file offset of start */
	bool identity;			/* addresses are not relative (anon, JIT) */
	struct dso *dso;
};

/* The DSO-relative address of @ip (a file offset, or @ip itself). */
static inline u64 map__map_ip(const struct map *m, u64 ip)
{
	return m->identity ? ip : ip - m->start + m->pgoff;
}

struct maps {
	struct map **m;			/* sorted by start */
	size_t nr, alloc;
	int refcnt;
	/*
	 * A new value at every change of the set (made, insert, remove,
	 * copy), unique over all sets of the run, never 0: what is cached
	 * about the set's addresses stays valid while it is the same.
	 */
	u64 gen;
};

/** maps__new - an empty set, one reference */
struct maps *maps__new(void);
/** maps__get - take a reference (the threads of a process share their maps) */
struct maps *maps__get(struct maps *maps);
/** maps__put - drop a reference; the last frees the array, not the maps */
void maps__put(struct maps *maps);

/** maps__find - the map containing @addr, or NULL */
struct map *maps__find(struct maps *maps, u64 addr);

/**
 * maps__insert - add @map, trimming or splitting the maps it overlaps
 * @split: receives the new map pieces made by splits (owned by the caller's
 *         pool): called with each new piece; may be NULL only if no split
 *         can happen
 * Return: 0 or -ENOMEM.
 */
int maps__insert(struct maps *maps, struct map *map,
		 struct map *(*clone)(void *ctx, const struct map *m), void *ctx);

/** maps__remove - drop @map from the set (it stays allocated) */
void maps__remove(struct maps *maps, struct map *map);

/** maps__copy - every map of @from into @to (shared map objects) */
int maps__copy(struct maps *to, struct maps *from);

#endif
