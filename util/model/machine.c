// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine model: threads, maps, DSOs and symbol loading, following the
 * rules perf 6.1 applies when it replays a perf.data.
 */
#include <errno.h>
#include <gelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/lib/io.h"
#include "util/lib/batch-pipe.h"
#include "util/symbol/build-id.h"
#include "util/perf-data/data.h"
#include "util/lib/debug.h"
#include "util/lib/file.h"
#include "util/symbol/dwarf-preload.h"
#include "util/model/machine.h"

#define NR_THREAD_HASH	(sizeof(((struct machine *)0)->threads) / sizeof(struct thread *))

static void *pool_add(struct machine *m, void *p)
{
	if (!p)
		return NULL;
	if (m->nr_pool == m->alloc_pool) {
		size_t n = m->alloc_pool ? m->alloc_pool * 2 : 256;
		void **q = realloc(m->pool, n * sizeof(*q));

		if (!q) {
			free(p);
			return NULL;
		}
		m->pool = q;
		m->alloc_pool = n;
	}
	m->pool[m->nr_pool++] = p;
	return p;
}

static size_t str_hash(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static int strs_grow(struct machine *m)
{
	size_t n = m->alloc_strs ? m->alloc_strs * 2 : 1024;
	char **t = calloc(n, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < m->alloc_strs; i++) {
		size_t j;

		if (!m->strs[i])
			continue;
		for (j = str_hash(m->strs[i]) & (n - 1); t[j]; j = (j + 1) & (n - 1))
			;
		t[j] = m->strs[i];
	}
	free(m->strs);
	m->strs = t;
	m->alloc_strs = n;
	return 0;
}

const char *machine__intern(struct machine *m, const char *s)
{
	size_t j;

	if (2 * (m->nr_strs + 1) > m->alloc_strs && strs_grow(m))
		return NULL;
	for (j = str_hash(s) & (m->alloc_strs - 1); m->strs[j]; j = (j + 1) & (m->alloc_strs - 1))
		if (!strcmp(m->strs[j], s))
			return m->strs[j];
	m->strs[j] = strdup(s);
	if (!m->strs[j])
		return NULL;
	m->nr_strs++;
	return m->strs[j];
}

static struct comm *comm__new(struct machine *m, const char *s)
{
	const char *str = machine__intern(m, s);
	struct comm *c;

	if (!str)
		return NULL;
	c = pool_add(m, malloc(sizeof(*c)));
	if (c)
		c->str = str;
	return c;
}

static struct dso *machine__add_dso(struct machine *m, const char *name, enum dso_kind kind)
{
	struct dso *d;

	if (m->nr_dsos == m->alloc_dsos) {
		size_t n = m->alloc_dsos ? m->alloc_dsos * 2 : 64;
		struct dso **p = realloc(m->dsos, n * sizeof(*p));

		if (!p)
			return NULL;
		m->dsos = p;
		m->alloc_dsos = n;
	}
	d = dso__new(name, kind, m->nr_dsos);
	if (d)
		m->dsos[m->nr_dsos++] = d;
	return d;
}

static struct dso *machine__find_dso(struct machine *m, const char *name)
{
	for (size_t i = m->nr_dsos; i-- > 0;)
		if (!strcmp(m->dsos[i]->long_name, name))
			return m->dsos[i];
	return NULL;
}

static struct dso *machine__findnew_dso(struct machine *m, const char *name, enum dso_kind kind)
{
	struct dso *d = machine__find_dso(m, name);

	return d ? d : machine__add_dso(m, name, kind);
}

/*
 * perf tells DSOs of one path apart by the device and inode of MMAP2: a
 * file replaced between two runs is a second DSO.  A DSO without them (from
 * the build-id table, or MMAP) matches and takes the first ones seen.
 */
static struct dso *machine__findnew_dso_id(struct machine *m, const char *name,
					   enum dso_kind kind, const struct perf_record_mmap2 *mm)
{
	bool id = mm && (mm->maj || mm->min || mm->ino || mm->ino_generation);
	struct dso *d;

	for (size_t i = 0; i < m->nr_dsos; i++) {
		d = m->dsos[i];
		if (strcmp(d->long_name, name))
			continue;
		if (!id || !d->has_id) {
			if (id) {
				d->has_id = true;
				d->maj = mm->maj;
				d->min = mm->min;
				d->ino = mm->ino;
				d->ino_gen = mm->ino_generation;
			}
			return d;
		}
		/* synthesized MMAP2s have no inode generation: not compared then */
		if (d->maj == mm->maj && d->min == mm->min && d->ino == mm->ino &&
		    (!d->ino_gen || !mm->ino_generation || d->ino_gen == mm->ino_generation))
			return d;
	}
	d = machine__add_dso(m, name, kind);
	if (d && id) {
		d->has_id = true;
		d->maj = mm->maj;
		d->min = mm->min;
		d->ino = mm->ino;
		d->ino_gen = mm->ino_generation;
	}
	return d;
}

static bool is_kernel_name(const char *name)
{
	return !strncmp(name, "[kernel.kallsyms", 16) || !strncmp(name, "[guest.kernel.kallsyms", 22);
}

static struct dso *machine__kernel_dso(struct machine *m)
{
	if (!m->kernel_dso)
		m->kernel_dso = machine__findnew_dso(m, "[kernel.kallsyms]", DSO_KERNEL);
	return m->kernel_dso;
}

static struct map *map__new(struct machine *m, u64 start, u64 len, u64 pgoff, struct dso *dso)
{
	struct map *map = pool_add(m, calloc(1, sizeof(*map)));

	if (!map)
		return NULL;
	map->start = start;
	map->end = start + len < start ? ~0ULL : start + len;
	map->pgoff = pgoff;
	map->dso = dso;
	return map;
}

static struct map *clone_map(void *ctx, const struct map *old)
{
	struct machine *m = ctx;
	struct map *map = pool_add(m, malloc(sizeof(*map)));

	if (map)
		*map = *old;
	return map;
}

/* The kernel map, created on first use (identity: kallsyms are absolute). */
static struct map *machine__kernel_map(struct machine *m)
{
	struct dso *k;

	if (m->kernel_map)
		return m->kernel_map;
	k = machine__kernel_dso(m);
	if (!k)
		return NULL;
	m->kernel_map = map__new(m, 0, ~0ULL, 0, k);
	if (!m->kernel_map)
		return NULL;
	m->kernel_map->identity = true;
	if (maps__insert(m->kmaps, m->kernel_map, clone_map, m))
		return NULL;
	return m->kernel_map;
}

/* A symfs that names the root directory: "", "/", or "/tmp/.." */
static bool symfs_is_root(const char *symfs)
{
	char *real = realpath(symfs, NULL);
	bool root = !symfs[0] || !strcmp(real ? real : symfs, "/");

	free(real);
	return root;
}

/**
 * machine_opts__dwarf_preload - see machine.h
 */
void machine_opts__dwarf_preload(struct machine_opts *o, const struct perf_data *d)
{
	const struct perf_header *h = &d->header;

	if (d->is_pipe || d->is_dir)
		return;
	for (int i = 0; i < h->nr_attrs; i++)
		if (h->attrs[i].attr.sample_type & PERF_SAMPLE_STACK_USER) {
			o->dwarf_preload_file = d->path;
			o->dwarf_preload_start = d->data_start;
			o->dwarf_preload_end = d->data_end;
			return;
		}
}

int machine__init(struct machine *m, const struct machine_opts *o, const struct perf_env *env)
{
	struct thread *idle;

	memset(m, 0, sizeof(*m));
	m->o = *o;
	m->vdso_fd = -1;
	if (m->o.symfs && symfs_is_root(m->o.symfs))
		m->o.symfs = NULL;	/* perf: "/" is no symfs */
	m->env = env;
	m->kmaps = maps__new();
	if (!m->kmaps)
		return -ENOMEM;
	for (u32 i = 0; env && i < env->nr_build_ids; i++) {
		const struct perf_build_id_entry *b = &env->build_ids[i];
		u16 mode = b->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		bool kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
		struct dso *d;

		if (!b->filename)
			continue;
		if (kernel && is_kernel_name(b->filename))
			d = machine__kernel_dso(m);
		else
			d = machine__findnew_dso(m, b->filename,
						 kernel ? DSO_MODULE : dso__kind_of(b->filename));
		if (!d)
			return -ENOMEM;
		/* perf: a later entry for the same file wins */
		dso__set_build_id(d, b->build_id, b->size ? b->size : PERF_BUILD_ID_SIZE);
	}
	if (m->o.dwarf_preload_file)
		m->dwarf_preload = dwarf_preload__start(m->o.dwarf_preload_file,
							m->o.dwarf_preload_start,
							m->o.dwarf_preload_end, m->o.symfs);
	idle = machine__findnew_thread(m, 0, 0);
	if (!idle || !(idle->comm = comm__new(m, "swapper")))
		return -ENOMEM;
	idle->comm_set = true;
	return 0;
}

static void preload_cancel(struct machine *m);

void machine__exit(struct machine *m)
{
	preload_cancel(m);
	/* its symbols are in the kernel DSO's chunks */
	symtab__exit(&m->modsyms);
	if (m->unwinder && m->unwinder_free)
		m->unwinder_free(m->unwinder);
	m->unwinder = NULL;
	dwarf_preload__free(m->dwarf_preload);	/* after the unwinder: it took from it */
	m->dwarf_preload = NULL;
	free(m->user_addrs);
	m->user_addrs = NULL;
	if (m->vdso_fd >= 0)
		close(m->vdso_fd);
	m->vdso_fd = -1;
	for (size_t i = 0; i < NR_THREAD_HASH; i++) {
		struct thread *t = m->threads[i], *n;

		for (; t; t = n) {
			n = t->hnext;
			thread__delete(t);
		}
	}
	for (struct thread *t = m->removed, *n; t; t = n) {
		n = t->hnext;
		thread__delete(t);
	}
	for (size_t i = 0; i < m->nr_dsos; i++)
		dso__delete(m->dsos[i]);
	free(m->dsos);
	for (size_t i = 0; i < m->nr_pool; i++)
		free(m->pool[i]);
	free(m->pool);
	for (size_t i = 0; i < m->alloc_strs; i++)
		free(m->strs[i]);
	free(m->strs);
	maps__put(m->kmaps);
	memset(m, 0, sizeof(*m));
}

static struct thread *machine__find_thread(struct machine *m, int tid)
{
	struct thread *t = m->threads[(unsigned int)tid % NR_THREAD_HASH];

	while (t && t->tid != tid)
		t = t->hnext;
	return t;
}

/* A thread that is not its process' leader shares the leader's maps. */
static int thread__init_maps(struct machine *m, struct thread *t)
{
	struct thread *leader;

	if (t->pid == t->tid || t->pid == -1) {
		t->maps = maps__new();
		return t->maps ? 0 : -ENOMEM;
	}
	leader = machine__findnew_thread(m, t->pid, t->pid);
	if (!leader)
		return -ENOMEM;
	t->maps = maps__get(leader->maps);
	return 0;
}

static void machine__update_pid(struct machine *m, struct thread *t, int pid)
{
	struct thread *leader;

	if (pid == t->pid || pid == -1 || t->pid != -1)
		return;
	t->pid = pid;
	if (t->pid == t->tid)
		return;
	leader = machine__findnew_thread(m, pid, pid);
	if (leader && leader->maps != t->maps) {
		maps__put(t->maps);
		t->maps = maps__get(leader->maps);
	}
}

struct thread *machine__findnew_thread(struct machine *m, int pid, int tid)
{
	struct thread *t = machine__find_thread(m, tid);
	char buf[32];
	struct comm *c;

	if (t) {
		machine__update_pid(m, t, pid);
		return t;
	}
	snprintf(buf, sizeof(buf), ":%d", tid);
	c = comm__new(m, buf);
	t = c ? thread__new(pid, tid, c) : NULL;
	if (!t)
		return NULL;
	t->hnext = m->threads[(unsigned int)tid % NR_THREAD_HASH];
	m->threads[(unsigned int)tid % NR_THREAD_HASH] = t;
	if (thread__init_maps(m, t))
		return NULL;
	return t;
}

static void machine__remove_thread(struct machine *m, struct thread *t)
{
	struct thread **pp = &m->threads[(unsigned int)t->tid % NR_THREAD_HASH];

	while (*pp && *pp != t)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = t->hnext;
	t->hnext = m->removed;
	m->removed = t;
}

static int thread__set_comm(struct machine *m, struct thread *t, const char *s)
{
	if (!t->comm_set) {
		const char *str = machine__intern(m, s);

		if (!str)
			return -ENOMEM;
		t->comm->str = str;	/* entries made so far take the name too */
	} else {
		struct comm *c = comm__new(m, s);

		if (!c)
			return -ENOMEM;
		t->comm = c;
	}
	t->comm_set = true;
	return 0;
}

static int process_comm(struct machine *m, const union perf_event *ev, size_t size)
{
	struct thread *t = machine__findnew_thread(m, ev->comm.pid, ev->comm.tid);
	char buf[256];
	size_t n = size - sizeof(ev->comm);

	if (!t)
		return -ENOMEM;
	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, ev->comm.comm, n);
	buf[n] = '\0';
	return thread__set_comm(m, t, buf);
}

