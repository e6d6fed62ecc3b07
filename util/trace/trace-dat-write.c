// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat writer, versions 6 and 7 (see trace-dat.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#include "util/lib/io.h"
#include "util/lib/file-out.h"
#include "util/trace/trace-dat.h"

static const char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/*
 * The output: the file, or (between mem_begin() and put_section()) a memory
 * buffer holding a version 7 section until its size is known.
 */
struct out {
	int fd;
	int err;
	uint64_t off;		/* bytes written to the file */
	char *mem;
	size_t len, cap;
	int to_mem;
	const char *algo;	/* version 7 compression, NULL for none */
	char strings[512];	/* the section descriptions (the strings section) */
	size_t strings_len;
};

static void put(struct out *o, const void *buf, size_t len)
{
	const char *p = buf;

	if (o->to_mem && !o->err) {
		if (o->len + len > o->cap) {
			size_t cap = (o->len + len) * 2;
			char *n = realloc(o->mem, cap);

			if (!n) {
				o->err = -ENOMEM;
				return;
			}
			o->mem = n;
			o->cap = cap;
		}
		memcpy(o->mem + o->len, buf, len);
		o->len += len;
		return;
	}
	while (!o->err && len) {
		ssize_t n = write(o->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 ? -errno : -EIO;
			return;
		}
		p += n;
		len -= n;
		o->off += n;
	}
}

static void put_u(struct out *o, uint64_t v, int n)
{
	put(o, &v, n);	/* the file is written in the host's (little-endian) order */
}

/* Read a whole file; NULL with errno set on failure. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		int e = fd < 0 ? errno : ENOMEM;

		free(buf);
		if (fd >= 0)
			close(fd);
		errno = e;
		return NULL;
	}
	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* A file of tracefs with its size: @width bytes of size, then the text. */
static int put_file(struct out *o, const char *path, int width)
{
	size_t len = 0;
	char *text = slurp(path, &len);

	if (!text)
		return -errno;
	put_u(o, len, width);
	put(o, text, len);
	free(text);
	return 0;
}

static int filter_dir(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static int put_ftrace_formats(struct out *o, const char *tracefs)
{
	char path[4096];
	struct dirent **names;
	int n, count = 0, ret = 0;

	snprintf(path, sizeof(path), "%s/events/ftrace", tracefs);
	n = scandir(path, &names, filter_dir, alphasort);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/events/ftrace/%s/format", tracefs,
			 names[i]->d_name);
		if (!access(path, R_OK))
			count++;
	}
	put_u(o, count, 4);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/events/ftrace/%s/format", tracefs,
			 names[i]->d_name);
		if (!ret && !access(path, R_OK))
			ret = put_file(o, path, 8);
		free(names[i]);
	}
	free(names);
	return ret;
}

static int put_event_formats(struct out *o, const struct trace_dat_wparams *p)
{
	char path[4096];
	int nsys = 0;

	/* The events come sorted by system: one block per system. */
	for (int i = 0; i < p->nr_events; i++)
		if (!i || strncmp(p->events[i], p->events[i - 1],
				  strcspn(p->events[i], "/") + 1))
			nsys++;
	put_u(o, nsys, 4);
	for (int i = 0; i < p->nr_events;) {
		size_t syslen = strcspn(p->events[i], "/") + 1;
		int j = i;

		while (j < p->nr_events && !strncmp(p->events[j], p->events[i], syslen))
			j++;
		put(o, p->events[i], syslen - 1);
		put(o, "", 1);
		put_u(o, j - i, 4);
		for (; i < j; i++) {
			int ret;

			snprintf(path, sizeof(path), "%s/events/%s/format", p->tracefs,
				 p->events[i]);
			if ((ret = put_file(o, path, 8)))
				return ret;
		}
	}
	return 0;
}

static void put_option(struct out *o, int id, const void *data, uint32_t size)
{
	put_u(o, id, 2);
	put_u(o, size, 4);
	put(o, data, size);
}

