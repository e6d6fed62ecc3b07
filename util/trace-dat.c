// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat version 6 reader and writer (see trace-dat.h and
 * trace-cmd.dat.v6(5) for the layout).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "trace-dat.h"

static const char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/* A bounds-checked cursor over the file image. */
struct cur {
	struct trace_dat *td;
	size_t pos;
	char *err;
	size_t errsize;
};

static int fail(struct cur *c, const char *what)
{
	snprintf(c->err, c->errsize, "'%s': %s at offset %zu", c->td->path, what, c->pos);
	return -EINVAL;
}

static int need(struct cur *c, uint64_t n, const char *what)
{
	char msg[160];

	if (n > c->td->size - c->pos) {
		snprintf(msg, sizeof(msg), "truncated: %s needs %llu bytes, %zu left", what,
			 (unsigned long long)n, c->td->size - c->pos);
		return fail(c, msg);
	}
	return 0;
}

static int get_u(struct cur *c, int n, uint64_t *v, const char *what)
{
	int ret = need(c, n, what);

	if (ret)
		return ret;
	if (n == 2) {
		uint8_t b[4] = { 0 };
		const uint8_t *p = c->td->map + c->pos;

		if (c->td->big_endian) {
			b[2] = p[0];
			b[3] = p[1];
		} else {
			b[0] = p[0];
			b[1] = p[1];
		}
		*v = ftrace_page__read_u32(&c->td->pfmt, b);
	} else if (n == 4) {
		*v = ftrace_page__read_u32(&c->td->pfmt, c->td->map + c->pos);
	} else {
		*v = ftrace_page__read_u64(&c->td->pfmt, c->td->map + c->pos);
	}
	c->pos += n;
	return 0;
}

/* A NUL-terminated string at the cursor. */
static int get_str(struct cur *c, const char **s, const char *what)
{
	const uint8_t *start = c->td->map + c->pos;
	const uint8_t *nul = memchr(start, 0, c->td->size - c->pos);

	if (!nul)
		return fail(c, what);
	*s = (const char *)start;
	c->pos += nul - start + 1;
	return 0;
}

/* A block of @size bytes copied out NUL-terminated. */
static int get_block(struct cur *c, uint64_t size, char **out, const char *what)
{
	int ret = need(c, size, what);

	if (ret)
		return ret;
	*out = malloc(size + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, c->td->map + c->pos, size);
	(*out)[size] = 0;
	c->pos += size;
	return 0;
}

static int read_initial(struct cur *c)
{
	const char *ver;
	uint64_t v;
	int ret;

	if (need(c, sizeof(magic), "magic") || memcmp(c->td->map, magic, sizeof(magic)))
		return fail(c, "not a trace.dat file (bad magic)");
	c->pos = sizeof(magic);
	if ((ret = get_str(c, &ver, "version string")))
		return ret;
	c->td->version = atoi(ver);
	if (c->td->version != 6)
		return fail(c, c->td->version == 7 ?
			    "version 7 trace.dat is not supported: convert it with 'trace-cmd convert --file-version 6'" :
			    "unsupported trace.dat version");
	if ((ret = need(c, 2, "endianness and long size")))
		return ret;
	c->td->big_endian = c->td->map[c->pos] != 0;
	c->td->long_size = c->td->map[c->pos + 1];
	c->pos += 2;
	if (c->td->long_size != 4 && c->td->long_size != 8)
		return fail(c, "bad long size");
	c->td->pfmt.big_endian = c->td->big_endian;
	if ((ret = get_u(c, 4, &v, "page size")))
		return ret;
	if (v < 64 || v > (1 << 20))
		return fail(c, "bad page size");
	c->td->page_size = v;
	return 0;
}

static int read_header_info(struct cur *c)
{
	const char *name;
	char *text;
	uint64_t size;
	int ret;

	if ((ret = get_str(c, &name, "header_page")) || strcmp(name, "header_page"))
		return ret ? ret : fail(c, "expected 'header_page'");
	if ((ret = get_u(c, 8, &size, "header_page size")) ||
	    (ret = get_block(c, size, &text, "header_page")))
		return ret;
	ftrace_page_fmt__init_default(&c->td->pfmt, c->td->long_size, c->td->big_endian,
				      c->td->page_size);
	if (ftrace_page_fmt__parse_header(&c->td->pfmt, text) ||
	    c->td->pfmt.data_offset >= c->td->page_size) {
		free(text);
		return fail(c, "bad header_page");
	}
	tep_parse_header_page(c->td->tevent.tep, text, size, c->td->long_size);
	free(text);
	if ((ret = get_str(c, &name, "header_event")) || strcmp(name, "header_event"))
		return ret ? ret : fail(c, "expected 'header_event'");
	if ((ret = get_u(c, 8, &size, "header_event size")) ||
	    (ret = need(c, size, "header_event")))
		return ret;
	c->pos += size;
	return 0;
}