static int process_fork(struct machine *m, const union perf_event *ev)
{
	const struct perf_record_fork *f = &ev->fork;
	struct thread *t = machine__find_thread(m, f->tid);
	struct thread *parent = machine__findnew_thread(m, f->ppid, f->ptid);

	if (!parent)
		return -ENOMEM;
	if (parent->pid != (int)f->ppid) {
		machine__remove_thread(m, parent);
		parent = machine__findnew_thread(m, f->ppid, f->ptid);
		if (!parent)
			return -ENOMEM;
	}
	if (t && t != parent)
		machine__remove_thread(m, t);
	t = machine__findnew_thread(m, f->pid, f->tid);
	if (!t)
		return -ENOMEM;
	if (parent->comm_set && thread__set_comm(m, t, parent->comm->str))
		return -ENOMEM;
	t->ppid = parent->tid;
	if (t->pid == parent->pid || t->maps == parent->maps)
		return 0;
	if (ev->header.misc & PERF_RECORD_MISC_FORK_EXEC)
		return 0;
	return maps__copy(t->maps, parent->maps);
}

/*
 * perf's kernel map reaches the next kernel map (a module) or the end of
 * the address space, whatever length the record gives: init text and
 * other sections after _etext resolve to [kernel.kallsyms].
 */
static int kernel_map__reinsert(struct machine *m, struct map *map)
{
	size_t i;

	map->end = ~0ULL;
	for (i = 0; i < m->kmaps->nr; i++)
		if (m->kmaps->m[i]->start > map->start) {
			map->end = m->kmaps->m[i]->start;
			break;
		}
	return maps__insert(m->kmaps, map, clone_map, m);
}

