// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Synthesized records for the state that existed before recording: the
 * kernel map, modules, threads and their mappings.  See util/perf-data/synthesize.h.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <linux/perf_event.h>

#include "util/event/cpumap.h"
#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/perf-data/header.h"
#include "util/perf-data/synthesize.h"
#include "util/event/threadmap.h"

#define REC_MAX 8192

static const char *procfs(struct synth *s)
{
	return s->procfs ? s->procfs : "/proc";
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Append the zero trailer and hand the record of @size bytes (trailer excluded) out. */
static int emit(struct synth *s, union perf_event *ev, size_t size)
{
	memset((char *)ev + size, 0, s->id_hdr_size);
	size += s->id_hdr_size;
	ev->header.size = (u16)size;
	return s->fn(s->ctx, ev, size);
}

static int emit_mmap(struct synth *s, u16 misc, u32 pid, u32 tid, u64 start, u64 len, u64 pgoff,
		     const char *name)
{
	u64 buf[REC_MAX / 8];
	union perf_event *ev = (union perf_event *)buf;
	size_t n = strnlen(name, PATH_MAX), fixed = sizeof(struct perf_record_mmap);
	size_t size = fixed + align8(n + 1);

	memset(buf, 0, size);
	ev->header.type = PERF_RECORD_MMAP;
	ev->header.misc = misc;
	ev->mmap.pid = pid;
	ev->mmap.tid = tid;
	ev->mmap.start = start;
	ev->mmap.len = len;
	ev->mmap.pgoff = pgoff;
	memcpy(ev->mmap.filename, name, n);
	return emit(s, ev, size);
}

static int kallsyms_addr(FILE *f, const char *sym, u64 *addr)
{
	char line[512], name[256], type;
	unsigned long long a;

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 && !strcmp(name, sym)) {
			*addr = a;
			return 0;
		}
	}
	return -ENOENT;
}

/**
 * synthesize__kernel_mmap - see util/perf-data/synthesize.h
 */
int synthesize__kernel_mmap(struct synth *s)
{
	char path[256];
	u64 text = 0, etext = 0;
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/kallsyms", procfs(s));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = kallsyms_addr(f, "_text", &text);
	if (!err && kallsyms_addr(f, "_etext", &etext))
		etext = 0;
	fclose(f);
	if (err || !text)
		return -ENOENT;
	return emit_mmap(s, PERF_RECORD_MISC_KERNEL, (u32)-1, 0, text,
			 etext > text ? etext - text : ~0ULL - text, text, "[kernel.kallsyms]_text");
}

/* The path of module @name from modules.dep, into @buf; -ENOENT when absent. */
static int module_path(const char *name, char *buf, size_t size)
{
	char path[512], line[1024];
	struct utsname u;
	FILE *f;
	int err = -ENOENT;

	if (uname(&u))
		return -errno;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	while (err && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *base, mod[256];
		size_t n;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		n = strcspn(base, ".");
		if (n >= sizeof(mod))
			continue;
		memcpy(mod, base, n);
		mod[n] = '\0';
		for (char *p = mod; *p; p++)
			if (*p == '-')
				*p = '_';
		if (!strcmp(mod, name) && strlen(u.release) + strlen(line) + 16 < size) {
			strcpy(buf, "/lib/modules/");
			strcat(buf, u.release);
			strcat(buf, "/");
			strcat(buf, line);
			err = 0;
		}
	}
	fclose(f);
	return err;
}

/**
 * synthesize__modules - see util/perf-data/synthesize.h
 */
int synthesize__modules(struct synth *s)
{
	char path[256], line[1024], name[256], file[768];
	unsigned long long size, addr;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/modules", procfs(s));
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!err && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 || !addr)
			continue;
		if (module_path(name, file, sizeof(file)))
			snprintf(file, sizeof(file), "[%s]", name);
		err = emit_mmap(s, PERF_RECORD_MISC_KERNEL, (u32)-1, 0, addr, size, 0, file);
	}
	fclose(f);
	return err;
}

struct task_status {
	char comm[16];
	pid_t tgid, ppid;
};