static int read_formats(struct cur *c, const char *sys, uint64_t count)
{
	for (uint64_t i = 0; i < count; i++) {
		uint64_t size;
		int ret;

		if ((ret = get_u(c, 8, &size, "event format size")) ||
		    (ret = need(c, size, "event format")))
			return ret;
		/* An event libtraceevent cannot parse is shown as unknown. */
		trace_event__parse_format(&c->td->tevent, sys, (const char *)c->td->map + c->pos,
					  size);
		c->pos += size;
	}
	return 0;
}

static int read_events(struct cur *c)
{
	uint64_t count, nsys;
	const char *sys;
	int ret;

	if ((ret = get_u(c, 4, &count, "ftrace format count")) ||
	    (ret = read_formats(c, "ftrace", count)) ||
	    (ret = get_u(c, 4, &nsys, "event system count")))
		return ret;
	for (uint64_t i = 0; i < nsys; i++) {
		if ((ret = get_str(c, &sys, "event system name")) ||
		    (ret = get_u(c, 4, &count, "event count")) ||
		    (ret = read_formats(c, sys, count)))
			return ret;
	}
	return 0;
}

static int read_texts(struct cur *c)
{
	uint64_t size;
	char *text;
	int ret;

	if ((ret = get_u(c, 4, &size, "kallsyms size")) ||
	    (ret = get_block(c, size, &text, "kallsyms")))
		return ret;
	c->td->has_kallsyms = size > 0;
	if (size)
		tep_parse_kallsyms(c->td->tevent.tep, text);
	free(text);
	if ((ret = get_u(c, 4, &size, "printk formats size")) ||
	    (ret = get_block(c, size, &text, "printk formats")))
		return ret;
	if (size)
		tep_parse_printk_formats(c->td->tevent.tep, text);
	free(text);
	if ((ret = get_u(c, 8, &size, "saved cmdlines size")) ||
	    (ret = get_block(c, size, &text, "saved cmdlines")))
		return ret;
	if (size)
		tep_parse_saved_cmdlines(c->td->tevent.tep, text);
	free(text);
	return 0;
}

static int read_option(struct cur *c, uint64_t id, uint64_t size, int *has_clock)
{
	char **dst = NULL;
	int ret;

	switch (id) {
	case TRACE_DAT_OPT_TRACECLOCK:
		*has_clock = 1;
		break;
	case TRACE_DAT_OPT_UNAME:
		dst = &c->td->uname;
		break;
	case TRACE_DAT_OPT_VERSION:
		dst = &c->td->tracer_version;
		break;
	case TRACE_DAT_OPT_CPUSTAT:
		if (c->td->cpustats)	/* one option per CPU: keep the first */
			break;
		dst = &c->td->cpustats;
		break;
	case TRACE_DAT_OPT_BUFFER:
		return fail(c, "trace.dat files with several buffers are not supported");
	default:
		break;
	}
	if (dst) {
		free(*dst);
		*dst = NULL;
		return get_block(c, size, dst, "option");
	}
	ret = need(c, size, "option");
	c->pos += size;
	return ret;
}

static int read_options(struct cur *c, int *has_clock)
{
	for (;;) {
		uint64_t id, size;
		int ret;

		if ((ret = get_u(c, 2, &id, "option id")))
			return ret;
		if (id == TRACE_DAT_OPT_DONE)
			return 0;
		if ((ret = get_u(c, 4, &size, "option size")) ||
		    (ret = read_option(c, id, size, has_clock)))
			return ret;
	}
}

/* "[local] global counter" -> "local" */
static char *current_clock(const char *text)
{
	const char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;

	return close ? strndup(open + 1, close - open - 1) : NULL;
}

static int read_cpus(struct cur *c, uint64_t nr_cpus, int has_clock)
{
	const char *section;
	int ret;

	if ((ret = need(c, 10, "section name")))
		return ret;
	section = (const char *)c->td->map + c->pos;
	if (!memcmp(section, "latency  ", 10))
		return fail(c, "latency trace.dat files (text only) are not supported");
	if (memcmp(section, "flyrecord", 10))
		return fail(c, "expected 'flyrecord'");
	c->pos += 10;
	c->td->cpus = calloc(nr_cpus ? nr_cpus : 1, sizeof(*c->td->cpus));
	if (!c->td->cpus)
		return -ENOMEM;
	c->td->nr_cpus = nr_cpus;
	for (uint64_t i = 0; i < nr_cpus; i++) {
		struct trace_dat_cpu *cpu = &c->td->cpus[i];

		if ((ret = get_u(c, 8, &cpu->offset, "CPU data offset")) ||
		    (ret = get_u(c, 8, &cpu->size, "CPU data size")))
			return ret;
		if (cpu->offset > c->td->size || cpu->size > c->td->size - cpu->offset) {
			c->pos -= 16;
			return fail(c, "CPU data beyond the end of the file");
		}
	}
	if (has_clock) {
		uint64_t size;
		char *text;

		if ((ret = get_u(c, 8, &size, "trace_clock size")) ||
		    (ret = get_block(c, size, &text, "trace_clock")))
			return ret;
		c->td->clock = current_clock(text);
		free(text);
	}
	return 0;
}