/*
 * The options both versions write: CPUSTAT, TRACECLOCK (in version 6 an
 * empty one, the clock being in its own section), UNAME, CPUCOUNT, VERSION.
 */
static void put_common_options(struct out *o, const struct trace_dat_wparams *p, bool clock_text)
{
	struct utsname u;
	char buf[512];
	uint32_t cpus = p->nr_cpus;

	if (p->cpustats)
		put_option(o, TRACE_DAT_OPT_CPUSTAT, p->cpustats, strlen(p->cpustats) + 1);
	if (p->clock_text)
		put_option(o, TRACE_DAT_OPT_TRACECLOCK, clock_text ? p->clock_text : NULL,
			   clock_text ? strlen(p->clock_text) + 1 : 0);
	if (!uname(&u)) {
		snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename, u.release,
			 u.version);
		put_option(o, TRACE_DAT_OPT_UNAME, buf, strlen(buf) + 1);
	}
	put_option(o, TRACE_DAT_OPT_CPUCOUNT, &cpus, 4);
	if (p->version)
		put_option(o, TRACE_DAT_OPT_VERSION, p->version, strlen(p->version) + 1);
}

static void put_options(struct out *o, const struct trace_dat_wparams *p)
{
	put(o, "options  ", 10);
	put_common_options(o, p, false);
	put_u(o, TRACE_DAT_OPT_DONE, 2);
}

/* The initial format up to (excluding) the version-specific part. */
static void put_initial(struct out *o, int version)
{
	put(o, magic, sizeof(magic));
	put(o, version == 7 ? "7" : "6", 2);
	put_u(o, 0, 1);
	put_u(o, sizeof(long), 1);
	put_u(o, sysconf(_SC_PAGESIZE), 4);
}

