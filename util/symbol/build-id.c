// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Build-ids of ELF files, of the kernel and of the vDSO, and the DSOs a
 * recording's samples hit.  See util/symbol/build-id.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/symbol/build-id.h"
#include "util/lib/config.h"
#include "util/perf-data/header.h"

static int notes__read_build_id(const char *path, u8 *id, size_t size);

#define NT_GNU_BUILD_ID_TYPE 3

/* Walk a notes blob; the GNU build-id's length into @id, or -ENOENT. */
static int notes__find(const u8 *p, size_t n, u8 *id, size_t size)
{
	while (n >= 12) {
		u32 namesz, descsz, type;
		size_t nl, dl;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		nl = ((size_t)namesz + 3) & ~(size_t)3;
		dl = ((size_t)descsz + 3) & ~(size_t)3;
		if (nl > n - 12 || dl > n - 12 - nl)
			return -EINVAL;
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 && !memcmp(p + 12, "GNU", 4)) {
			size_t len = descsz < size ? descsz : size;

			memcpy(id, p + 12 + nl, len);
			return (int)len;
		}
		p += 12 + nl + dl;
		n -= 12 + nl + dl;
	}
	return -ENOENT;
}

/**
 * elf__build_id - see util/symbol/build-id.h
 */
int elf__build_id(Elf *elf, u8 *id, size_t size)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((const char *)d->d_buf + name_off, "GNU", 4))
				continue;
			memcpy(id, (const char *)d->d_buf + desc_off,
			       nh.n_descsz < size ? nh.n_descsz : size);
			return (int)nh.n_descsz;
		}
	}
	return -ENOENT;
}

/* elf__build_id() cut to the @size bytes copied */
static int elf_build_id_copied(Elf *elf, u8 *id, size_t size)
{
	int r = elf_kind(elf) == ELF_K_ELF ? elf__build_id(elf, id, size) : -EINVAL;

	return r > (int)size ? (int)size : r;
}

static int elf_mem_build_id(const void *buf, size_t n, u8 *id, size_t size)
{
	Elf *elf;
	int r;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)buf, n);
	if (!elf)
		return -EINVAL;
	r = elf_build_id_copied(elf, id, size);
	elf_end(elf);
	return r;
}

/**
 * filename__read_build_id - see util/symbol/build-id.h
 */
int filename__read_build_id(const char *path, u8 *id, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), r;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return -EINVAL;
	}
	r = elf_build_id_copied(elf, id, size);
	elf_end(elf);
	close(fd);
	return r;
}

/**
 * notes__read_build_id - see util/symbol/build-id.h
 */
/**
 * notes__read_build_id - the GNU build-id note in a raw notes blob such as
 * /sys/kernel/notes (@path).  Return: its length or -errno.
 */
static int notes__read_build_id(const char *path, u8 *id, size_t size)
{
	u8 buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -errno;
	return notes__find(buf, (size_t)n, id, size);
}

/**
 * vdso__image - see util/symbol/build-id.h
 */
int vdso__image(const void **start, size_t *len)
{
	char line[512];
	unsigned long long s, e;
	int r = -ENOENT;
	FILE *f = fopen("/proc/self/maps", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[vdso]") || sscanf(line, "%llx-%llx", &s, &e) != 2 || e <= s)
			continue;
		*start = (const void *)(uintptr_t)s;
		*len = (size_t)(e - s);
		r = 0;
		break;
	}
	fclose(f);
	return r;
}

/**
 * vdso__read_build_id - see util/symbol/build-id.h
 */
int vdso__read_build_id(u8 *id, size_t size)
{
	const void *start;
	size_t len;
	int r = vdso__image(&start, &len);

	return r ? r : elf_mem_build_id(start, len, id, size);
}

/**
 * buildid_dir__get - see util/symbol/build-id.h
 */
const char *buildid_dir__get(char *buf, size_t size)
{
	const char *d = tperf_config.buildid_dir ? tperf_config.buildid_dir :
			getenv("PERF_BUILDID_DIR");
	const char *home = getenv("HOME");

	if (d && d[0])
		return d;
	snprintf(buf, size, "%s/.debug", home ? home : "");
	return buf;
}

/* ---- which DSOs samples hit ---- */

struct dso_ent {
	char *name;
	bool kernel, hit;
};

struct map_ent {
	u64 start, end;
	int dso;
};

