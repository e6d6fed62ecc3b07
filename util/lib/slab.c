// SPDX-License-Identifier: GPL-2.0-or-later
/* Fixed-size objects from large populated mappings (see slab.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/lib/slab.h"

#if defined(__SANITIZE_ADDRESS__)
/* ASan builds: each object is its own allocation, so that misuse is caught */
void *slab__zalloc(struct slab *s)
{
	size_t a = s->align > sizeof(void *) ? s->align : sizeof(void *);
	void *p = aligned_alloc(a, (s->size + a - 1) & ~(a - 1));

	if (p)
		memset(p, 0, s->size);
	return p;
}

void slab__free(struct slab *s, void *p)
{
	(void)s;
	free(p);
}

/* ASan builds: each object is its own allocation, after a link to the previous one */
void *arena__alloc(struct arena *a, size_t size)
{
	void **p = calloc(1, sizeof(void *) * 2 + size);

	if (!p)
		return NULL;
	p[0] = a->maps;
	a->maps = p;
	return p + 2;
}

void arena__free(struct arena *a)
{
	while (a->maps) {
		void **p = a->maps;

		a->maps = p[0];
		free(p);
	}
}
#else
#define SLAB_MAP_BYTES	(2u << 20)
#define SLAB_ALIGN	8

/*
 * A mapping populated at once.  Not a transparent huge page: on a VM that
 * gives free memory back to its host (free page reporting), free 2 MB
 * blocks are the ones given back, and getting one back took 10 to 300 ms
 * per 100 MB from run to run, where 4 KB pages took a steady 35.
 */
static char *map_bytes(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static char *map_chunk(void)
{
	return map_bytes(SLAB_MAP_BYTES);
}

static size_t slab_align(const struct slab *s)
{
	return s->align > SLAB_ALIGN ? s->align : SLAB_ALIGN;
}

static int slab_grow(struct slab *s)
{
	char *p = map_chunk();

	if (!p)
		return -1;
	*(void **)p = s->maps;		/* the mapping's first slot links it */
	s->maps = p;
	s->cur = p + slab_align(s);	/* the mapping is page-aligned */
	s->end = p + SLAB_MAP_BYTES;
	return 0;
}

void *slab__zalloc(struct slab *s)
{
	size_t size = (s->size + slab_align(s) - 1) & ~(slab_align(s) - 1);
	void *p = s->free;

	if (p) {
		s->free = *(void **)p;
		memset(p, 0, s->size);
		return p;
	}
	if ((size_t)(s->end - s->cur) < size && slab_grow(s))
		return NULL;
	p = s->cur;		/* never used: zero, as mmap() gave it */
	s->cur += size;
	return p;
}

void slab__free(struct slab *s, void *p)
{
	if (!p)
		return;
	*(void **)p = s->free;
	s->free = p;
}

/* An arena's mapping starts with this header. */
struct arena_map {
	void *next;
	size_t len;
};

void *arena__alloc(struct arena *a, size_t size)
{
	size = (size + SLAB_ALIGN - 1) & ~(size_t)(SLAB_ALIGN - 1);
	if ((size_t)(a->end - a->cur) < size) {
		size_t len = sizeof(struct arena_map) + size;
		struct arena_map *m;

		len = len < SLAB_MAP_BYTES ? SLAB_MAP_BYTES : (len + 4095) & ~(size_t)4095;
		m = (struct arena_map *)map_bytes(len);
		if (!m)
			return NULL;
		m->next = a->maps;
		m->len = len;
		a->maps = m;
		a->cur = (char *)(m + 1);
		a->end = (char *)m + len;
	}
	a->cur += size;
	return a->cur - size;
}

void arena__free(struct arena *a)
{
	while (a->maps) {
		struct arena_map *m = a->maps;

		a->maps = m->next;
		munmap(m, m->len);
	}
	a->cur = a->end = NULL;
}
#endif
