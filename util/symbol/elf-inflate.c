// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Inflating compressed debug sections ahead of libdw (see elf-inflate.h).
 *
 * The sections are taken largest first from one list by the calling thread
 * and, when there is more than one CPU and enough to inflate, one worker
 * thread: .debug_info is usually half the work, so two threads finish in
 * about the time of the largest section.  The inflated contents live in
 * anonymous mappings populated at once (no page fault per page).
 */
#include <errno.h>
#include <gelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#else
#include <zlib.h>
#endif

#include "util/symbol/elf-inflate.h"

/* below this much compressed input a second thread costs more than it saves */
#define THREAD_MIN_INPUT	(512 * 1024)

struct inflate_job {
	Elf_Scn *scn;
	Elf_Data *data;
	const unsigned char *src;
	size_t src_len;
	void *dst;		/* mmap'ed, dst_len bytes */
	size_t dst_len;
	size_t align;
	bool ok;
};

struct elf_inflated {
	struct inflate_job *jobs;
	int nr;
	int next;		/* the next job to take (atomic) */
};

static bool inflate_one(void *dec, struct inflate_job *j)
{
	j->dst = mmap(NULL, j->dst_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (j->dst == MAP_FAILED) {
		j->dst = NULL;
		return false;
	}
#ifdef HAVE_LIBDEFLATE
	size_t got;

	return libdeflate_zlib_decompress(dec, j->src, j->src_len, j->dst, j->dst_len,
					  &got) == LIBDEFLATE_SUCCESS && got == j->dst_len;
#else
	uLongf got = j->dst_len;

	(void)dec;
	return uncompress(j->dst, &got, j->src, j->src_len) == Z_OK && got == j->dst_len;
#endif
}

static void *inflate_worker(void *arg)
{
	struct elf_inflated *in = arg;
	void *dec = NULL;
	int i;

#ifdef HAVE_LIBDEFLATE
	dec = libdeflate_alloc_decompressor();
	if (!dec)
		return NULL;
#endif
	while ((i = __atomic_fetch_add(&in->next, 1, __ATOMIC_RELAXED)) < in->nr)
		in->jobs[i].ok = inflate_one(dec, &in->jobs[i]);
#ifdef HAVE_LIBDEFLATE
	libdeflate_free_decompressor(dec);
#endif
	return NULL;
}

static int by_size_desc(const void *a, const void *b)
{
	const struct inflate_job *x = a, *y = b;

	return x->src_len < y->src_len ? 1 : x->src_len > y->src_len ? -1 : 0;
}

static bool listed(const char *name, const char *const *list)
{
	for (; list && *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

/* Hide @scn from libdw: a section without contents. */
static void hide_section(Elf_Scn *scn, GElf_Shdr *sh)
{
	sh->sh_type = SHT_NOBITS;
	gelf_update_shdr(scn, sh);
}

/* Add the job of section @scn if it is a zlib-compressed .debug_* one (unless hidden). */
static int add_job(struct elf_inflated *in, Elf *elf, size_t shstrndx, Elf_Scn *scn,
		   const char *const *hide)
{
	size_t hdr = gelf_getclass(elf) == ELFCLASS64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
	const char *name;
	struct inflate_job *j;
	GElf_Shdr sh;
	GElf_Chdr ch;
	Elf_Data *d;

	if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_COMPRESSED) ||
	    !(name = elf_strptr(elf, shstrndx, sh.sh_name)) || strncmp(name, ".debug_", 7) ||
	    !gelf_getchdr(scn, &ch) || ch.ch_type != ELFCOMPRESS_ZLIB || !ch.ch_size)
		return 0;
	if (listed(name, hide)) {
		hide_section(scn, &sh);
		return 0;
	}
	if (!(d = elf_getdata(scn, NULL)) || d->d_size <= hdr)
		return 0;
	j = realloc(in->jobs, (size_t)(in->nr + 1) * sizeof(*j));
	if (!j)
		return -ENOMEM;
	in->jobs = j;
	j = &in->jobs[in->nr++];
	*j = (struct inflate_job){ .scn = scn, .data = d, .src = (unsigned char *)d->d_buf + hdr,
				   .src_len = d->d_size - hdr, .dst_len = ch.ch_size,
				   .align = ch.ch_addralign ?: 1 };
	return 0;
}

/* Make job @j's section the inflated one, for libdw. */
static void install(struct inflate_job *j)
{
	GElf_Shdr sh;

	if (!j->ok || !gelf_getshdr(j->scn, &sh))
		return;
	sh.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	sh.sh_size = j->dst_len;
	if (!gelf_update_shdr(j->scn, &sh))
		return;
	j->data->d_buf = j->dst;
	j->data->d_size = j->dst_len;
	j->data->d_type = ELF_T_BYTE;
	j->data->d_align = j->align;
}

int elf_inflate_debug(Elf *elf, struct elf_inflated **out)
{
	return elf_inflate_debug_except(elf, NULL, out);
}

int elf_inflate_debug_except(Elf *elf, const char *const *hide, struct elf_inflated **out)
{
	struct elf_inflated *in = calloc(1, sizeof(*in));
	Elf_Scn *scn = NULL;
	size_t shstrndx, total = 0;
	pthread_t th;
	bool threaded;

	*out = NULL;
	if (!in)
		return -ENOMEM;
	if (elf_getshdrstrndx(elf, &shstrndx) == 0)
		while ((scn = elf_nextscn(elf, scn)))
			if (add_job(in, elf, shstrndx, scn, hide)) {
				elf_inflated__free(in);
				return -ENOMEM;
			}
	if (!in->nr) {
		elf_inflated__free(in);
		return 0;
	}
	qsort(in->jobs, (size_t)in->nr, sizeof(*in->jobs), by_size_desc);
	for (int i = 0; i < in->nr; i++)
		total += in->jobs[i].src_len;
	threaded = in->nr > 1 && total >= THREAD_MIN_INPUT && sysconf(_SC_NPROCESSORS_ONLN) > 1 &&
		   pthread_create(&th, NULL, inflate_worker, in) == 0;
	inflate_worker(in);
	if (threaded)
		pthread_join(th, NULL);
	for (int i = 0; i < in->nr; i++)
		install(&in->jobs[i]);
	*out = in;
	return 0;
}

void elf_inflated__free(struct elf_inflated *in)
{
	if (!in)
		return;
	for (int i = 0; i < in->nr; i++)
		if (in->jobs[i].dst)
			munmap(in->jobs[i].dst, in->jobs[i].dst_len);
	free(in->jobs);
	free(in);
}