/* Name, Tgid and PPid of /proc/TID/status; -ESRCH when the thread is gone. */
static int read_status(struct synth *s, pid_t tid, struct task_status *st)
{
	char path[256], line[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", procfs(s), (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	memset(st, 0, sizeof(*st));
	st->tgid = -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Name:\t", 6)) {
			size_t n = strcspn(line + 6, "\n");

			n = n < sizeof(st->comm) - 1 ? n : sizeof(st->comm) - 1;
			memcpy(st->comm, line + 6, n);
			st->comm[n] = '\0';
		} else if (!strncmp(line, "Tgid:", 5)) {
			st->tgid = atoi(line + 5);
		} else if (!strncmp(line, "PPid:", 5)) {
			st->ppid = atoi(line + 5);
		}
	}
	fclose(f);
	return st->tgid < 0 ? -ESRCH : 0;
}

static int emit_comm(struct synth *s, pid_t tgid, pid_t tid, const char *comm)
{
	u64 buf[REC_MAX / 8];
	union perf_event *ev = (union perf_event *)buf;
	size_t n = strnlen(comm, 15), size = sizeof(struct perf_record_comm) + align8(n + 1);

	memset(buf, 0, 512);
	ev->header.type = PERF_RECORD_COMM;
	ev->comm.pid = (u32)tgid;
	ev->comm.tid = (u32)tid;
	memcpy(ev->comm.comm, comm, n);
	return emit(s, ev, size);
}

static int emit_fork(struct synth *s, pid_t tgid, pid_t tid, pid_t ppid)
{
	u64 buf[REC_MAX / 8];
	union perf_event *ev = (union perf_event *)buf;

	memset(buf, 0, 512);
	ev->header.type = PERF_RECORD_FORK;
	ev->fork.pid = (u32)tgid;
	ev->fork.tid = (u32)tid;
	ev->fork.ppid = ev->fork.ptid = (u32)(tgid == tid ? ppid : tgid);
	return emit(s, ev, sizeof(struct perf_record_fork));
}

/*
 * PERF_RECORD_NAMESPACES of a thread: the device and inode of each of its
 * /proc/TID/ns links in the kernel's order (net, uts, ipc, pid, user, mnt,
 * cgroup; 0/0 for one that cannot be read), as perf writes it.
 */
static int emit_namespaces(struct synth *s, pid_t tgid, pid_t tid)
{
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	const size_t nr = sizeof(ns) / sizeof(ns[0]);
	u64 buf[REC_MAX / 8];
	union perf_event *ev = (union perf_event *)buf;
	u64 *v = buf + 1;	/* after the header */

	memset(buf, 0, 512);
	ev->header.type = PERF_RECORD_NAMESPACES;
	((u32 *)v)[0] = (u32)tgid;
	((u32 *)v)[1] = (u32)tid;
	v[1] = nr;
	for (size_t i = 0; i < nr; i++) {
		char path[256];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%d/ns/%s", procfs(s), (int)tid, ns[i]);
		if (!stat(path, &st)) {
			v[2 + 2 * i] = (u64)st.st_dev;
			v[3 + 2 * i] = (u64)st.st_ino;
		}
	}
	return emit(s, ev, 8 + 16 + nr * 16);
}

struct maps_line {
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	u32 prot, flags;
	const char *name;
};

static int parse_maps_line(char *line, struct maps_line *m)
{
	char perm[8];
	int pos = 0;

	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &m->start, &m->end, perm, &m->pgoff,
		   &m->maj, &m->min, &m->ino, &pos) < 7 || strlen(perm) < 4)
		return -EINVAL;
	m->name = pos ? line + pos : "";
	while (*m->name == ' ')
		m->name++;
	m->prot = (perm[0] == 'r' ? PROT_READ : 0) | (perm[1] == 'w' ? PROT_WRITE : 0) |
		  (perm[2] == 'x' ? PROT_EXEC : 0);
	m->flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	return 0;
}

static int emit_mmap2(struct synth *s, pid_t tgid, pid_t tid, const struct maps_line *m)
{
	u64 buf[REC_MAX / 8];
	union perf_event *ev = (union perf_event *)buf;
	const char *name = *m->name ? m->name : "//anon";
	size_t n = strnlen(name, PATH_MAX);
	size_t size = sizeof(struct perf_record_mmap2) + align8(n + 1);

	memset(buf, 0, size);
	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = PERF_RECORD_MISC_USER | (m->prot & PROT_EXEC ? 0 : PERF_RECORD_MISC_MMAP_DATA);
	ev->mmap2.pid = (u32)tgid;
	ev->mmap2.tid = (u32)tid;
	ev->mmap2.start = m->start;
	ev->mmap2.len = m->end - m->start;
	ev->mmap2.pgoff = m->pgoff;
	ev->mmap2.maj = m->maj;
	ev->mmap2.min = m->min;
	ev->mmap2.ino = m->ino;
	ev->mmap2.prot = m->prot;
	ev->mmap2.flags = m->flags;
	memcpy(ev->mmap2.filename, name, n);
	return emit(s, ev, size);
}

