/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Fixed-size objects carved from large mappings whose pages are made at
 * once, with a free list: for the hundreds of thousands of objects a
 * report makes.  The pages of a mapping come with one system call, where
 * malloc() on a second thread grows its heap a page or so at a time (an
 * mprotect() each) and every first touch of a page is a fault.  Not
 * thread-safe: one thread at a time uses a slab.
 */
#ifndef TPERF_SLAB_H
#define TPERF_SLAB_H

#include <stddef.h>

/* a cache line of its own: two threads' slabs side by side do not share one */
struct slab {
	size_t size;		/* of an object (at least a pointer) */
	size_t align;		/* of objects: a power of two (0: 8) */
	void *free;		/* freed objects, linked through their first word */
	char *cur, *end;	/* the rest of the newest mapping */
	void *maps;		/* the mappings, linked through their first word */
} __attribute__((aligned(64)));

#define SLAB_INIT(type) { .size = sizeof(type) < sizeof(void *) ? sizeof(void *) : sizeof(type) }
/* objects at multiples of @align (such as a cache line: 64) */
#define SLAB_INIT_ALIGNED(type, a) { .size = sizeof(type) < sizeof(void *) ? sizeof(void *) : sizeof(type), \
				     .align = (a) }

/** slab__zalloc - a zeroed object of @s, or NULL (no memory) */
void *slab__zalloc(struct slab *s);
/** slab__free - give @p (of slab__zalloc(@s), or NULL) back to @s */
void slab__free(struct slab *s, void *p);

/*
 * An arena: objects of any size from the same kind of mappings, carved
 * one after the other and freed all at once.  Not thread-safe either.
 */
struct arena {
	char *cur, *end;	/* the rest of the newest mapping */
	void *maps;		/* the mappings (a header each), newest first */
};

/** arena__alloc - @size bytes of @a, 8-aligned and zeroed, or NULL (no memory) */
void *arena__alloc(struct arena *a, size_t size);
/** arena__free - free everything of @a (which is empty again) */
void arena__free(struct arena *a);

#endif
