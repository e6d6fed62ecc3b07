// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trace.dat version 6 reader and writer (see trace-dat.h and
 * trace-cmd.dat.v6(5) for the layout).
 */
#include <ctype.h>
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

#include <zlib.h>
#include <zstd.h>

#include "util/trace/trace-dat.h"
#include "util/trace/tracing-data.h"

/**
 * trace_dat__decompress - inflate @csize bytes of @algo ("zstd", "zlib") into
 *	exactly @ulen bytes at @out
 * Returns 0, -EINVAL on corrupt data, -ENOTSUP for an unknown @algo (@in may
 * then be NULL: a probe for support).
 */
static int trace_dat__decompress(const char *algo, const void *in, size_t csize, void *out,
				 size_t ulen);

static const char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/*
 * A bounds-checked cursor over the file image, or over a decompressed
 * section of it (then errors name the section's offset in the file).
 */
struct cur {
	struct trace_dat *td;
	const uint8_t *base;
	size_t size, pos;
	uint64_t file_off;	/* of base in the file, or of the compressed section */
	int packed;		/* base is a decompressed copy */
	char *err;
	size_t errsize;
	uint64_t *buf_offs;	/* version 6: where each instance's CPU table is */
};

static int fail(struct cur *c, const char *what)
{
	if (c->packed)
		snprintf(c->err, c->errsize, "'%s': %s in the compressed section at offset %llu",
			 c->td->path, what, (unsigned long long)c->file_off);
	else
		snprintf(c->err, c->errsize, "'%s': %s at offset %llu", c->td->path, what,
			 (unsigned long long)(c->file_off + c->pos));
	return -EINVAL;
}

static int need(struct cur *c, uint64_t n, const char *what)
{
	char msg[160];

	if (n > c->size - c->pos) {
		snprintf(msg, sizeof(msg), "truncated: %s needs %llu bytes, %zu left", what,
			 (unsigned long long)n, c->size - c->pos);
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
		const uint8_t *p = c->base + c->pos;

		if (c->td->big_endian) {
			b[2] = p[0];
			b[3] = p[1];
		} else {
			b[0] = p[0];
			b[1] = p[1];
		}
		*v = ftrace_page__read_u32(&c->td->pfmt, b);
	} else if (n == 4) {
		*v = ftrace_page__read_u32(&c->td->pfmt, c->base + c->pos);
	} else {
		*v = ftrace_page__read_u64(&c->td->pfmt, c->base + c->pos);
	}
	c->pos += n;
	return 0;
}

/* A NUL-terminated string at the cursor. */
static int get_str(struct cur *c, const char **s, const char *what)
{
	const uint8_t *start = c->base + c->pos;
	const uint8_t *nul = memchr(start, 0, c->size - c->pos);

	*s = "";
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
	memcpy(*out, c->base + c->pos, size);
	(*out)[size] = 0;
	c->pos += size;
	return 0;
}

static int read_initial(struct cur *c)
{
	const char *ver;
	uint64_t v;
	int ret;

	if (need(c, sizeof(magic), "magic") || memcmp(c->base, magic, sizeof(magic)))
		return fail(c, "not a trace.dat file (bad magic)");
	c->pos = sizeof(magic);
	if ((ret = get_str(c, &ver, "version string")))
		return ret;
	c->td->version = atoi(ver);
	if (c->td->version != 6 && c->td->version != 7)
		return fail(c, "unsupported trace.dat version (6 and 7 are)");
	if ((ret = need(c, 2, "endianness and long size")))
		return ret;
	c->td->big_endian = c->base[c->pos] != 0;
	c->td->long_size = c->base[c->pos + 1];
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
	c->td->has_header = 1;
	return 0;
}

/* A "field:DECL;<tab>offset:N;<tab>size:N;..." line of a format. */
static int field_line_sane(const char *p, const char *nl)
{
	const char *semi = memchr(p, ';', nl - p);
	int depth = 0;

	if (!semi || !memmem(semi, nl - semi, "offset:", 7) || !memmem(semi, nl - semi, "size:", 5))
		return 0;
	for (const char *q = p + 6; q < semi; q++) {
		if (!isalnum((unsigned char)*q) && !strchr("_ *[]", *q))
			return 0;
		depth += (*q == '[') - (*q == ']');
		if (depth < 0 || depth > 1)
			return 0;
	}
	return !depth;
}

/*
 * The print fmt after "print fmt: ": string literals (escapes, newlines
 * allowed), then C expressions: balanced ()[]{} and C's characters only.
 */
static int print_fmt_sane(const char *p, const char *end)
{
	char stack[64];
	int depth = 0, in_str = 0;

	for (; p < end; p++) {
		const char *close;

		if (in_str) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (*p == '"') {
			in_str = 1;
		} else if (*p == '(' || *p == '[' || *p == '{') {
			if (depth == (int)sizeof(stack))
				return 0;
			stack[depth++] = *p == '(' ? ')' : *p == '[' ? ']' : '}';
		} else if ((close = strchr(")]}", *p)) && *p) {
			if (!depth || stack[--depth] != *close)
				return 0;
		} else if (!isalnum((unsigned char)*p) && !strchr(" \t\n!%&'*+,-./:;<=>?_|~^", *p)) {
			return 0;
		}
	}
	return !depth && !in_str;
}