static void preload_start(struct machine *m);

static int process_kernel_mmap(struct machine *m, const char *name, u64 start, u64 len,
			       u64 pgoff)
{
	struct map *map;
	struct dso *d;

	if (is_kernel_name(name)) {
		map = machine__kernel_map(m);
		if (!map)
			return -ENOMEM;
		maps__remove(m->kmaps, map);
		map->start = start;
		/* "[kernel.kallsyms]_text": pgoff is where _text was */
		if (strchr(name, ']') && strchr(name, ']')[1]) {
			snprintf(m->kernel_ref, sizeof(m->kernel_ref), "%s", strchr(name, ']') + 1);
			m->kernel_ref_addr = pgoff;
		}
		(void)len;
		preload_start(m);
		return kernel_map__reinsert(m, map);
	}
	if (name[0] != '/' && name[0] != '[')
		return 0;
	d = machine__findnew_dso(m, name, DSO_MODULE);
	map = d ? map__new(m, start, len, 0, d) : NULL;
	if (!map)
		return -ENOMEM;
	if (m->kernel_map && m->kernel_map->start < start && m->kernel_map->end > start)
		m->kernel_map->end = start;
	return maps__insert(m->kmaps, map, clone_map, m);
}

static int process_mmap(struct machine *m, const union perf_event *ev, size_t size)
{
	bool v2 = ev->header.type == PERF_RECORD_MMAP2;
	const char *fname = v2 ? ev->mmap2.filename : ev->mmap.filename;
	size_t off = (size_t)(fname - (const char *)ev);
	u16 mode = ev->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	u64 start = v2 ? ev->mmap2.start : ev->mmap.start;
	u64 len = v2 ? ev->mmap2.len : ev->mmap.len;
	u64 pgoff = v2 ? ev->mmap2.pgoff : ev->mmap.pgoff;
	u32 prot = v2 ? ev->mmap2.prot : PROT_EXEC;
	char name[4096], jit[64];
	enum dso_kind kind;
	struct thread *t;
	struct map *map;
	struct dso *d;
	size_t n;

	if (off >= size)
		return 0;
	n = strnlen(fname, size - off);
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, fname, n);
	name[n] = '\0';
	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL)
		return process_kernel_mmap(m, name, start, len, pgoff);
	t = machine__findnew_thread(m, v2 ? ev->mmap2.pid : ev->mmap.pid,
				    v2 ? ev->mmap2.tid : ev->mmap.tid);
	if (!t)
		return -ENOMEM;
	kind = dso__kind_of(name);
	if (kind == DSO_NONE && (prot & PROT_EXEC)) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", t->pid);
		snprintf(name, sizeof(name), "%s", jit);
		kind = DSO_JIT;
	}
	d = machine__findnew_dso_id(m, name, kind,
				    v2 && !(ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) ?
				    &ev->mmap2 : NULL);
	if (!d)
		return -ENOMEM;
	if (v2 && (ev->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) && !d->has_build_id)
		dso__set_build_id(d, ev->mmap2.build_id, ev->mmap2.build_id_size);
	map = map__new(m, start, len, kind == DSO_VDSO ? 0 : pgoff, d);
	if (!map)
		return -ENOMEM;
	map->identity = kind == DSO_NONE || kind == DSO_JIT;
	return maps__insert(t->maps, map, clone_map, m);
}