static int put_header_info(struct out *o, const char *tracefs)
{
	char path[4096];
	int ret;

	put(o, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	if ((ret = put_file(o, path, 8)))
		return ret;
	put(o, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
	return put_file(o, path, 8);
}

static int put_tracefs_file(struct out *o, const char *tracefs, const char *name, int width)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", tracefs, name);
	return put_file(o, path, width);
}

static int put_metadata(struct out *o, const struct trace_dat_wparams *p)
{
	int ret;

	put_initial(o, 6);
	if ((ret = put_header_info(o, p->tracefs)) || (ret = put_ftrace_formats(o, p->tracefs)) ||
	    (ret = put_event_formats(o, p)) || (ret = put_file(o, "/proc/kallsyms", 4)) ||
	    (ret = put_tracefs_file(o, p->tracefs, "printk_formats", 4)) ||
	    (ret = put_tracefs_file(o, p->tracefs, "saved_cmdlines", 8)))
		return ret;
	put_u(o, p->nr_cpus, 4);
	put_options(o, p);
	return o->err;
}

static int copy_cpu(struct out *o, int fd, uint64_t size)
{
	char buf[65536];
	off_t off = 0;

	while (!o->err && (uint64_t)off < size) {
		ssize_t n = pread(fd, buf, sizeof(buf), off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		put(o, buf, n);
		off += n;
	}
	return o->err;
}

static int put_cpu_data(struct out *o, const struct trace_dat_wparams *p)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t *sizes = calloc(p->nr_cpus + 1, sizeof(*sizes));
	off_t table, off;
	int ret = 0;

	if (!sizes)
		return -ENOMEM;
	for (int i = 0; i < p->nr_cpus; i++) {
		struct stat st;

		if (fstat(p->cpu_fds[i], &st)) {
			free(sizes);
			return -errno;
		}
		sizes[i] = st.st_size;
	}
	put(o, "flyrecord", 10);
	table = o->off;
	off = table + 16 * p->nr_cpus;
	if (p->clock_text)
		off += 8 + strlen(p->clock_text);
	off = (off + page - 1) / page * page;
	for (int i = 0; i < p->nr_cpus; i++) {
		put_u(o, sizes[i] ? off : 0, 8);
		put_u(o, sizes[i], 8);
		off += sizes[i];
	}
	if (p->clock_text) {
		put_u(o, strlen(p->clock_text), 8);
		put(o, p->clock_text, strlen(p->clock_text));
	}
	off = o->off;
	if (off % page) {
		static const char zero[65536];

		put(o, zero, page - off % page);
	}
	for (int i = 0; i < p->nr_cpus && !ret; i++)
		ret = copy_cpu(o, p->cpu_fds[i], sizes[i]);
	free(sizes);
	return ret ? ret : o->err;
}

/* Version 7 */

static void mem_begin(struct out *o)
{
	o->to_mem = 1;
	o->len = 0;
}

/* Overwrite @n bytes at file offset @at with @v (a forward reference). */
static void patch_u(struct out *o, uint64_t at, uint64_t v, int n)
{
	if (!o->err)
		o->err = io__pwrite_all(o->fd, &v, n, at);
}

/* The offset of @s in the strings section, added there when new. */
static uint32_t string_id(struct out *o, const char *s)
{
	size_t len = strlen(s) + 1;

	for (size_t i = 0; i < o->strings_len; i += strlen(o->strings + i) + 1)
		if (!strcmp(o->strings + i, s))
			return i;
	if (o->strings_len + len > sizeof(o->strings))
		return 0;
	memcpy(o->strings + o->strings_len, s, len);
	o->strings_len += len;
	return o->strings_len - len;
}

/* A section header; returns the offset of its size field. */
static uint64_t put_section_header(struct out *o, int id, const char *desc, int flags,
				   uint64_t size)
{
	uint64_t at;

	o->to_mem = 0;
	put_u(o, id, 2);
	put_u(o, flags, 2);
	put_u(o, string_id(o, desc), 4);
	at = o->off;
	put_u(o, size, 8);
	return at;
}

/* What was put since mem_begin() as section @id; returns its offset. */
static uint64_t put_section(struct out *o, int id, const char *desc, int compress)
{
	uint64_t start = o->off;
	void *z = NULL;
	size_t zlen = 0;
	int ret;

	o->to_mem = 0;
	if (o->err)
		return 0;
	if (!compress || !o->algo) {
		put_section_header(o, id, desc, 0, o->len);
		put(o, o->mem, o->len);
		return start;
	}
	ret = trace_dat__compress(o->algo, o->mem, o->len, &z, &zlen);
	if (ret) {
		o->err = ret;
		return 0;
	}
	put_section_header(o, id, desc, TRACE_DAT_SEC_COMPRESSED, zlen + 8);
	put_u(o, zlen, 4);
	put_u(o, o->len, 4);
	put(o, z, zlen);
	free(z);
	return start;
}

static int put_sections_v7(struct out *o, const struct trace_dat_wparams *p, uint64_t *sec)
{
	int ret;

	mem_begin(o);
	if ((ret = put_header_info(o, p->tracefs)))
		return ret;
	sec[TRACE_DAT_SEC_HEADER] = put_section(o, TRACE_DAT_SEC_HEADER, "headers", 1);
	mem_begin(o);
	if ((ret = put_ftrace_formats(o, p->tracefs)))
		return ret;
	sec[TRACE_DAT_SEC_FTRACE] = put_section(o, TRACE_DAT_SEC_FTRACE, "ftrace events", 1);
	mem_begin(o);
	if ((ret = put_event_formats(o, p)))
		return ret;
	sec[TRACE_DAT_SEC_EVENTS] = put_section(o, TRACE_DAT_SEC_EVENTS, "events format", 1);
	mem_begin(o);
	if ((ret = put_file(o, "/proc/kallsyms", 4)))
		return ret;
	sec[TRACE_DAT_SEC_KALLSYMS] = put_section(o, TRACE_DAT_SEC_KALLSYMS, "kallsyms", 1);
	mem_begin(o);
	if ((ret = put_tracefs_file(o, p->tracefs, "printk_formats", 4)))
		return ret;
	sec[TRACE_DAT_SEC_PRINTK] = put_section(o, TRACE_DAT_SEC_PRINTK, "printk", 1);
	mem_begin(o);
	if ((ret = put_tracefs_file(o, p->tracefs, "saved_cmdlines", 8)))
		return ret;
	sec[TRACE_DAT_SEC_CMDLINES] = put_section(o, TRACE_DAT_SEC_CMDLINES, "command lines", 1);
	return o->err;
}

/* The first options section; returns the offset of its DONE link. */
static uint64_t put_options_v7(struct out *o, const struct trace_dat_wparams *p,
			       const uint64_t *sec, uint64_t *start)
{
	uint64_t done;

	mem_begin(o);
	put_common_options(o, p, true);
	for (int id = TRACE_DAT_SEC_HEADER; id <= TRACE_DAT_SEC_CMDLINES; id++)
		put_option(o, id, &sec[id], 8);
	put_u(o, TRACE_DAT_OPT_DONE, 2);
	put_u(o, 8, 4);
	put_u(o, 0, 8);
	*start = put_section(o, TRACE_DAT_SEC_OPTIONS, "options", 0);
	done = o->off - 8;
	return done;
}

/* The pages of one CPU in chunks of CHUNK_PAGES pages: count, then chunks. */
#define CHUNK_PAGES 64

static int put_chunks(struct out *o, int fd, uint64_t size, uint64_t *out_size)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t chunk = CHUNK_PAGES * page;
	char *buf = malloc(chunk);
	uint64_t start = o->off, count = (size + chunk - 1) / chunk;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	put_u(o, count, 4);
	for (uint64_t off = 0; off < size && !ret && !o->err; off += chunk) {
		size_t want = size - off < chunk ? size - off : chunk;
		ssize_t n = io__pread_all(fd, buf, want, off);
		void *z;
		size_t zlen;

		if (n != (ssize_t)want) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		if ((ret = trace_dat__compress(o->algo, buf, want, &z, &zlen)))
			break;
		put_u(o, zlen, 4);
		put_u(o, want, 4);
		put(o, z, zlen);
		free(z);
	}
	free(buf);
	*out_size = o->off - start - 4;	/* as trace-cmd counts it: without the count */
	return ret ? ret : o->err;
}