static int synth_maps(struct synth *s, pid_t tgid, pid_t tid)
{
	char path[256], line[PATH_MAX + 256];
	struct maps_line m;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%d/task/%d/maps", procfs(s), (int)tgid, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* a kernel thread or gone: no mappings */
	while (!err && fgets(line, sizeof(line), f)) {
		if (parse_maps_line(line, &m))
			continue;
		if (!(m.prot & PROT_EXEC) && !s->mmap_data)
			continue;
		err = emit_mmap2(s, tgid, tid, &m);
	}
	fclose(f);
	return err;
}

/**
 * synthesize__thread - see util/perf-data/synthesize.h
 */
int synthesize__thread(struct synth *s, pid_t tid, bool full)
{
	struct task_status st;
	int err = read_status(s, tid, &st);

	if (err)
		return err;
	/* perf's order: FORK, NAMESPACES, COMM in a full scan; else COMM, NAMESPACES */
	if (full)
		err = emit_fork(s, st.tgid, tid, st.ppid);
	if (!err && full && s->namespaces)
		err = emit_namespaces(s, st.tgid, tid);
	if (!err)
		err = emit_comm(s, st.tgid, tid, st.comm);
	if (!err && !full && s->namespaces)
		err = emit_namespaces(s, st.tgid, tid);
	if (!err && !s->comm_only && (!full || st.tgid == tid))
		err = synth_maps(s, st.tgid, tid);
	return err;
}

static int numeric(const struct dirent *d)
{
	return isdigit((unsigned char)d->d_name[0]);
}

static int synth_process(struct synth *s, const char *pid)
{
	struct dirent **tasks;
	char path[256];
	int n, err = 0;

	snprintf(path, sizeof(path), "%s/%s/task", procfs(s), pid);
	n = scandir(path, &tasks, numeric, alphasort);
	if (n < 0)
		return 0;	/* gone */
	for (int i = 0; i < n; i++) {
		if (!err) {
			err = synthesize__thread(s, atoi(tasks[i]->d_name), true);
			if (err == -ESRCH)
				err = 0;
		}
		free(tasks[i]);
	}
	free(tasks);
	return err;
}

/**
 * synthesize__all - see util/perf-data/synthesize.h
 */
int synthesize__all(struct synth *s)
{
	struct dirent **procs;
	int n = scandir(procfs(s), &procs, numeric, alphasort), err = 0;

	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (!err)
			err = synth_process(s, procs[i]->d_name);
		free(procs[i]);
	}
	free(procs);
	return err;
}

/* ---- the events: ID_INDEX, EVENT_UPDATE, THREAD_MAP, CPU_MAP ---- */

/* Hand out a header-only record of @size bytes at @buf (no trailer). */
static int emit_plain(struct synth *s, void *buf, u32 type, size_t size)
{
	struct perf_event_header *h = buf;

	h->type = type;
	h->misc = 0;
	h->size = (u16)size;
	return s->fn(s->ctx, buf, size);
}

/**
 * synthesize__id_index - see util/perf-data/synthesize.h
 */
int synthesize__id_index(struct synth *s, struct evlist *evlist, synth_ring_fn ring, void *rctx)
{
	enum { MAX = (0xffff - sizeof(struct perf_record_id_index)) /
		     sizeof(struct perf_record_id_index_entry) };
	size_t bytes = sizeof(struct perf_record_id_index) +
		       MAX * sizeof(struct perf_record_id_index_entry);
	struct perf_record_id_index *ev = calloc(1, bytes);
	struct evsel *e;
	int err = 0;

	if (!ev)
		return -ENOMEM;
	evlist__for_each_entry(evlist, e) {
		int nt = e->fd && e->threads ? e->threads->nr : 0;
		int n = nt && e->cpus ? e->cpus->nr * nt : 0;

		for (int i = 0; i < n && !err; i++) {
			struct perf_record_id_index_entry *x = &ev->entries[ev->nr];
			int cpu = e->cpus->map[i / nt];

			if (e->fd[i] < 0)
				continue;
			x->id = e->id[i];
			x->idx = (u64)(int64_t)ring(rctx, cpu, i % nt);
			x->cpu = (u64)(int64_t)cpu;
			x->tid = (u64)(int64_t)e->threads->map[i % nt];
			if (++ev->nr == MAX) {
				err = emit_plain(s, ev, PERF_RECORD_ID_INDEX, bytes);
				ev->nr = 0;
			}
		}
	}
	if (!err && ev->nr)
		err = emit_plain(s, ev, PERF_RECORD_ID_INDEX,
				 sizeof(*ev) + ev->nr * sizeof(ev->entries[0]));
	free(ev);
	return err;
}