static int process_ksymbol(struct machine *m, const union perf_event *ev, size_t size)
{
	const struct perf_record_ksymbol *k = &ev->ksymbol;
	char name[512];
	size_t n = size > sizeof(*k) ? size - sizeof(*k) : 0;
	struct map *map;
	struct dso *d;
	struct symbol *s;

	n = strnlen(k->name, n);
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, k->name, n);
	name[n] = '\0';
	map = maps__find(m->kmaps, k->addr);
	if (k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER) {
		if (map && map != m->kernel_map)
			maps__remove(m->kmaps, map);
		return 0;
	}
	if (!map || map == m->kernel_map) {
		d = machine__add_dso(m, name, DSO_BPF);
		map = d ? map__new(m, k->addr, k->len, 0, d) : NULL;
		if (!map || maps__insert(m->kmaps, map, clone_map, m))
			return -ENOMEM;
		d->loaded = true;
	}
	s = symbol__new(map__map_ip(map, k->addr), k->len, STB_GLOBAL, STT_FUNC, name);
	if (!s || symtab__add(&map->dso->syms, s))
		return -ENOMEM;
	return 0;
}

int machine__process_event(struct machine *m, const union perf_event *ev,
			   const struct perf_sample *s)
{
	size_t size = ev->header.size;
	struct thread *t;

	switch (ev->header.type) {
	case PERF_RECORD_COMM:
		return size > sizeof(ev->comm) ? process_comm(m, ev, size) : 0;
	case PERF_RECORD_FORK:
		return size >= sizeof(ev->fork) ? process_fork(m, ev) : 0;
	case PERF_RECORD_EXIT:
		if (size < sizeof(ev->fork))
			return 0;
		t = machine__find_thread(m, ev->fork.tid);
		if (t)
			t->dead = true;
		return 0;
	case PERF_RECORD_MMAP:
		return size > sizeof(ev->mmap) ? process_mmap(m, ev, size) : 0;
	case PERF_RECORD_MMAP2:
		return size > sizeof(ev->mmap2) ? process_mmap(m, ev, size) : 0;
	case PERF_RECORD_KSYMBOL:
		return size > sizeof(ev->ksymbol) ? process_ksymbol(m, ev, size) : 0;
	default:
		return 0;
	}
	(void)s;
}

/* Symbol loading */

/* The build-id cache: under --symfs its .debug, as perf */
static const char *buildid_dir(struct machine *m, char *buf, size_t size)
{
	if (m->o.symfs) {
		snprintf(buf, size, "%s/.debug", m->o.symfs);
		return buf;
	}
	return m->o.buildid_dir ? m->o.buildid_dir : buildid_dir__get(buf, size);
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* ~/.debug/.build-id/xx/rest/@leaf of the build-id @hex */
static bool cache_path_hex(struct machine *m, const char *dir, const char *hex, const char *leaf,
			   char *buf, size_t size)
{
	snprintf(buf, size, "%s/.build-id/%.2s/%s/%s", dir, hex, hex + 2, leaf);
	return is_file(buf);
}

static bool cache_path(struct machine *m, struct dso *d, const char *leaf, char *buf, size_t size)
{
	char hex[2 * PERF_BUILD_ID_SIZE + 1], dir[2048];

	if (!d->has_build_id)
		return false;
	dso__build_id_hex(d, hex);
	return cache_path_hex(m, buildid_dir(m, dir, sizeof(dir)), hex, leaf, buf, size);
}

static const char *symfs(struct machine *m)
{
	return m->o.symfs ? m->o.symfs : "";
}

/* A file with .symtab for @d: debuglink, build-id cache, /usr/lib/debug/.build-id. */
static bool find_debug(struct machine *m, struct dso *d, const char *path, char *buf, size_t size)
{
	char link[1024], dir[4096], hex[2 * PERF_BUILD_ID_SIZE + 1];
	char *slash;

	if (is_file(path) && !elf__debuglink(path, link, sizeof(link))) {
		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		const char *fmts[] = { "%.0s%s", "%s/%s", "%s/.debug/%s", "/usr/lib/debug%s/%s" };

		for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
			snprintf(buf, size, fmts[i], dir, link);
			if (is_file(buf) && strcmp(buf, path))
				return true;
		}
	}
	if (cache_path(m, d, "debug", buf, size))
		return true;
	if (d->has_build_id) {
		dso__build_id_hex(d, hex);
		snprintf(buf, size, "%s/usr/lib/debug/.build-id/%.2s/%s.debug", symfs(m), hex,
			 hex + 2);
		if (is_file(buf))
			return true;
	}
	return false;
}

/*
 * The file at @d's path is another build than the one recorded: its
 * symbols would be wrong, so it has none.  Said once, as DSOs load once.
 */