struct task_ent {
	struct task_ent *next;	/* hash chain */
	int pid;		/* the process (tgid); -1 for the kernel */
	int ppid;		/* where maps come from before its own; 0 none */
	struct map_ent *maps;
	int nr, cap;
};

#define TASK_HASH 4096

struct dso_hits {
	struct dso_ent *dsos;
	int nr_dsos, cap_dsos;
	struct task_ent *tasks[TASK_HASH];
	const struct map_ent *last;	/* cache of the last map hit */
	int last_pid;
	bool oom;
};

/**
 * dso_hits__new - an empty tracker (NULL on ENOMEM)
 */
struct dso_hits *dso_hits__new(void)
{
	return calloc(1, sizeof(struct dso_hits));
}

/**
 * dso_hits__delete - free the tracker
 */
void dso_hits__delete(struct dso_hits *h)
{
	if (!h)
		return;
	for (int i = 0; i < h->nr_dsos; i++)
		free(h->dsos[i].name);
	free(h->dsos);
	for (int i = 0; i < TASK_HASH; i++) {
		for (struct task_ent *t = h->tasks[i], *n; t; t = n) {
			n = t->next;
			free(t->maps);
			free(t);
		}
	}
	free(h);
}

static struct task_ent *task_find(struct dso_hits *h, int pid, bool create)
{
	struct task_ent **head = &h->tasks[(unsigned int)pid % TASK_HASH], *t;

	for (t = *head; t; t = t->next)
		if (t->pid == pid)
			return t;
	if (!create)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->pid = pid;
	t->next = *head;
	*head = t;
	return t;
}