/*
 * Whether a format text is laid out as tracefs writes it: libtraceevent 1.7
 * dereferences NULL on some malformed texts (a field cut inside its
 * brackets, a stray line among the fields), so only well-formed ones reach
 * it.  Printable text; between "format:" and "print fmt:" only blank lines
 * and well-formed field lines.
 */
int trace_dat__format_ok(const char *text, size_t size)
{
	const char *end = text + size, *p, *fmt, *pf;

	while (end > text && !end[-1])	/* trailing NULs are harmless */
		end--;
	for (p = text; p < end; p++)
		if ((*p < 0x20 || *p > 0x7e) && *p != '\n' && *p != '\t')
			return 0;
	fmt = memmem(text, end - text, "\nformat:\n", 9);
	pf = memmem(text, end - text, "\nprint fmt:", 11);
	if (!fmt || !pf || pf < fmt)
		return 0;
	for (p = fmt + 9; p < pf;) {
		const char *nl = memchr(p, '\n', pf + 1 - p);

		while (p < nl && (*p == ' ' || *p == '\t'))
			p++;
		if (p < nl && (nl - p < 6 || memcmp(p, "field:", 6) || !field_line_sane(p, nl)))
			return 0;
		p = nl + 1;
	}
	return print_fmt_sane(pf + 11, end);
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
		if (trace_dat__format_ok((const char *)c->base + c->pos, size))
			trace_event__parse_format(&c->td->tevent, sys,
						  (const char *)c->base + c->pos, size);
		c->pos += size;
	}
	return 0;
}

static int read_ftrace_formats(struct cur *c)
{
	uint64_t count;
	int ret;

	if ((ret = get_u(c, 4, &count, "ftrace format count")))
		return ret;
	return read_formats(c, "ftrace", count);
}

static int read_event_formats(struct cur *c)
{
	uint64_t count, nsys;
	const char *sys;
	int ret;

	if ((ret = get_u(c, 4, &nsys, "event system count")))
		return ret;
	for (uint64_t i = 0; i < nsys; i++) {
		if ((ret = get_str(c, &sys, "event system name")) ||
		    (ret = get_u(c, 4, &count, "event count")) ||
		    (ret = read_formats(c, sys, count)))
			return ret;
	}
	return 0;
}

static int read_kallsyms(struct cur *c)
{
	uint64_t size;
	char *text;
	int ret;

	if ((ret = get_u(c, 4, &size, "kallsyms size")) ||
	    (ret = get_block(c, size, &text, "kallsyms")))
		return ret;
	c->td->has_kallsyms = size > 0;
	if (size)
		trace_table__parse(c->td->tevent.tep, TRACE_TABLE_KALLSYMS, text);
	free(text);
	return 0;
}

static int read_printk(struct cur *c)
{
	uint64_t size;
	char *text;
	int ret;

	if ((ret = get_u(c, 4, &size, "printk formats size")) ||
	    (ret = get_block(c, size, &text, "printk formats")))
		return ret;
	if (size)
		trace_table__parse(c->td->tevent.tep, TRACE_TABLE_PRINTK, text);
	free(text);
	return 0;
}

static int read_cmdlines(struct cur *c)
{
	uint64_t size;
	char *text;
	int ret;

	if ((ret = get_u(c, 8, &size, "saved cmdlines size")) ||
	    (ret = get_block(c, size, &text, "saved cmdlines")))
		return ret;
	if (size)
		trace_table__parse(c->td->tevent.tep, TRACE_TABLE_CMDLINES, text);
	free(text);
	return 0;
}

/* Version 6: the metadata blocks follow each other. */
static int read_metadata_v6(struct cur *c)
{
	int ret;

	if ((ret = read_header_info(c)) || (ret = read_ftrace_formats(c)) ||
	    (ret = read_event_formats(c)) || (ret = read_kallsyms(c)) ||
	    (ret = read_printk(c)))
		return ret;
	return read_cmdlines(c);
}

/* A string option's text into *dst (replacing it). */
static int option_text(struct cur *c, uint64_t size, char **dst)
{
	free(*dst);
	*dst = NULL;
	return get_block(c, size, dst, "option");
}