static void dso__warn_mismatch(struct machine *m, struct dso *d)
{
	char hex[2 * PERF_BUILD_ID_SIZE + 1];

	dso__build_id_hex(d, hex);
	say(m->o.say, SAY_WARNING, "'%s%s' is not the file that was recorded (build-id %s): its "
	    "samples get no symbols; put the recorded file under --symfs or in the "
	    "build-id cache", symfs(m), d->long_name, hex);
}

/* perf's -v letter: B build-id cache, b /usr/lib/debug/.build-id, l debuglink, d the file */
static char origin_of(struct machine *m, struct dso *d, const char *debug)
{
	char buf[4096];

	if (debug && strstr(debug, "/.build-id/") && !strstr(debug, "/usr/lib/debug/"))
		return 'D';
	if (cache_path(m, d, "elf", buf, sizeof(buf)))
		return 'B';
	if (debug && strstr(debug, "/.build-id/"))
		return 'b';
	return debug ? 'l' : 'd';
}

static void dso__load_user(struct machine *m, struct dso *d)
{
	char path[4096], debug[4096], cached[4096];
	struct elf_syms_opts o = { d->has_build_id ? d->build_id : NULL, d->build_id_size };
	bool have_debug, mismatch;
	int err;

	snprintf(path, sizeof(path), "%s%s", symfs(m), d->long_name);
	if (!d->has_build_id) {	/* pipe mode: take the file's, as perf does */
		u8 bid[PERF_BUILD_ID_SIZE];
		int n = filename__read_build_id(path, bid, sizeof(bid));

		if (n > 0) {
			dso__set_build_id(d, bid, n);
			o.build_id = d->build_id;
			o.build_id_size = d->build_id_size;
		}
	}
	/*
	 * perf reads symbols from the first file with a .symtab, and looks in
	 * the build-id cache before the path: a stripped file at the path
	 * yields to the recorded one the cache holds.
	 */
	have_debug = find_debug(m, d, path, debug, sizeof(debug));
	if (!elf__has_symtab(path) && cache_path(m, d, "elf", cached, sizeof(cached)) &&
	    elf__has_symtab(cached))
		snprintf(path, sizeof(path), "%s", cached);
	err = symtab__load_elf(&d->syms, path, have_debug ? debug : NULL, &o);
	mismatch = err == -ESRCH;
	if (err < 0 && cache_path(m, d, "elf", path, sizeof(path)))
		err = symtab__load_elf(&d->syms, path, have_debug ? debug : NULL, &o);
	if (err < 0 && have_debug)
		err = symtab__load_elf(&d->syms, debug, NULL, &o);
	if (err < 0 && mismatch)
		dso__warn_mismatch(m, d);
	else if (err < 0)
		pr_debug("no symbols for '%s': %s\n", d->long_name, strerror(-err));
	d->origin = err < 0 ? '!' : origin_of(m, d, have_debug ? debug : NULL);
	/* for the line tables (srcline.c) */
	if (err >= 0 && is_file(path))
		d->bin_path = strdup(path);
	if (have_debug)
		d->debug_path = strdup(debug);
}

/*
 * A JIT's map, /tmp/perf-PID.map: "START SIZE name" lines.  Only a regular
 * file (the recording names it), and lines of at most JIT_MAP_LINE_MAX
 * bytes: the symbols before a longer one are kept.
 */
#define JIT_MAP_LINE_MAX (64 << 10)

static void dso__load_jit(struct dso *d)
{
	FILE *f = file__fopen(d->long_name, -1, NULL);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f) {
		pr_debug("no symbols for '%s': %s\n", d->long_name,
			 errno == EINVAL ? "not a regular file" : strerror(errno));
		return;
	}
	while ((n = file__getline(&line, &cap, f, JIT_MAP_LINE_MAX)) > 0) {
		unsigned long long start, len;
		int pos = 0;
		struct symbol *s;

		if (sscanf(line, "%llx %llx %n", &start, &len, &pos) < 2 || !pos)
			continue;
		line[strcspn(line, "\n")] = '\0';
		s = symbol__new(start, len, STB_GLOBAL, STT_FUNC, line + pos);
		if (!s || symtab__add(&d->syms, s))
			break;
	}
	if (n < 0)
		pr_debug("'%s': %s\n", d->long_name, errno == EOVERFLOW ?
			 "a line longer than 64 KiB, the rest not read" : strerror(errno));
	free(line);
	fclose(f);
	symtab__fixup(&d->syms, false);
}

/* The running kernel's build-id, from /sys/kernel/notes. */
static int running_kernel_build_id(u8 *bid)
{
	FILE *f = fopen("/sys/kernel/notes", "r");
	u8 buf[4096];
	size_t n, off = 0;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	while (off + 12 <= n) {
		u32 namesz, descsz, type;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		off += 12;
		if (namesz > n || descsz > n)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && off + 4 + descsz <= n &&
		    !memcmp(buf + off, "GNU", 4)) {
			size_t k = descsz < PERF_BUILD_ID_SIZE ? descsz : PERF_BUILD_ID_SIZE;

			memcpy(bid, buf + off + 4, k);
			return k;
		}
		off += (namesz + 3) / 4 * 4 + (descsz + 3) / 4 * 4;
	}
	return -ENOENT;
}

/*
 * What the kernel's symbols are loaded from: taken when a load starts and
 * compared when its symbols are wanted (a second thread may have loaded
 * them from what was known at the kernel MMAP).
 */
struct kernel_src {
	char ref[64];			/* machine.kernel_ref, kernel_ref_addr */
	u64 ref_addr;
	bool has_build_id;		/* the kernel DSO's build-id */
	u8 build_id_size;
	u8 build_id[PERF_BUILD_ID_SIZE];
	char hex[2 * PERF_BUILD_ID_SIZE + 1];
	char dir[2048];			/* buildid_dir() */
};

