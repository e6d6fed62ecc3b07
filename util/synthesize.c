// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Synthesized records for the state that existed before recording: the
 * kernel map, modules, threads and their mappings.  See util/synthesize.h.
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

#include "synthesize.h"

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
 * synthesize__kernel_mmap - see util/synthesize.h
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
 * synthesize__modules - see util/synthesize.h
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
 * synthesize__thread - see util/synthesize.h
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
 * synthesize__all - see util/synthesize.h
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