static int parse(struct trace_dat *td, char *err, size_t errsize)
{
	struct cur c = { .td = td, .err = err, .errsize = errsize };
	uint64_t nr_cpus;
	int has_clock = 0, ret;

	td->pfmt.big_endian = 0;
	if ((ret = read_initial(&c)))
		return ret;
	if (trace_event__init(&td->tevent, td->long_size, td->big_endian, td->page_size))
		return -ENOMEM;
	if ((ret = read_header_info(&c)) || (ret = read_events(&c)) || (ret = read_texts(&c)) ||
	    (ret = get_u(&c, 4, &nr_cpus, "CPU count")))
		return ret;
	if (nr_cpus > 4096)
		return fail(&c, "absurd CPU count");
	tep_set_cpus(td->tevent.tep, nr_cpus);
	if ((ret = need(&c, 10, "section name")))
		return ret;
	if (!memcmp(td->map + c.pos, "options  ", 10)) {
		c.pos += 10;
		if ((ret = read_options(&c, &has_clock)))
			return ret;
	}
	return read_cpus(&c, nr_cpus, has_clock);
}

int trace_dat__open_mem(struct trace_dat *td, const void *buf, size_t size,
			const char *name, char *err, size_t errsize)
{
	int ret;

	memset(td, 0, sizeof(*td));
	td->path = strdup(name);
	if (!td->path)
		return -ENOMEM;
	td->map = buf;
	td->size = size;
	ret = parse(td, err, errsize);
	if (ret == -ENOMEM)
		snprintf(err, errsize, "'%s': out of memory", name);
	if (ret)
		trace_dat__close(td);
	return ret;
}

int trace_dat__open(struct trace_dat *td, const char *path, char *err, size_t errsize)
{
	struct stat st;
	void *map;
	int fd, ret;

	memset(td, 0, sizeof(*td));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errsize, "cannot open '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (st.st_size == 0) {
		close(fd);
		snprintf(err, errsize, "'%s': truncated: the file is empty at offset 0", path);
		return -EINVAL;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ret = -errno;
	close(fd);
	if (map == MAP_FAILED) {
		snprintf(err, errsize, "cannot map '%s': %s", path, strerror(-ret));
		return ret;
	}
	ret = trace_dat__open_mem(td, map, st.st_size, path, err, errsize);
	if (ret)
		munmap(map, st.st_size);
	else
		td->mapped = 1;
	return ret;
}

void trace_dat__close(struct trace_dat *td)
{
	trace_event__exit(&td->tevent);
	if (td->mapped)
		munmap((void *)td->map, td->size);
	free(td->path);
	free(td->cpus);
	free(td->clock);
	free(td->uname);
	free(td->tracer_version);
	free(td->cpustats);
	memset(td, 0, sizeof(*td));
}

struct trace_dat_iter_cpu {
	uint64_t page;			/* offset of the current page in the file */
	struct ftrace_page_iter pi;
	struct ftrace_page_event ev;
	long long missed;
	int loaded, has_ev, done;
};

int trace_dat__iter_init(struct trace_dat_iter *it, struct trace_dat *td)
{
	memset(it, 0, sizeof(*it));
	it->td = td;
	it->cpu = calloc(td->nr_cpus ? td->nr_cpus : 1, sizeof(*it->cpu));
	if (!it->cpu)
		return -ENOMEM;
	for (int i = 0; i < td->nr_cpus; i++)
		it->cpu[i].page = td->cpus[i].offset;
	return 0;
}

void trace_dat__iter_exit(struct trace_dat_iter *it)
{
	free(it->cpu);
	it->cpu = NULL;
}