static void kernel_src__get(struct machine *m, struct kernel_src *src)
{
	struct dso *k = m->kernel_dso;
	char dir[sizeof(src->dir)];

	memset(src, 0, sizeof(*src));
	memcpy(src->ref, m->kernel_ref, sizeof(src->ref));
	src->ref_addr = m->kernel_ref_addr;
	if (k && k->has_build_id) {
		src->has_build_id = true;
		src->build_id_size = k->build_id_size;
		memcpy(src->build_id, k->build_id, k->build_id_size);
		dso__build_id_hex(k, src->hex);
	}
	snprintf(src->dir, sizeof(src->dir), "%s", buildid_dir(m, dir, sizeof(dir)));
}

static const char *kallsyms_path(struct machine *m, const struct kernel_src *src, char *buf,
				 size_t size)
{
	u8 bid[PERF_BUILD_ID_SIZE];
	int n;

	if (m->o.kallsyms)
		return m->o.kallsyms;
	if (m->o.symfs)
		return NULL;	/* perf: with a symfs, no local kernel symbols */
	if (!src->has_build_id)
		return "/proc/kallsyms";
	n = running_kernel_build_id(bid);
	if (n == src->build_id_size && !memcmp(bid, src->build_id, n))
		return "/proc/kallsyms";
	if (cache_path_hex(m, src->dir, src->hex, "kallsyms", buf, size))
		return buf;
	return NULL;
}

/*
 * The kernel's symbols loading on a second thread.  The machine's thread,
 * when it wants them first, parses the segments of the file that are left
 * (kallsyms_load__work()) and then waits for the thread to end.  Nothing
 * else touches the kernel DSO's symbols or modsyms until then: the thread
 * fills its own symtabs, and only reads @src and the machine's options.
 */
struct kernel_preload {
	struct machine *m;
	struct kernel_src src;
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct kallsyms_load *load;	/* being parsed, others may help */
	unsigned int gen;		/* loads published so far */
	unsigned int helpers;		/* threads in kallsyms_load__work(load) */
	bool done;
	atomic_bool stop;		/* nobody wants the symbols: stop soon */
	struct symtab kern, mods;	/* the result */
	int err;
};

/* One kallsyms file into @all; with @kp, others may help parse it. */
static int load_file(struct kernel_preload *kp, const char *path, const char *ref, u64 *addr,
		     struct symtab *all, size_t *nr_mod)
{
	struct kallsyms_load *l = kallsyms_load__open(path, ref, kp ? &kp->stop : NULL);

	if (!l)
		return errno ? -errno : -ENOMEM;
	if (kp) {
		pthread_mutex_lock(&kp->lock);
		kp->load = l;
		kp->gen++;
		pthread_cond_broadcast(&kp->cond);
		pthread_mutex_unlock(&kp->lock);
	}
	kallsyms_load__work(l);
	if (kp) {
		pthread_mutex_lock(&kp->lock);
		kp->load = NULL;
		while (kp->helpers)
			pthread_cond_wait(&kp->cond, &kp->lock);
		pthread_mutex_unlock(&kp->lock);
		if (atomic_load(&kp->stop)) {
			kallsyms_load__abort(l);
			return -ECANCELED;
		}
	}
	return kallsyms_load__finish(l, all, addr, nr_mod);
}

/*
 * The kernel's symbols.  The copy of kallsyms the build-id cache took when
 * the file was recorded is a regular file, read three times faster than
 * /proc/kallsyms, which the kernel formats on every read; it is taken when
 * it places the recorded kernel's reference symbol (_text) where the
 * recording saw it (KASLR moves it every boot).  Otherwise kallsyms_path().
 * With a --symfs (and no --kallsyms) perf reads neither: nor do we.
 * Runs on the preload thread too: it reads only @src and m->o.
 */
static int load_kallsyms(struct machine *m, const struct kernel_src *src,
			 struct kernel_preload *kp, struct symtab *all, size_t *nr_mod)
{
	char buf[4096];
	const char *path;
	int err;

	if (!m->o.kallsyms && !m->o.symfs && src->has_build_id && src->ref[0] &&
	    cache_path_hex(m, src->dir, src->hex, "kallsyms", buf, sizeof(buf))) {
		u64 addr = 0;

		err = load_file(kp, buf, src->ref, &addr, all, nr_mod);
		if (err >= 0 && addr == src->ref_addr)
			return 0;
		symtab__exit(all);
		*nr_mod = 0;
		if (err == -ECANCELED)
			return err;
	}
	path = kallsyms_path(m, src, buf, sizeof(buf));
	err = path ? load_file(kp, path, NULL, NULL, all, nr_mod) : -ENOENT;
	return err < 0 ? err : 0;
}

/*
 * kallsyms: kernel symbols to @kern, "name\t[mod]" ones to @mods; @all's
 * chunks to @kern.  @nr_mod 0: there are none of the second kind.
 */
static int kernel_split(struct symtab *all, struct symtab *kern, struct symtab *mods,
			size_t nr_mod)
{
	size_t n = 0;

	for (size_t i = 0; nr_mod && i < all->nr; i++) {
		struct symbol *s = all->syms[i];

		if (!(s->flags & SYMBOL_KMODULE)) {
			all->syms[n++] = s;
		} else if (symtab__add(mods, s)) {
			symtab__exit(mods);	/* all in @all's chunks */
			return -ENOMEM;
		}
	}
	*kern = *all;
	if (nr_mod)
		kern->nr = n;
	memset(all, 0, sizeof(*all));
	kern->sorted = true;
	mods->sorted = true;
	return 0;
}

