// SPDX-License-Identifier: GPL-2.0-or-later
/* Fixed-size objects from large populated mappings (see slab.h). */
#include <stdint.h>
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
 * A 2 MB aligned mapping, a transparent huge page where they may be asked
 * for (walks over objects spread on 4 KB pages miss the TLB at nearly
 * every object), populated at once.
 */
static char *map_chunk(void)
{
	const size_t size = SLAB_MAP_BYTES;
	char *p = mmap(NULL, 2 * size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *a;

	if (p == MAP_FAILED)
		return NULL;
	a = (char *)(((uintptr_t)p + size - 1) & ~(uintptr_t)(size - 1));
	if (a > p)
		munmap(p, a - p);
	munmap(a + size, p + size - a);
	madvise(a, size, MADV_HUGEPAGE);
	if (madvise(a, size, MADV_POPULATE_WRITE))	/* before Linux 5.14: page by page */
		for (size_t off = 0; off < size; off += 4096)
			a[off] = 0;
	return a;
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
