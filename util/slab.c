// SPDX-License-Identifier: GPL-2.0-or-later
/* Fixed-size objects from large populated mappings (see slab.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "slab.h"

#if defined(__SANITIZE_ADDRESS__)
/* ASan builds: each object is its own allocation, so that misuse is caught */
void *slab__zalloc(struct slab *s)
{
	return calloc(1, s->size);
}

void slab__free(struct slab *s, void *p)
{
	(void)s;
	free(p);
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
static char *map_chunk(void)
{
	char *p = mmap(NULL, SLAB_MAP_BYTES, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int slab_grow(struct slab *s)
{
	char *p = map_chunk();

	if (!p)
		return -1;
	*(void **)p = s->maps;		/* the mapping's first slot links it */
	s->maps = p;
	s->cur = p + SLAB_ALIGN;
	s->end = p + SLAB_MAP_BYTES;
	return 0;
}

void *slab__zalloc(struct slab *s)
{
	size_t size = (s->size + SLAB_ALIGN - 1) & ~(size_t)(SLAB_ALIGN - 1);
	void *p = s->free;

	if (p) {
		s->free = *(void **)p;
	} else {
		if ((size_t)(s->end - s->cur) < size && slab_grow(s))
			return NULL;
		p = s->cur;
		s->cur += size;
	}
	memset(p, 0, s->size);
	return p;
}

void slab__free(struct slab *s, void *p)
{
	if (!p)
		return;
	*(void **)p = s->free;
	s->free = p;
}
#endif