static void *preload_thread(void *arg)
{
	struct kernel_preload *kp = arg;
	struct symtab all = { 0 };
	size_t nr_mod = 0;

	kp->err = load_kallsyms(kp->m, &kp->src, kp, &all, &nr_mod);
	if (!kp->err)
		kp->err = kernel_split(&all, &kp->kern, &kp->mods, nr_mod);
	symtab__exit(&all);
	pthread_mutex_lock(&kp->lock);
	kp->done = true;
	pthread_cond_broadcast(&kp->cond);
	pthread_mutex_unlock(&kp->lock);
	return NULL;
}

/* At the kernel MMAP: the kernel's symbols will be wanted, start loading them. */
static void preload_start(struct machine *m)
{
	struct kernel_preload *kp;

	if (!m->o.kernel_preload || m->preload_tried || m->kernel_loaded ||
	    batch_pipe__usable_cpus() < 2)
		return;
	m->preload_tried = true;
	kp = calloc(1, sizeof(*kp));
	if (!kp)
		return;
	kp->m = m;
	kernel_src__get(m, &kp->src);
	pthread_mutex_init(&kp->lock, NULL);
	pthread_cond_init(&kp->cond, NULL);
	atomic_init(&kp->stop, false);
	if (pthread_create(&kp->th, NULL, preload_thread, kp)) {
		pthread_cond_destroy(&kp->cond);
		pthread_mutex_destroy(&kp->lock);
		free(kp);
		return;
	}
	m->preload = kp;
	pr_debug("machine: the kernel's symbols load on a second thread\n");
}

/* Help parse what is left, wait for the end: the thread is gone after. */
static void preload_join(struct kernel_preload *kp, bool help)
{
	unsigned int seen = 0;

	pthread_mutex_lock(&kp->lock);
	while (!kp->done) {
		struct kallsyms_load *l = kp->load;

		if (help && l && kp->gen != seen) {
			seen = kp->gen;
			kp->helpers++;
			pthread_mutex_unlock(&kp->lock);
			kallsyms_load__work(l);
			pthread_mutex_lock(&kp->lock);
			kp->helpers--;
			pthread_cond_broadcast(&kp->cond);
			continue;
		}
		pthread_cond_wait(&kp->cond, &kp->lock);
	}
	pthread_mutex_unlock(&kp->lock);
	pthread_join(kp->th, NULL);
	pthread_cond_destroy(&kp->cond);
	pthread_mutex_destroy(&kp->lock);
}

static void preload_free(struct kernel_preload *kp)
{
	symtab__exit(&kp->mods);	/* in kern's chunks */
	symtab__exit(&kp->kern);
	free(kp);
}

/* The symbols never wanted: stop the thread (soon) and drop them. */
static void preload_cancel(struct machine *m)
{
	struct kernel_preload *kp = m->preload;

	if (!kp)
		return;
	m->preload = NULL;
	atomic_store(&kp->stop, true);
	preload_join(kp, false);
	preload_free(kp);
}

/*
 * The preload's symbols into @kern and @mods when it loaded them from what
 * is known now (@src); else false (and the thread is gone too).
 */
static bool preload_take(struct machine *m, const struct kernel_src *src, struct symtab *kern,
			 struct symtab *mods, int *err)
{
	struct kernel_preload *kp = m->preload;
	bool same;

	if (!kp)
		return false;
	m->preload = NULL;
	preload_join(kp, true);
	same = !memcmp(src, &kp->src, sizeof(*src));
	if (same) {
		*err = kp->err;
		*kern = kp->kern;
		*mods = kp->mods;
		memset(&kp->kern, 0, sizeof(kp->kern));
		memset(&kp->mods, 0, sizeof(kp->mods));
	}
	preload_free(kp);
	return same;
}

/* The kernel's symbols were not loaded from kallsyms_path(): why, through say(). */
static void machine__warn_kallsyms(struct machine *m, const struct kernel_src *src, int err)
{
	char buf[4096], why[4200];
	const char *path = kallsyms_path(m, src, buf, sizeof(buf));

	if (!path)
		return;
	kallsyms__strerror(err, path, why, sizeof(why));
	say(m->o.say, SAY_WARNING, "no kernel symbols: %s", why);
}

/* kallsyms: kernel symbols to the kernel DSO, "name\t[mod]" ones kept apart. */
static void machine__load_kernel(struct machine *m)
{
	struct symtab all = { 0 }, kern = { 0 }, mods = { 0 };
	struct dso *k = machine__kernel_dso(m);
	struct kernel_src src;
	size_t nr_mod = 0;
	int err;

	m->kernel_loaded = true;
	if (!k) {
		preload_cancel(m);
		return;
	}
	k->loaded = true;
	kernel_src__get(m, &src);
	if (!preload_take(m, &src, &kern, &mods, &err)) {
		err = load_kallsyms(m, &src, NULL, &all, &nr_mod);
		if (!err)
			err = kernel_split(&all, &kern, &mods, nr_mod);
		symtab__exit(&all);
	}
	if (err) {
		symtab__exit(&mods);
		symtab__exit(&kern);
		if (err == -EINVAL || err == -EFBIG)	/* the file is no kallsyms: say which */
			machine__warn_kallsyms(m, &src, err);
		return;
	}
	symtab__exit(&m->modsyms);	/* empty: nothing else fills it */
	m->modsyms = mods;
	if (!k->syms.nr) {
		symtab__exit(&k->syms);
		k->syms = kern;
		return;
	}
	/* a KSYMBOL's symbol came first: after it, as perf */
	for (size_t i = 0; i < kern.nr; i++)
		symtab__add(&k->syms, kern.syms[i]);
	symtab__move_chunks(&k->syms, &kern);
	free(kern.syms);
	k->syms.sorted = true;
}