/* Make sure CPU @i has its next event loaded (or is done). */
static int fill(struct trace_dat_iter *it, int i)
{
	struct trace_dat_iter_cpu *c = &it->cpu[i];
	struct trace_dat *td = it->td;
	uint64_t end = td->cpus[i].offset + td->cpus[i].size;

	while (!c->has_ev && !c->done) {
		int ret;

		if (!c->loaded) {
			uint64_t len = end - c->page;

			if (c->page >= end) {
				c->done = 1;
				break;
			}
			if (len > (uint64_t)td->page_size)
				len = td->page_size;
			if (ftrace_page__init(&c->pi, &td->pfmt, td->map + c->page, len)) {
				it->bad_offset = c->page;
				return -EINVAL;
			}
			c->missed = c->pi.missed;
			c->loaded = 1;
		}
		ret = ftrace_page__next(&c->pi, &c->ev);
		if (ret < 0) {
			it->bad_offset = c->page + td->pfmt.data_offset + c->pi.pos;
			return ret;
		}
		if (ret == 0) {
			c->loaded = 0;
			c->page += td->page_size;
			continue;
		}
		c->has_ev = 1;
	}
	return 0;
}

int trace_dat__iter_next(struct trace_dat_iter *it, struct trace_dat_event *ev)
{
	int best = -1;

	for (int i = 0; i < it->td->nr_cpus; i++) {
		int ret = fill(it, i);

		if (ret)
			return ret;
		if (it->cpu[i].has_ev &&
		    (best < 0 || it->cpu[i].ev.ts < it->cpu[best].ev.ts))
			best = i;
	}
	if (best < 0)
		return 0;
	ev->cpu = best;
	ev->ts = it->cpu[best].ev.ts;
	ev->data = it->cpu[best].ev.data;
	ev->size = it->cpu[best].ev.size;
	ev->missed = it->cpu[best].missed;
	it->cpu[best].missed = 0;
	it->cpu[best].has_ev = 0;
	return 1;
}

/* Writing */

struct out {
	int fd;
	int err;
};

static void put(struct out *o, const void *buf, size_t len)
{
	const char *p = buf;

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

static void put_options(struct out *o, const struct trace_dat_wparams *p)
{
	struct utsname u;
	char buf[512];
	int32_t cpus = p->nr_cpus;

	put(o, "options  ", 10);
	if (p->cpustats)
		put_option(o, TRACE_DAT_OPT_CPUSTAT, p->cpustats, strlen(p->cpustats) + 1);
	if (p->clock_text)
		put_option(o, TRACE_DAT_OPT_TRACECLOCK, NULL, 0);
	if (!uname(&u)) {
		snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename, u.release,
			 u.version);
		put_option(o, TRACE_DAT_OPT_UNAME, buf, strlen(buf) + 1);
	}
	put_option(o, TRACE_DAT_OPT_CPUCOUNT, &cpus, 4);
	if (p->version)
		put_option(o, TRACE_DAT_OPT_VERSION, p->version, strlen(p->version) + 1);
	put_u(o, TRACE_DAT_OPT_DONE, 2);
}

static int put_metadata(struct out *o, const struct trace_dat_wparams *p)
{
	char path[4096];
	int ret;

	put(o, magic, sizeof(magic));
	put(o, "6", 2);
	put_u(o, 0, 1);
	put_u(o, sizeof(long), 1);
	put_u(o, sysconf(_SC_PAGESIZE), 4);
	put(o, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", p->tracefs);
	if ((ret = put_file(o, path, 8)))
		return ret;
	put(o, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", p->tracefs);
	if ((ret = put_file(o, path, 8)) || (ret = put_ftrace_formats(o, p->tracefs)) ||
	    (ret = put_event_formats(o, p)))
		return ret;
	if ((ret = put_file(o, "/proc/kallsyms", 4)))
		return ret;
	snprintf(path, sizeof(path), "%s/printk_formats", p->tracefs);
	if ((ret = put_file(o, path, 4)))
		return ret;
	snprintf(path, sizeof(path), "%s/saved_cmdlines", p->tracefs);
	if ((ret = put_file(o, path, 8)))
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
	table = lseek(o->fd, 0, SEEK_CUR);
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
	off = lseek(o->fd, 0, SEEK_CUR);
	if (off % page) {
		static const char zero[65536];

		put(o, zero, page - off % page);
	}
	for (int i = 0; i < p->nr_cpus && !ret; i++)
		ret = copy_cpu(o, p->cpu_fds[i], sizes[i]);
	free(sizes);
	return ret ? ret : o->err;
}

int trace_dat__write(const char *path, const struct trace_dat_wparams *p,
		     char *err, size_t errsize)
{
	struct out o = { .fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) };
	int ret;

	if (o.fd < 0) {
		ret = -errno;
		snprintf(err, errsize, "cannot create '%s': %s", path, strerror(errno));
		return ret;
	}
	ret = put_metadata(&o, p);
	if (!ret)
		ret = put_cpu_data(&o, p);
	if (close(o.fd) && !ret)
		ret = -errno;
	if (ret)
		snprintf(err, errsize, "cannot write '%s': %s", path, strerror(-ret));
	return ret;
}