/* The data of a CPU map: its bytes into @d (zeroed, room for @max), its size. */
static size_t cpu_map_data(const struct cpu_map *m, u8 *d, size_t max)
{
	int any = m->nr && m->map[0] == -1, nr = m->nr;
	int lo = nr > any ? m->map[any] : -1, hi = nr ? m->map[nr - 1] : -1;
	size_t cpus = 2 + 2 + (size_t)nr * 2, mask = 2 + 4 + (size_t)(hi + 31) / 32 * 4;
	u16 v;

	if (hi - lo + 1 == nr - any) {		/* a range */
		v = 2;
		memcpy(d, &v, 2);
		d[2] = (u8)any;
		v = (u16)lo;
		memcpy(d + 4, &v, 2);
		v = (u16)hi;
		memcpy(d + 6, &v, 2);
		return 8;
	}
	if (any || cpus < mask) {		/* a list */
		if (align8(cpus) > max)
			return 0;
		v = 0;
		memcpy(d, &v, 2);
		v = (u16)nr;
		memcpy(d + 2, &v, 2);
		for (int i = 0; i < nr; i++) {
			v = (u16)m->map[i];
			memcpy(d + 4 + 2 * i, &v, 2);
		}
		return align8(cpus);
	}
	if (align8(mask) > max)			/* a mask of u32 words, as perf sizes it */
		return 0;
	v = 1;
	memcpy(d, &v, 2);
	v = (u16)((hi + 31) / 32);
	memcpy(d + 2, &v, 2);
	v = 4;
	memcpy(d + 4, &v, 2);
	for (int i = 0; i < nr; i++) {
		size_t at = 6 + (size_t)m->map[i] / 32 * 4;
		u32 w;

		if (at + 4 > align8(mask))
			continue;
		memcpy(&w, d + at, 4);
		w |= 1u << (m->map[i] % 32);
		memcpy(d + at, &w, 4);
	}
	return align8(mask);
}

/**
 * synthesize__cpu_map - see util/perf-data/synthesize.h
 */
int synthesize__cpu_map(struct synth *s, const struct cpu_map *cpus)
{
	u64 buf[REC_MAX / 8] = { 0 };
	size_t n = cpu_map_data(cpus, (u8 *)buf + 8, sizeof(buf) - 8);

	return n ? emit_plain(s, buf, PERF_RECORD_CPU_MAP, 8 + n) : -E2BIG;
}

/**
 * synthesize__thread_map - see util/perf-data/synthesize.h
 */
int synthesize__thread_map(struct synth *s, struct evlist *evlist)
{
	const struct thread_map *t = evlist->threads;
	size_t size = 16 + (size_t)(t ? t->nr : 0) * 24;
	u8 *buf;
	u64 nr, pid;
	int err;

	if (!t || size > 0xffff)
		return 0;
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	nr = (u64)t->nr;
	memcpy(buf + 8, &nr, 8);
	for (int i = 0; i < t->nr; i++) {
		pid = (u64)(int64_t)t->map[i];
		memcpy(buf + 16 + 24 * (size_t)i, &pid, 8);	/* comm[16] stays empty */
	}
	err = emit_plain(s, buf, PERF_RECORD_THREAD_MAP, size);
	free(buf);
	return err;
}

/**
 * synthesize__time_conv - see util/perf-data/synthesize.h
 */