static void dso__load_module(struct machine *m, struct dso *d, const struct map *map)
{
	size_t n = strlen(d->short_name);

	if (!m->kernel_loaded)
		machine__load_kernel(m);
	for (size_t i = 0; i < m->modsyms.nr; i++) {
		struct symbol *s = m->modsyms.syms[i], *c;
		const char *mod = strchr(s->name, '\t');

		if (!mod || strncmp(mod + 1, d->short_name, n) || mod[1 + n])
			continue;
		c = symbol__new(s->start - map->start, s->end - s->start, s->binding, s->type, "");
		if (!c)
			return;
		c = realloc(c, sizeof(*c) + (mod - s->name) + 1);
		if (!c)
			return;
		memcpy(c->name, s->name, mod - s->name);
		c->name[mod - s->name] = '\0';
		c->namelen = mod - s->name;
		if (symtab__add(&d->syms, c))
			return;
	}
	symtab__sort_only(&d->syms);
}

static void dso__load(struct machine *m, struct dso *d, const struct map *map)
{
	char path[4096];
	struct elf_syms_opts o = { d->build_id, d->build_id_size };

	d->loaded = true;
	switch (d->kind) {
	case DSO_USER:
		dso__load_user(m, d);
		return;
	case DSO_KERNEL:
		if (!m->kernel_loaded)
			machine__load_kernel(m);
		break;
	case DSO_MODULE:
		dso__load_module(m, d, map);
		break;
	case DSO_VDSO:
		if (!machine__dso_path(m, d, path, sizeof(path)))
			symtab__load_elf(&d->syms, path, NULL, &o);
		break;
	case DSO_JIT:
		dso__load_jit(d);
		break;
	case DSO_BPF:
	case DSO_NONE:
		break;
	}
	d->origin = !d->syms.nr ? '!' : d->kind == DSO_JIT ? 'j' : d->kind == DSO_USER ||
		    d->kind == DSO_VDSO ? 'B' : 'k';
}

/*
 * This process's [vdso] image, copied once into a memfd: what perf reads
 * for a recorded [vdso] the file gives no build-id of (perf's own copy
 * in /tmp, which a --symfs hides).
 */
static bool own_vdso_path(struct machine *m, char *buf, size_t size)
{
	const void *start;
	size_t len;

	if (m->o.symfs)
		return false;
	if (!m->vdso_tried) {
		m->vdso_tried = true;
		if (!vdso__image(&start, &len)) {
			int fd = memfd_create("tperf-vdso", MFD_CLOEXEC);

			if (fd >= 0 && !io__write_all(fd, start, len))
				m->vdso_fd = fd;
			else if (fd >= 0)
				close(fd);
		}
	}
	if (m->vdso_fd < 0)
		return false;
	snprintf(buf, size, "/proc/self/fd/%d", m->vdso_fd);
	return true;
}

int machine__dso_path(struct machine *m, struct dso *d, char *buf, size_t size)
{
	switch (d->kind) {
	case DSO_USER:
		snprintf(buf, size, "%s%s", symfs(m), d->long_name);
		if (is_file(buf) || cache_path(m, d, "elf", buf, size))
			return 0;
		return -ENOENT;
	case DSO_VDSO:
		if (d->has_build_id)
			return cache_path(m, d, "vdso", buf, size) ? 0 : -ENOENT;
		return own_vdso_path(m, buf, size) ? 0 : -ENOENT;
	default:
		return -ENOENT;
	}
}

/*
 * The map and symbol of a user address of a map set, in a direct-mapped
 * cache: a set's generation (struct maps' gen) changes with every change
 * of it, and a user DSO's symbols do not change once loaded.
 */
struct user_addr {
	u64 gen;			/* 0: empty */
	u64 addr;
	struct map *map;
	struct symbol *sym;
};

#define USER_ADDR_BITS	10

static struct user_addr *user_addr_slot(struct machine *m, const struct maps *maps, u64 addr)
{
	u64 h = (addr ^ maps->gen << 40) * 0x9e3779b97f4a7c15ULL;

	if (!m->user_addrs && !(m->user_addrs = calloc(1U << USER_ADDR_BITS, sizeof(*m->user_addrs))))
		return NULL;
	return &m->user_addrs[h >> (64 - USER_ADDR_BITS)];
}

void machine__resolve_addr(struct machine *m, struct thread *thread, u8 cpumode, u64 addr,
			   struct addr_location *al)
{
	struct user_addr *ua = NULL;
	struct maps *maps = thread ? thread->maps : NULL;

	memset(al, 0, sizeof(*al));
	al->thread = thread;
	al->addr = addr;
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		al->level = 'k';
		maps = m->kmaps;	/* empty until a kernel MMAP: [unknown] */
		break;
	case PERF_RECORD_MISC_USER:
		al->level = '.';
		ua = maps ? user_addr_slot(m, maps, addr) : NULL;
		if (ua && ua->gen == maps->gen && ua->addr == addr) {
			al->map = ua->map;
			if (al->map) {
				al->maps = maps;
				al->addr = map__map_ip(al->map, addr);
				al->sym = ua->sym;
			}
			return;
		}
		break;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		al->level = 'g';
		maps = m->kmaps;
		break;
	case PERF_RECORD_MISC_GUEST_USER:
		al->level = 'u';
		break;
	default:
		al->level = 'H';
		return;
	}
	al->map = maps ? maps__find(maps, addr) : NULL;
	if (al->map) {
		al->maps = maps;
		al->addr = map__map_ip(al->map, addr);
		if (!al->map->dso->loaded)
			dso__load(m, al->map->dso, al->map);
		if (!al->map->dso->syms.sorted)
			symtab__sort_only(&al->map->dso->syms);
		al->sym = symtab__find(&al->map->dso->syms, al->addr);
	}
	if (ua)
		*ua = (struct user_addr){ maps->gen, addr, al->map, al->sym };
}