static void pad_to_page(struct out *o)
{
	static const char zero[65536];
	long page = sysconf(_SC_PAGESIZE);

	if (o->off % page)
		put(o, zero, page - o->off % page);
}

/* The flyrecord section and the options section with its BUFFER option. */
static int put_buffer_v7(struct out *o, const struct trace_dat_wparams *p, uint64_t done)
{
	uint64_t *offs = calloc(p->nr_cpus + 1, sizeof(*offs) * 2), *sizes = offs + p->nr_cpus;
	uint64_t sec = o->off, size_at, opts;
	char clock[64] = "";
	uint32_t n = 0;
	int ret = 0;

	if (!offs)
		return -ENOMEM;
	size_at = put_section_header(o, TRACE_DAT_SEC_BUFFER, "buffer flyrecord ",
				     o->algo ? TRACE_DAT_SEC_COMPRESSED : 0, 0);
	for (int i = 0; i < p->nr_cpus && !ret; i++) {
		struct stat st;

		if (fstat(p->cpu_fds[i], &st)) {
			ret = -errno;
			break;
		}
		if (!st.st_size)
			continue;
		pad_to_page(o);
		offs[i] = o->off;
		if (o->algo) {
			ret = put_chunks(o, p->cpu_fds[i], st.st_size, &sizes[i]);
		} else {
			sizes[i] = st.st_size;
			ret = copy_cpu(o, p->cpu_fds[i], st.st_size);
		}
		n++;
	}
	patch_u(o, size_at, o->off - size_at - 8, 8);
	if (p->clock_text && strchr(p->clock_text, '['))
		sscanf(strchr(p->clock_text, '[') + 1, "%63[^]]", clock);
	mem_begin(o);
	put_u(o, TRACE_DAT_OPT_BUFFER, 2);
	put_u(o, 8 + 1 + strlen(clock) + 1 + 4 + 4 + 20 * n, 4);
	put_u(o, sec, 8);
	put(o, "", 1);
	put(o, clock, strlen(clock) + 1);
	put_u(o, sysconf(_SC_PAGESIZE), 4);
	put_u(o, n, 4);
	for (int i = 0; i < p->nr_cpus; i++) {
		if (!offs[i])
			continue;
		put_u(o, i, 4);
		put_u(o, offs[i], 8);
		put_u(o, sizes[i], 8);
	}
	put_u(o, TRACE_DAT_OPT_DONE, 2);
	put_u(o, 8, 4);
	put_u(o, 0, 8);
	opts = put_section(o, TRACE_DAT_SEC_OPTIONS, "options", 0);
	patch_u(o, done, opts, 8);
	free(offs);
	return ret ? ret : o->err;
}