int synthesize__time_conv(struct synth *s, const void *mmap_page)
{
	const volatile struct perf_event_mmap_page *pc = mmap_page;
	struct perf_record_time_conv tc;
	bool zero = false, short_ = false;
	u32 seq;
	int i;

	if (!pc || !pc->cap_user_time_zero)
		return 0;
	memset(&tc, 0, sizeof(tc));
	for (i = 0; i < 10000; i++) {
		seq = pc->lock;
		__sync_synchronize();
		tc.time_mult = pc->time_mult;
		tc.time_shift = pc->time_shift;
		tc.time_zero = pc->time_zero;
		tc.time_cycles = pc->time_cycles;
		tc.time_mask = pc->time_mask;
		zero = pc->cap_user_time_zero;
		short_ = pc->cap_user_time_short;
		__sync_synchronize();
		if (pc->lock == seq && !(seq & 1))
			break;
	}
	if (i == 10000)
		return -EAGAIN;
	if (!zero)
		return 0;
	tc.cap_user_time_zero = 1;
	tc.cap_user_time_short = short_;
	return emit_plain(s, &tc, PERF_RECORD_TIME_CONV, sizeof(tc));
}

enum { EV_UPDATE_UNIT, EV_UPDATE_SCALE, EV_UPDATE_NAME, EV_UPDATE_CPUS };

/*
 * header, u64 type, u64 id, then @len bytes of @data in a record of
 * perf's size: 40 + len (the size of its struct, a 16-byte union, + data),
 * but 24 + len for a CPU map
 */
static int emit_update(struct synth *s, u64 type, u64 id, const void *data, size_t len)
{
	u64 buf[REC_MAX / 8] = { 0 };
	size_t size = align8((type == EV_UPDATE_CPUS ? 24 : 40) + len);

	if (size > sizeof(buf))
		return -E2BIG;
	memcpy((u8 *)buf + 8, &type, 8);
	memcpy((u8 *)buf + 16, &id, 8);
	memcpy((u8 *)buf + 24, data, len);
	return emit_plain(s, buf, PERF_RECORD_EVENT_UPDATE, size);
}

/**
 * synthesize__event_updates - see util/perf-data/synthesize.h
 */
int synthesize__event_updates(struct synth *s, struct evlist *evlist, bool pipe)
{
	struct evsel *e;
	int err = 0;

	evlist__for_each_entry(evlist, e) {
		bool clock = e->attr.type == PERF_TYPE_SOFTWARE &&
			     (e->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
			      e->attr.config == PERF_COUNT_SW_TASK_CLOCK);
		const char *unit = e->unit && *e->unit ? e->unit : clock ? "msec" : NULL;
		double scale = e->scale != 1.0 ? e->scale : clock ? 1e-6 : 1.0;
		u64 id = e->id && e->fd ? e->id[0] : 0;

		if (!e->supported)
			continue;
		if (unit)
			err = emit_update(s, EV_UPDATE_UNIT, id, unit, strlen(unit) + 1);
		if (!err && scale != 1.0)
			err = emit_update(s, EV_UPDATE_SCALE, id, &scale, sizeof(scale));
		if (!err && e->own_cpus) {
			u8 d[REC_MAX - 64] = { 0 };
			size_t n = cpu_map_data(e->own_cpus, d, sizeof(d));

			if (n)
				err = emit_update(s, EV_UPDATE_CPUS, id, d, n);
		}
		if (!err && pipe)
			err = emit_update(s, EV_UPDATE_NAME, id, evsel__name(e),
					  strlen(evsel__name(e)) + 1);
		if (err)
			return err;
	}
	return 0;
}

int synthesize__header_attrs(struct perf_header *h, struct evlist *evlist)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e) {
		int n = e->fd && e->cpus && e->threads ? e->cpus->nr * e->threads->nr : 0, k = 0;
		u64 *ids = calloc((size_t)n + 1, sizeof(*ids));
		struct perf_header_attr *ha;

		if (!ids)
			return -ENOMEM;
		for (int i = 0; i < n; i++)	/* an fd never opened has no id */
			if (e->fd[i] >= 0)
				ids[k++] = e->id[i];
		ha = perf_header__add_attr(h, &e->attr, sizeof(e->attr), ids, (u32)k);
		free(ids);
		if (!ha || !(ha->name = strdup(evsel__name(e))))
			return -ENOMEM;
		ha->leader_idx = e->leader ? e->leader->idx : e->idx;
		if (evsel__is_group_leader(e) && e->nr_members > 1) {
			ha->nr_members = (u32)e->nr_members;
			if (e->group_name && !(ha->group_name = strdup(e->group_name)))
				return -ENOMEM;
		}
	}
	return 0;
}