/* Name the next buffer (the top one first, ""); its index or -errno. */
static int add_buffer(struct trace_dat *td, const char *name)
{
	char **v = realloc(td->buffer_names, (size_t)(td->nr_buffers + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	td->buffer_names = v;
	if (!(v[td->nr_buffers] = strdup(name)))
		return -ENOMEM;
	return td->nr_buffers++;
}

/* Room for @n more CPU slots of buffer @buffer; the first of them. */
static struct trace_dat_cpu *add_slots(struct trace_dat *td, int buffer, uint64_t n)
{
	struct trace_dat_cpu *v;

	if (n > TRACE_DAT_MAX_CPUS || td->nr_slots > 64 * TRACE_DAT_MAX_CPUS)
		return NULL;
	v = realloc(td->cpus, (size_t)(td->nr_slots + n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	td->cpus = v;
	v += td->nr_slots;
	memset(v, 0, (size_t)(n + 1) * sizeof(*v));
	for (uint64_t i = 0; i < n; i++) {
		v[i].buffer = buffer;
		v[i].cpu = (int)i;
	}
	td->nr_slots += (int)n;
	return v;
}

/* Version 6's BUFFER option: the offset of an instance's data, its name. */
static int read_buffer_option_v6(struct cur *c, uint64_t size)
{
	const char *name = (const char *)c->base + c->pos + 8;
	uint64_t *offs, off;
	int ret;

	if ((ret = need(c, size, "option")))
		return ret;
	if (size < 9 || !memchr(name, '\0', size - 8))
		return fail(c, "a BUFFER option without its name");
	if ((ret = get_u(c, 8, &off, "buffer offset")))
		return ret;
	if (c->td->nr_buffers >= 256)
		return fail(c, "too many buffers");
	offs = realloc(c->buf_offs, (size_t)(c->td->nr_buffers + 1) * sizeof(*offs));
	if (!offs)
		return -ENOMEM;
	c->buf_offs = offs;
	offs[c->td->nr_buffers] = off;
	ret = add_buffer(c->td, name);
	c->pos += size - 8;
	return ret < 0 ? ret : 0;
}

static int read_option(struct cur *c, uint64_t id, uint64_t size, int *has_clock)
{
	int ret;

	switch (id) {
	case TRACE_DAT_OPT_TRACECLOCK:
		*has_clock = 1;
		break;
	case TRACE_DAT_OPT_UNAME:
		return option_text(c, size, &c->td->uname);
	case TRACE_DAT_OPT_VERSION:
		return option_text(c, size, &c->td->tracer_version);
	case TRACE_DAT_OPT_CPUSTAT:
		if (!c->td->cpustats)	/* one option per CPU: keep the first */
			return option_text(c, size, &c->td->cpustats);
		break;
	case TRACE_DAT_OPT_BUFFER:
		return read_buffer_option_v6(c, size);
	default:
		break;
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

/* A CPU's data must lie inside the file. */
static int check_cpu(struct cur *c, struct trace_dat_cpu *cpu)
{
	if (cpu->offset > c->td->size || cpu->size > c->td->size - cpu->offset) {
		c->pos -= 16;
		return fail(c, "CPU data beyond the end of the file");
	}
	return 0;
}

/* The offset and size of the pages of each CPU of buffer @buffer. */
static int read_cpu_table(struct cur *c, int buffer, uint64_t nr_cpus)
{
	struct trace_dat_cpu *cpus = add_slots(c->td, buffer, nr_cpus);
	int ret;

	if (!cpus)
		return -ENOMEM;
	for (uint64_t i = 0; i < nr_cpus; i++) {
		struct trace_dat_cpu *cpu = &cpus[i];

		if ((ret = get_u(c, 8, &cpu->offset, "CPU data offset")) ||
		    (ret = get_u(c, 8, &cpu->size, "CPU data size")) ||
		    (ret = check_cpu(c, cpu)))
			return ret;
	}
	return 0;
}

/*
 * Version 6's instances (trace-cmd record -B): at each BUFFER option's
 * offset, "flyrecord" and a table of the top buffer's CPU count.
 */
static int read_instances_v6(struct cur *c)
{
	for (int b = 1; b < c->td->nr_buffers; b++) {
		int ret;

		if (c->buf_offs[b] > c->size || c->size - c->buf_offs[b] < 10)
			return fail(c, "a buffer beyond the end of the file");
		c->pos = c->buf_offs[b];
		if (memcmp(c->base + c->pos, "flyrecord", 10))
			return fail(c, "expected 'flyrecord' at a buffer's offset");
		c->pos += 10;
		if ((ret = read_cpu_table(c, b, (uint64_t)c->td->nr_cpus)))
			return ret;
	}
	return 0;
}

static int read_cpus(struct cur *c, uint64_t nr_cpus, int has_clock)
{
	const char *section;
	int ret;

	if ((ret = need(c, 10, "section name")))
		return ret;
	section = (const char *)c->base + c->pos;
	if (!memcmp(section, "latency  ", 10)) {	/* the rest is tracing/trace's text */
		c->td->nr_cpus = nr_cpus;
		c->td->latency_text = (const char *)c->base + c->pos + 10;
		c->td->latency_len = c->size - c->pos - 10;
		return add_slots(c->td, 0, 0) ? 0 : -ENOMEM;
	}
	if (memcmp(section, "flyrecord", 10))
		return fail(c, "expected 'flyrecord'");
	c->pos += 10;
	c->td->nr_cpus = nr_cpus;
	if ((ret = read_cpu_table(c, 0, nr_cpus)))
		return ret;
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

/* A version 7 BUFFER option: a buffer's section and its CPUs' data. */
struct v7_buffer {
	uint64_t offset;		/* of its BUFFER section */
	char *name;			/* "" for the top buffer */
	struct trace_dat_cpu *cpus;	/* by CPU id */
	uint64_t nr_cpus;		/* the highest id + 1, 0: no CPU at all */
};

#define V7_MAX_BUFFERS 256

/* Version 7: what the options sections point to. */
struct v7_state {
	uint64_t section[TRACE_DAT_SEC_CMDLINES + 1];	/* offsets, by section id */
	uint64_t nr_cpus;		/* the CPUCOUNT option */
	uint64_t latency;		/* the BUFFER_TEXT option's section */
	struct v7_buffer *bufs;		/* in the order of their options */
	int nr_buffers;
};

/*
 * Point @s at the contents of the section at @off, which must have id @id:
 * decompressed into *@owned when it is compressed.
 */
static int open_section(struct cur *c, uint64_t off, uint64_t id, struct cur *s,
			uint8_t **owned, uint64_t *flags)
{
	uint64_t sid, desc, size, csize, usize;
	char msg[96];
	int ret;

	*owned = NULL;
	if (off >= c->size) {
		snprintf(c->err, c->errsize,
			 "'%s': truncated: the section at offset %llu is beyond the end of the file (%zu bytes)",
			 c->td->path, (unsigned long long)off, c->size);
		return -EINVAL;
	}
	c->pos = off;
	if ((ret = get_u(c, 2, &sid, "section id")) || (ret = get_u(c, 2, flags, "section flags")) ||
	    (ret = get_u(c, 4, &desc, "section description")) ||
	    (ret = get_u(c, 8, &size, "section size")))
		return ret;
	if (sid != id) {
		c->pos = off;
		snprintf(msg, sizeof(msg), "expected section %llu, found %llu",
			 (unsigned long long)id, (unsigned long long)sid);
		return fail(c, msg);
	}
	if ((ret = need(c, size, "section")))
		return ret;
	*s = *c;
	s->base = c->base + c->pos;
	s->size = size;
	s->pos = 0;
	s->file_off = c->file_off + c->pos;
	if (!(*flags & TRACE_DAT_SEC_COMPRESSED) || id == TRACE_DAT_SEC_BUFFER ||
	    id == TRACE_DAT_SEC_BUFFER_TEXT)	/* in chunks */
		return 0;
	if ((ret = get_u(s, 4, &csize, "compressed size")) ||
	    (ret = get_u(s, 4, &usize, "uncompressed size")) ||
	    (ret = need(s, csize, "compressed data")))
		return ret;
	if (usize > TRACE_DAT_MAX_BLOCK)
		return fail(s, "absurd uncompressed size");
	*owned = malloc(usize ? usize : 1);
	if (!*owned)
		return -ENOMEM;
	if (trace_dat__decompress(c->td->compression, s->base + 8, csize, *owned, usize)) {
		snprintf(c->err, c->errsize, "'%s': cannot decompress (%s) the section at offset %llu",
			 c->td->path, c->td->compression, (unsigned long long)off);
		return -EINVAL;
	}
	s->base = *owned;
	s->size = usize;
	s->pos = 0;
	s->file_off = off;
	s->packed = 1;
	return 0;
}

/* A BUFFER option: a buffer's name, clock and where its CPUs' pages are. */
static int read_buffer_option(struct cur *c, struct v7_state *st)
{
	const char *name, *clock;
	uint64_t page_size, count;
	struct v7_buffer *b;
	int ret;

	if (st->nr_buffers >= V7_MAX_BUFFERS)
		return fail(c, "too many buffers");
	b = realloc(st->bufs, (size_t)(st->nr_buffers + 1) * sizeof(*b));
	if (!b)
		return -ENOMEM;
	st->bufs = b;
	b = memset(&b[st->nr_buffers++], 0, sizeof(*b));
	if ((ret = get_u(c, 8, &b->offset, "buffer offset")) ||
	    (ret = get_str(c, &name, "buffer name")) || (ret = get_str(c, &clock, "buffer clock")) ||
	    (ret = get_u(c, 4, &page_size, "buffer page size")) ||
	    (ret = get_u(c, 4, &count, "buffer CPU count")))
		return ret;
	if (!(b->name = strdup(name)))
		return -ENOMEM;
	if (page_size != (uint64_t)c->td->page_size)
		return fail(c, "the buffer's page size differs from the file's");
	if (count > TRACE_DAT_MAX_CPUS)
		return fail(c, "absurd CPU count");
	if (!*name) {	/* the top buffer's clock is the file's */
		free(c->td->clock);
		c->td->clock = *clock ? strdup(clock) : NULL;
	}
	b->cpus = calloc(TRACE_DAT_MAX_CPUS, sizeof(*b->cpus));
	if (!b->cpus)
		return -ENOMEM;
	for (uint64_t i = 0; i < count; i++) {
		struct trace_dat_cpu cpu = { 0 };
		uint64_t id;

		if ((ret = get_u(c, 4, &id, "CPU id")) ||
		    (ret = get_u(c, 8, &cpu.offset, "CPU data offset")) ||
		    (ret = get_u(c, 8, &cpu.size, "CPU data size")) || (ret = check_cpu(c, &cpu)))
			return ret;
		if (id >= TRACE_DAT_MAX_CPUS)
			return fail(c, "absurd CPU id");
		b->cpus[id] = cpu;
		if (id >= b->nr_cpus)
			b->nr_cpus = id + 1;
	}
	return 0;
}

static int read_option_v7(struct cur *c, struct v7_state *st, uint64_t id, uint64_t size,
			  uint64_t *next)
{
	size_t end = c->pos + size;
	char *text = NULL;
	int ret;

	if ((ret = need(c, size, "option")))
		return ret;
	switch (id) {
	case TRACE_DAT_OPT_DONE:
		ret = get_u(c, 8, next, "next options offset");
		break;
	case TRACE_DAT_OPT_BUFFER:
		ret = read_buffer_option(c, st);
		break;
	case TRACE_DAT_OPT_BUFFER_TEXT:
		ret = get_u(c, 8, &st->latency, "latency section offset");
		break;
	case TRACE_DAT_OPT_CPUCOUNT:
		ret = get_u(c, 4, &st->nr_cpus, "CPU count");
		break;
	case TRACE_DAT_OPT_TRACECLOCK:
		if (!(ret = get_block(c, size, &text, "trace_clock")) && !c->td->clock)
			c->td->clock = current_clock(text);
		free(text);
		break;
	case TRACE_DAT_SEC_HEADER ... TRACE_DAT_SEC_CMDLINES:
		ret = get_u(c, 8, &st->section[id], "section offset");
		break;
	default:
		return read_option(c, id, size, &(int){ 0 });
	}
	if (!ret && c->pos > end)
		return fail(c, "an option longer than its size");
	c->pos = end;
	return ret;
}

/* Every options section, from the first one on, following the DONE links. */
static int read_options_v7(struct cur *c, uint64_t off, struct v7_state *st)
{
	for (int n = 0; off; n++) {
		struct cur s;
		uint8_t *owned = NULL;
		uint64_t flags, next = 0;
		int ret = n > 64 ? fail(c, "too many options sections") :
			  open_section(c, off, TRACE_DAT_SEC_OPTIONS, &s, &owned, &flags);

		while (!ret && s.pos < s.size) {
			uint64_t id = 1, size;

			if (!(ret = get_u(&s, 2, &id, "option id")) &&
			    !(ret = get_u(&s, 4, &size, "option size")))
				ret = read_option_v7(&s, st, id, size, &next);
			if (id == TRACE_DAT_OPT_DONE)
				break;
		}
		free(owned);
		if (ret)
			return ret;
		off = next;
	}
	return 0;
}

static int read_metadata_v7(struct cur *c, struct v7_state *st)
{
	static int (*const readers[])(struct cur *) = {
		[TRACE_DAT_SEC_HEADER] = read_header_info,
		[TRACE_DAT_SEC_FTRACE] = read_ftrace_formats,
		[TRACE_DAT_SEC_EVENTS] = read_event_formats,
		[TRACE_DAT_SEC_KALLSYMS] = read_kallsyms,
		[TRACE_DAT_SEC_PRINTK] = read_printk,
		[TRACE_DAT_SEC_CMDLINES] = read_cmdlines,
	};

	if (!st->section[TRACE_DAT_SEC_HEADER])
		return fail(c, "no HEADER_INFO option (the header page section)");
	for (int id = TRACE_DAT_SEC_HEADER; id <= TRACE_DAT_SEC_CMDLINES; id++) {
		struct cur s;
		uint8_t *owned;
		uint64_t flags;
		int ret;

		if (!st->section[id])
			continue;
		ret = open_section(c, st->section[id], id, &s, &owned, &flags);
		if (!ret)
			ret = readers[id](&s);
		free(owned);
		if (ret)
			return ret;
	}
	return 0;
}

/* A compressed CPU's chunks: count, then (compressed size, size, data)... */
static int read_chunks(struct cur *c, struct trace_dat_cpu *cpu)
{
	uint64_t count, csize, usize;
	int ret;

	c->pos = cpu->offset;
	if ((ret = get_u(c, 4, &count, "chunk count")))
		return ret;
	if (count > cpu->size / 8)
		return fail(c, "absurd chunk count");
	cpu->chunks = calloc(count ? count : 1, sizeof(*cpu->chunks));
	if (!cpu->chunks)
		return -ENOMEM;
	for (uint64_t i = 0; i < count; i++) {
		if ((ret = get_u(c, 4, &csize, "chunk size")) ||
		    (ret = get_u(c, 4, &usize, "chunk uncompressed size")) ||
		    (ret = need(c, csize, "chunk")))
			return ret;
		if (c->pos + csize > cpu->offset + 4 + cpu->size)	/* size omits the count */
			return fail(c, "a chunk beyond its CPU's data");
		if (usize > TRACE_DAT_MAX_BLOCK || usize % c->td->page_size)
			return fail(c, "bad chunk size");
		cpu->chunks[i] = (struct trace_dat_chunk){ c->pos, csize, usize };
		c->pos += csize;
		cpu->nr_chunks++;
	}
	return 0;
}

/* The CPU slots of buffer @b (index @idx of td's buffers), @n of them. */
static int read_buffer_cpus_v7(struct cur *c, const struct v7_buffer *b, int idx, uint64_t n)
{
	struct trace_dat *td = c->td;
	struct trace_dat_cpu *slots = add_slots(td, idx, n);
	uint64_t flags;
	uint8_t *owned;
	struct cur s;
	int ret, compressed;

	if (!slots)
		return -ENOMEM;
	if (!b || !b->offset)
		return 0;
	if ((ret = open_section(c, b->offset, TRACE_DAT_SEC_BUFFER, &s, &owned, &flags)))
		return ret;
	compressed = !!(flags & TRACE_DAT_SEC_COMPRESSED);
	if (compressed && !strcmp(td->compression, "none"))
		return fail(c, "a compressed buffer in a file without compression");
	if (idx && compressed != td->compressed)
		return fail(c, "buffers compressed and not in one file");
	td->compressed = compressed;
	for (uint64_t i = 0; i < b->nr_cpus; i++) {
		slots[i].offset = b->cpus[i].offset;
		slots[i].size = b->cpus[i].size;
		if (compressed && slots[i].size && (ret = read_chunks(c, &slots[i])))
			return ret;
	}
	return 0;
}

/*
 * A latency file's text (BUFFER_TEXT option): the section's bytes, or
 * when compressed, its chunks (count, then compressed and plain sizes
 * and data) inflated one after the other.
 */
static int read_latency_v7(struct cur *c, struct v7_state *st)
{
	struct trace_dat *td = c->td;
	uint64_t flags, count, csize, usize, total = 0;
	uint8_t *owned, *text = NULL;
	struct cur s;
	int ret;

	td->nr_cpus = st->nr_cpus;
	if (!add_slots(td, 0, 0))
		return -ENOMEM;
	if ((ret = open_section(c, st->latency, TRACE_DAT_SEC_BUFFER_TEXT, &s, &owned, &flags)))
		return ret;
	if (!(flags & TRACE_DAT_SEC_COMPRESSED)) {
		td->latency_text = (const char *)s.base;
		td->latency_len = s.size;
		return 0;
	}
	if ((ret = get_u(&s, 4, &count, "chunk count")))
		return ret;
	for (uint64_t i = 0; i < count; i++) {
		uint8_t *n;

		if ((ret = get_u(&s, 4, &csize, "chunk size")) ||
		    (ret = get_u(&s, 4, &usize, "chunk uncompressed size")) ||
		    (ret = need(&s, csize, "chunk")))
			break;
		if (usize > TRACE_DAT_MAX_BLOCK || total + usize > TRACE_DAT_MAX_BLOCK) {
			ret = fail(&s, "absurd uncompressed size");
			break;
		}
		if (!(n = realloc(text, total + usize + 1))) {
			ret = -ENOMEM;
			break;
		}
		text = n;
		if (trace_dat__decompress(td->compression, s.base + s.pos, csize, text + total,
					  usize)) {
			ret = fail(&s, "cannot decompress the latency text");
			break;
		}
		total += usize;
		s.pos += csize;
	}
	if (ret) {
		free(text);
		return ret;
	}
	td->latency_owned = text;
	td->latency_text = text ? (const char *)text : "";
	td->latency_len = total;
	return 0;
}

/*
 * Every buffer: the top one (named "") first, then the instances in the
 * order of their options, those without CPUs left out as trace-cmd
 * report leaves them out.
 */
static int read_buffer_v7(struct cur *c, struct v7_state *st)
{
	struct trace_dat *td = c->td;
	const struct v7_buffer *top = NULL;
	uint64_t n = st->nr_cpus;
	int ret, idx;

	for (int i = 0; i < st->nr_buffers; i++) {
		if (st->bufs[i].nr_cpus > n)
			n = st->bufs[i].nr_cpus;
		if (!*st->bufs[i].name && !top)
			top = &st->bufs[i];
	}
	if (n > TRACE_DAT_MAX_CPUS)
		return fail(c, "absurd CPU count");
	td->nr_cpus = n;
	tep_set_cpus(td->tevent.tep, n);
	if ((ret = add_buffer(td, "")) < 0 || (ret = read_buffer_cpus_v7(c, top, 0, n)))
		return ret;
	for (int i = 0; i < st->nr_buffers; i++) {
		const struct v7_buffer *b = &st->bufs[i];

		if (b == top || !b->nr_cpus)
			continue;
		if ((idx = add_buffer(td, b->name)) < 0)
			return idx;
		if ((ret = read_buffer_cpus_v7(c, b, idx, n)))
			return ret;
	}
	return 0;
}

static int parse_v7(struct cur *c)
{
	struct v7_state st = { 0 };
	const char *name, *version;
	uint64_t off;
	int ret;

	if ((ret = get_str(c, &name, "compression name")) ||
	    (ret = get_str(c, &version, "compression version")) ||
	    (ret = get_u(c, 8, &off, "options offset")))
		return ret;
	if (strcmp(name, "none") && trace_dat__decompress(name, NULL, 0, NULL, 0) == -ENOTSUP) {
		char msg[128];

		snprintf(msg, sizeof(msg), "unsupported compression '%.40s' (zstd and zlib are)", name);
		c->pos -= 8;
		return fail(c, msg);
	}
	c->td->compression = strdup(name);
	if (!c->td->compression)
		return -ENOMEM;
	if (!off)
		return fail(c, "no options section");
	ret = read_options_v7(c, off, &st);
	if (!ret)
		ret = read_metadata_v7(c, &st);
	if (!ret)
		ret = st.latency && !st.nr_buffers ? read_latency_v7(c, &st) :
		      read_buffer_v7(c, &st);
	for (int i = 0; i < st.nr_buffers; i++) {
		free(st.bufs[i].name);
		free(st.bufs[i].cpus);
	}
	free(st.bufs);
	return ret;
}

static int parse_v6(struct cur *c)
{
	uint64_t nr_cpus;
	int has_clock = 0, ret;

	if ((ret = read_metadata_v6(c)) || (ret = get_u(c, 4, &nr_cpus, "CPU count")))
		return ret;
	if (nr_cpus > TRACE_DAT_MAX_CPUS)
		return fail(c, "absurd CPU count");
	tep_set_cpus(c->td->tevent.tep, nr_cpus);
	if ((ret = need(c, 10, "section name")))
		return ret;
	if ((ret = add_buffer(c->td, "")) < 0)
		return ret;
	if (!memcmp(c->base + c->pos, "options  ", 10)) {
		c->pos += 10;
		if ((ret = read_options(c, &has_clock)))
			return ret;
	}
	ret = read_cpus(c, nr_cpus, has_clock);
	if (!ret)
		ret = read_instances_v6(c);
	free(c->buf_offs);
	c->buf_offs = NULL;
	return ret;
}

static int parse(struct trace_dat *td, char *err, size_t errsize)
{
	struct cur c = { .td = td, .base = td->map, .size = td->size, .err = err,
			 .errsize = errsize };
	int ret;

	td->pfmt.big_endian = 0;
	if ((ret = read_initial(&c)))
		return ret;
	if (trace_event__init(&td->tevent, td->long_size, td->big_endian, td->page_size))
		return -ENOMEM;
	return td->version == 7 ? parse_v7(&c) : parse_v6(&c);
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
	/* not blocking on a FIFO, refused below as a device is: a file is mapped */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errsize, "cannot open '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errsize, "'%s' is not a regular file", path);
		return -EINVAL;
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
	if (td->show_priv_free)
		td->show_priv_free(td->show_priv);
	trace_event__exit(&td->tevent);
	if (td->mapped)
		munmap((void *)td->map, td->size);
	free(td->path);
	for (int i = 0; td->cpus && i < td->nr_slots; i++)
		free(td->cpus[i].chunks);
	free(td->cpus);
	free(td->latency_owned);
	for (int i = 0; td->buffer_names && i < td->nr_buffers; i++)
		free(td->buffer_names[i]);
	free(td->buffer_names);
	free(td->compression);
	free(td->clock);
	free(td->uname);
	free(td->tracer_version);
	free(td->cpustats);
	memset(td, 0, sizeof(*td));
}

struct trace_dat_iter_cpu {
	const uint8_t *buf;		/* the pages: the file's, or an inflated chunk */
	uint64_t len, page;		/* bytes in buf, offset of the current page */
	uint64_t file_off;		/* of buf in the file (of the chunk if packed) */
	uint8_t *owned[2];		/* inflated chunks: the current and the one before
					   (an event of it may still be in use) */
	uint32_t next_chunk;
	int packed;
	struct ftrace_page_iter pi;
	struct ftrace_page_event ev;
	long long missed;
	int loaded, has_ev, done;
};

int trace_dat__iter_init(struct trace_dat_iter *it, struct trace_dat *td)
{
	memset(it, 0, sizeof(*it));
	it->td = td;
	it->cpu = calloc(td->nr_slots ? td->nr_slots : 1, sizeof(*it->cpu));
	if (!it->cpu)
		return -ENOMEM;
	return 0;
}

void trace_dat__iter_exit(struct trace_dat_iter *it)
{
	for (int i = 0; it->cpu && i < it->td->nr_slots; i++) {
		free(it->cpu[i].owned[0]);
		free(it->cpu[i].owned[1]);
	}
	free(it->cpu);
	it->cpu = NULL;
}

/* Load the next run of pages of CPU @i: 1, 0 when there is none, -EINVAL. */
static int next_buf(struct trace_dat_iter *it, int i)
{
	struct trace_dat_iter_cpu *c = &it->cpu[i];
	const struct trace_dat_cpu *cpu = &it->td->cpus[i];
	const struct trace_dat_chunk *ch;
	uint8_t *nb;

	c->page = 0;
	if (!it->td->compressed) {
		if (c->next_chunk++ || !cpu->size)
			return 0;
		c->buf = it->td->map + cpu->offset;
		c->len = cpu->size;
		c->file_off = cpu->offset;
		return 1;
	}
	if (c->next_chunk >= cpu->nr_chunks)
		return 0;
	ch = &cpu->chunks[c->next_chunk];
	nb = realloc(c->owned[c->next_chunk & 1], ch->usize ? ch->usize : 1);
	if (!nb)
		return -ENOMEM;
	c->owned[c->next_chunk++ & 1] = nb;
	c->buf = nb;
	c->len = ch->usize;
	c->file_off = ch->offset;
	c->packed = 1;
	if (trace_dat__decompress(it->td->compression, it->td->map + ch->offset, ch->csize,
				  nb, ch->usize)) {
		it->bad_offset = ch->offset;
		return -EINVAL;
	}
	return 1;
}

/* Make sure CPU @i has its next event loaded (or is done). */
static int fill(struct trace_dat_iter *it, int i)
{
	struct trace_dat_iter_cpu *c = &it->cpu[i];
	struct trace_dat *td = it->td;

	while (!c->has_ev && !c->done) {
		int ret;

		if (!c->loaded) {
			uint64_t len = c->len - c->page;

			if (c->page >= c->len) {
				ret = next_buf(it, i);
				if (ret < 0)
					return ret;
				c->done = !ret;
				continue;
			}
			if (len > (uint64_t)td->page_size)
				len = td->page_size;
			if (ftrace_page__init(&c->pi, &td->pfmt, c->buf + c->page, len)) {
				it->bad_offset = c->file_off + (c->packed ? 0 : c->page);
				return -EINVAL;
			}
			c->missed = c->pi.missed;
			c->loaded = 1;
		}
		ret = ftrace_page__next(&c->pi, &c->ev);
		if (ret < 0) {
			it->bad_offset = c->file_off + (c->packed ? 0 :
					 c->page + td->pfmt.data_offset + c->pi.pos);
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

/* The slot with the earliest event (of @buffer, -1: any): its index, -1, -errno. */
static int earliest(struct trace_dat_iter *it, int buffer)
{
	int best = -1;

	for (int i = 0; i < it->td->nr_slots; i++) {
		int ret;

		if (buffer >= 0 && it->td->cpus[i].buffer != buffer)
			continue;
		if ((ret = fill(it, i)))
			return ret;
		if (it->cpu[i].has_ev &&
		    (best < 0 || it->cpu[i].ev.ts < it->cpu[best].ev.ts))
			best = i;
	}
	return best;
}

int trace_dat__iter_peek(struct trace_dat_iter *it, int buffer, struct trace_dat_event *ev)
{
	int best = earliest(it, buffer);

	if (best < 0)
		return best == -1 ? 0 : best;
	ev->cpu = it->td->cpus[best].cpu;
	ev->buffer = buffer;
	ev->ts = it->cpu[best].ev.ts;
	ev->data = it->cpu[best].ev.data;
	ev->size = it->cpu[best].ev.size;
	ev->missed = it->cpu[best].missed;
	return 1;
}

void trace_dat__iter_drop(struct trace_dat_iter *it, int buffer)
{
	int best = earliest(it, buffer);

	if (best >= 0) {
		it->cpu[best].missed = 0;
		it->cpu[best].has_ev = 0;
	}
}

int trace_dat__iter_next(struct trace_dat_iter *it, struct trace_dat_event *ev)
{
	int best = earliest(it, -1);

	if (best < -1)
		return best;
	if (best < 0)
		return 0;
	ev->cpu = it->td->cpus[best].cpu;
	ev->buffer = it->td->cpus[best].buffer;
	ev->ts = it->cpu[best].ev.ts;
	ev->data = it->cpu[best].ev.data;
	ev->size = it->cpu[best].ev.size;
	ev->missed = it->cpu[best].missed;
	it->cpu[best].missed = 0;
	it->cpu[best].has_ev = 0;
	return 1;
}


static int trace_dat__decompress(const char *algo, const void *in, size_t csize, void *out,
				 size_t ulen)
{
	if (!strcmp(algo, "zstd")) {
		size_t n;

		if (!in)
			return 0;
		n = ZSTD_decompress(out, ulen, in, csize);
		return ZSTD_isError(n) || n != ulen ? -EINVAL : 0;
	}
	if (!strcmp(algo, "zlib")) {
		uLongf n = ulen;

		if (!in)
			return 0;
		return uncompress(out, &n, in, csize) != Z_OK || n != ulen ? -EINVAL : 0;
	}
	return -ENOTSUP;
}

int trace_dat__compress(const char *algo, const void *in, size_t len, void **out,
			size_t *olen)
{
	size_t cap;

	*out = NULL;
	if (!strcmp(algo, "zstd")) {
		cap = ZSTD_compressBound(len);
		if (!(*out = malloc(cap)))
			return -ENOMEM;
		*olen = ZSTD_compress(*out, cap, in, len, 3);
		if (!ZSTD_isError(*olen))
			return 0;
	} else if (!strcmp(algo, "zlib")) {
		uLongf n = compressBound(len);

		if (!(*out = malloc(n)))
			return -ENOMEM;
		if (compress2(*out, &n, in, len, Z_DEFAULT_COMPRESSION) == Z_OK) {
			*olen = n;
			return 0;
		}
	} else {
		return -ENOTSUP;
	}
	free(*out);
	*out = NULL;
	return -ENOMEM;
}