static int dso_find(struct dso_hits *h, const char *name, bool kernel)
{
	for (int i = h->nr_dsos - 1; i >= 0; i--)
		if (h->dsos[i].kernel == kernel && !strcmp(h->dsos[i].name, name))
			return i;
	if (h->nr_dsos == h->cap_dsos) {
		int cap = h->cap_dsos ? h->cap_dsos * 2 : 64;
		struct dso_ent *d = realloc(h->dsos, (size_t)cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		h->dsos = d;
		h->cap_dsos = cap;
	}
	h->dsos[h->nr_dsos].name = strdup(name);
	if (!h->dsos[h->nr_dsos].name)
		return -ENOMEM;
	h->dsos[h->nr_dsos].kernel = kernel;
	h->dsos[h->nr_dsos].hit = false;
	return h->nr_dsos++;
}

static int add_map(struct dso_hits *h, int pid, u64 start, u64 len, const char *name,
		   bool kernel)
{
	struct task_ent *t = task_find(h, pid, true);
	int dso;

	/* "[kernel.kallsyms]_text" is the kernel DSO "[kernel.kallsyms]" */
	if (kernel && !strncmp(name, "[kernel.kallsyms]", 17))
		name = "[kernel.kallsyms]";
	dso = dso_find(h, name, kernel);
	if (!t || dso < 0)
		return -ENOMEM;
	if (t->nr == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		struct map_ent *m = realloc(t->maps, (size_t)cap * sizeof(*m));

		if (!m)
			return -ENOMEM;
		t->maps = m;
		t->cap = cap;
	}
	t->maps[t->nr++] = (struct map_ent){ start, start + len, dso };
	h->last = NULL;
	return 0;
}

static const struct map_ent *task_lookup(struct dso_hits *h, int pid, u64 ip)
{
	for (int depth = 0; depth < 8 && pid; depth++) {
		struct task_ent *t = task_find(h, pid, false);

		if (!t)
			return NULL;
		for (int i = t->nr - 1; i >= 0; i--)
			if (ip >= t->maps[i].start && ip < t->maps[i].end)
				return &t->maps[i];
		pid = t->ppid;
	}
	return NULL;
}

static void mark_hit(struct dso_hits *h, int pid, u64 ip)
{
	const struct map_ent *m;

	if (h->last && h->last_pid == pid && ip >= h->last->start && ip < h->last->end) {
		m = h->last;
	} else {
		m = task_lookup(h, pid, ip);
		h->last = m;
		h->last_pid = pid;
	}
	if (m)
		h->dsos[m->dso].hit = true;
}

static int on_sample(struct dso_hits *h, const struct perf_event_attr *attr,
		     const union perf_event *ev, size_t size)
{
	struct perf_sample s;
	u16 mode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (!attr || perf_sample__parse(attr, ev, size, &s))
		return 0;
	if (mode == PERF_RECORD_MISC_KERNEL)
		mark_hit(h, -1, s.ip);
	else if (mode == PERF_RECORD_MISC_USER)
		mark_hit(h, (int)s.pid, s.ip);
	return 0;
}

static void on_fork(struct dso_hits *h, const union perf_event *ev)
{
	struct task_ent *t;

	if (ev->fork.pid == ev->fork.ppid)
		return;		/* a new thread shares its process's maps */
	t = task_find(h, (int)ev->fork.pid, true);
	if (!t) {
		h->oom = true;
		return;
	}
	t->ppid = (int)ev->fork.ppid;
	t->nr = 0;
}

static void on_exec(struct dso_hits *h, const union perf_event *ev)
{
	struct task_ent *t = task_find(h, (int)ev->comm.pid, false);

	if (t && ev->comm.pid == ev->comm.tid) {
		t->nr = 0;
		t->ppid = 0;
		h->last = NULL;
	}
}

/**
 * dso_hits__record - see util/symbol/build-id.h
 */
int dso_hits__record(struct dso_hits *h, const struct perf_event_attr *attr,
		     const union perf_event *ev, size_t size)
{
	bool kernel = (ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	int err = 0;

	switch (ev->header.type) {
	case PERF_RECORD_SAMPLE:
		return on_sample(h, attr, ev, size);
	case PERF_RECORD_MMAP:
		if (size > sizeof(ev->mmap))
			err = add_map(h, kernel ? -1 : (int)ev->mmap.pid, ev->mmap.start,
				      ev->mmap.len, ev->mmap.filename, kernel);
		break;
	case PERF_RECORD_MMAP2:
		if (size > sizeof(ev->mmap2) && (ev->mmap2.prot & 4 /* PROT_EXEC */))
			err = add_map(h, kernel ? -1 : (int)ev->mmap2.pid, ev->mmap2.start,
				      ev->mmap2.len, ev->mmap2.filename, kernel);
		break;
	case PERF_RECORD_FORK:
		on_fork(h, ev);
		break;
	case PERF_RECORD_COMM:
		if (ev->header.misc & PERF_RECORD_MISC_COMM_EXEC)
			on_exec(h, ev);
		break;
	default:
		break;
	}
	return err ? err : h->oom ? -ENOMEM : 0;
}

static int dso_build_id(const struct dso_ent *d, u8 *id)
{
	if (d->kernel && !strcmp(d->name, "[kernel.kallsyms]"))
		return notes__read_build_id("/sys/kernel/notes", id, PERF_BUILD_ID_SIZE);
	if (!strcmp(d->name, "[vdso]"))
		return vdso__read_build_id(id, PERF_BUILD_ID_SIZE);
	if (d->name[0] != '/')
		return -ENOENT;
	return filename__read_build_id(d->name, id, PERF_BUILD_ID_SIZE);
}

/**
 * dso_hits__mark_all - see util/symbol/build-id.h
 */
void dso_hits__mark_all(struct dso_hits *h)
{
	for (int i = 0; i < h->nr_dsos; i++)
		h->dsos[i].hit = true;
}

/**
 * dso_hits__fill_env - see util/symbol/build-id.h
 */
int dso_hits__fill_env(struct dso_hits *h, struct perf_env *env)
{
	for (int i = 0; i < h->nr_dsos; i++) {
		struct perf_build_id_entry *e, *n;
		u8 id[PERF_BUILD_ID_SIZE] = { 0 };
		int len;

		/*
		 * perf writes the vDSO's whether or not a sample hit it (and
		 * caches it): a DWARF unwind through it needs its image later
		 */
		if (!h->dsos[i].hit && (h->dsos[i].kernel || strcmp(h->dsos[i].name, "[vdso]")))
			continue;
		len = dso_build_id(&h->dsos[i], id);
		if (len <= 0)
			continue;
		n = realloc(env->build_ids, (env->nr_build_ids + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		env->build_ids = n;
		e = &n[env->nr_build_ids];
		memset(e, 0, sizeof(*e));
		e->pid = -1;
		e->misc = h->dsos[i].kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		e->size = (u8)len;
		memcpy(e->build_id, id, (size_t)len);
		e->filename = strdup(h->dsos[i].name);
		if (!e->filename)
			return -ENOMEM;
		env->nr_build_ids++;
	}
	return 0;
}