static int write_v7(struct out *o, const struct trace_dat_wparams *p)
{
	uint64_t sec[TRACE_DAT_SEC_CMDLINES + 1] = { 0 }, opts_at, opts, done;
	const char *algo = o->algo ? o->algo : "none";
	char version[32] = "";
	int ret;

	if (o->algo && !strcmp(o->algo, "zstd"))
		snprintf(version, sizeof(version), "%s", ZSTD_versionString());
	else if (o->algo)
		snprintf(version, sizeof(version), "%s", zlibVersion());
	put_initial(o, 7);
	put(o, algo, strlen(algo) + 1);
	put(o, version, strlen(version) + 1);
	opts_at = o->off;
	put_u(o, 0, 8);
	if ((ret = put_sections_v7(o, p, sec)))
		return ret;
	done = put_options_v7(o, p, sec, &opts);
	patch_u(o, opts_at, opts, 8);
	if ((ret = put_buffer_v7(o, p, done)))
		return ret;
	string_id(o, "strings");	/* its own description is in it too */
	mem_begin(o);
	put(o, o->strings, o->strings_len);
	put_section(o, TRACE_DAT_SEC_STRINGS, "strings", 1);
	return o->err;
}

/**
 * trace_dat__write_fd - see util/trace/trace-dat.h
 */
int trace_dat__write_fd(int fd, const char *name, const struct trace_dat_wparams *p,
			char *err, size_t errsize)
{
	struct out o = { .fd = fd };
	int ret;

	if (p->compression && strcmp(p->compression, "none"))
		o.algo = p->compression;
	if (p->file_version == 7) {
		ret = write_v7(&o, p);
	} else {
		ret = put_metadata(&o, p);
		if (!ret)
			ret = put_cpu_data(&o, p);
	}
	free(o.mem);
	if (ret && o.off)
		snprintf(err, errsize, "cannot write '%s': %s (the file is incomplete: %.1f MB "
			 "written)", name, strerror(-ret), o.off / 1e6);
	else if (ret)
		snprintf(err, errsize, "cannot write '%s': %s", name, strerror(-ret));
	return ret;
}

/**
 * trace_dat__write - see util/trace/trace-dat.h
 */
int trace_dat__write(const char *path, const struct trace_dat_wparams *p,
		     char *err, size_t errsize)
{
	int fd = file__create(path, FILE_CREATE_TRUNCATE, 0644, err, errsize), ret;

	if (fd < 0)
		return fd;
	ret = trace_dat__write_fd(fd, path, p, err, errsize);
	if (close(fd) && !ret) {
		ret = -errno;
		snprintf(err, errsize, "cannot write '%s': %s", path, strerror(errno));
	}
	return ret;
}
