// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * perf's tracing data blob for tracepoint events.  See util/trace/tracing-data.h;
 * the layout is documented in Linux perf's
 * Documentation/perf.data-file-format.txt (HEADER_TRACING_DATA).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/event/evlist.h"
#include "util/event/evsel.h"
#include "util/lib/fs.h"
#include "util/perf-data/header.h"
#include "util/trace/trace-event.h"
#include "util/trace/tracing-data.h"

static int put_file(struct wbuf *b, const char *path, int len_bytes)
{
	char *text = NULL;
	size_t len = 0;
	int err = filename__read_str(path, &text, &len);

	if (err) {
		if (len_bytes == 8)
			return err;
		len = 0;	/* optional files: an empty section */
	}
	if (len_bytes == 8) {
		u64 n = len;

		wbuf__put(b, &n, 8);
	} else {
		u32 n = (u32)len;

		wbuf__put(b, &n, 4);
	}
	wbuf__put(b, text, len);
	free(text);
	return 0;
}

static int put_named(struct wbuf *b, const char *name, const char *path)
{
	wbuf__put(b, name, strlen(name) + 1);
	return put_file(b, path, 8);
}

/* Is @e the first tracepoint of @sys (so that a system is written once)? */
static bool first_of_sys(struct evlist *evlist, struct evsel *e)
{
	struct evsel *p;

	evlist__for_each_entry(evlist, p) {
		if (p == e)
			return true;
		if (p->tp_sys && !strcmp(p->tp_sys, e->tp_sys))
			return false;
	}
	return true;
}

/* Earlier tracepoint with the same sys:name (written once). */
static bool seen(struct evlist *evlist, struct evsel *e)
{
	struct evsel *p;

	evlist__for_each_entry(evlist, p) {
		if (p == e)
			return false;
		if (p->tp_sys && !strcmp(p->tp_sys, e->tp_sys) && !strcmp(p->tp_name, e->tp_name))
			return true;
	}
	return false;
}

static int put_systems(struct wbuf *b, struct evlist *evlist, const char *tfs)
{
	struct evsel *e, *f;
	char path[4096];
	u32 nr = 0;
	int err = 0;

	evlist__for_each_entry(evlist, e)
		nr += e->tp_sys && strcmp(e->tp_sys, "ftrace") && first_of_sys(evlist, e);
	wbuf__put(b, &nr, 4);
	evlist__for_each_entry(evlist, e) {
		u32 count = 0;

		if (!e->tp_sys || !strcmp(e->tp_sys, "ftrace") || !first_of_sys(evlist, e))
			continue;
		wbuf__put(b, e->tp_sys, strlen(e->tp_sys) + 1);
		evlist__for_each_entry(evlist, f)
			count += f->tp_sys && !strcmp(f->tp_sys, e->tp_sys) && !seen(evlist, f);
		wbuf__put(b, &count, 4);
		evlist__for_each_entry(evlist, f) {
			if (!f->tp_sys || strcmp(f->tp_sys, e->tp_sys) || seen(evlist, f))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", tfs, f->tp_sys,
				 f->tp_name);
			err = err ? err : put_file(b, path, 8);
		}
	}
	return err;
}

static int put_ftrace(struct wbuf *b, struct evlist *evlist, const char *tfs)
{
	struct evsel *e;
	char path[4096];
	u32 nr = 0;
	int err = 0;

	evlist__for_each_entry(evlist, e)
		nr += e->tp_sys && !strcmp(e->tp_sys, "ftrace") && !seen(evlist, e);
	wbuf__put(b, &nr, 4);
	evlist__for_each_entry(evlist, e) {
		if (!e->tp_sys || strcmp(e->tp_sys, "ftrace") || seen(evlist, e))
			continue;
		snprintf(path, sizeof(path), "%s/events/ftrace/%s/format", tfs, e->tp_name);
		err = err ? err : put_file(b, path, 8);
	}
	return err;
}

static int build(struct wbuf *b, struct evlist *evlist, const char *tfs)
{
	static const char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char path[4096];
	u8 endian = 0, lsize = sizeof(long);
	u32 psize = (u32)sysconf(_SC_PAGESIZE), zero = 0;
	int err;

	wbuf__put(b, magic, sizeof(magic));
	wbuf__put(b, "0.6", 4);
	wbuf__put(b, &endian, 1);
	wbuf__put(b, &lsize, 1);
	wbuf__put(b, &psize, 4);
	snprintf(path, sizeof(path), "%s/events/header_page", tfs);
	err = put_named(b, "header_page", path);
	snprintf(path, sizeof(path), "%s/events/header_event", tfs);
	err = err ? err : put_named(b, "header_event", path);
	err = err ? err : put_ftrace(b, evlist, tfs);
	err = err ? err : put_systems(b, evlist, tfs);
	wbuf__put(b, &zero, 4);		/* kallsyms: none */
	snprintf(path, sizeof(path), "%s/printk_formats", tfs);
	err = err ? err : put_file(b, path, 4);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", tfs);
	if (!err && put_file(b, path, 8)) {
		u64 none = 0;

		wbuf__put(b, &none, 8);
	}
	return err;
}

/**
 * tracing_data__build - see util/trace/tracing-data.h
 */
int tracing_data__build(struct evlist *evlist, void **buf, size_t *size)
{
	const char *tfs = tracefs__mountpoint();
	struct wbuf b = { 0 };
	struct evsel *e;
	bool any = false;
	int err;

	*buf = NULL;
	*size = 0;
	evlist__for_each_entry(evlist, e)
		any |= e->tp_sys && e->tp_name && e->attr.type == PERF_TYPE_TRACEPOINT;
	if (!any)
		return 0;
	if (!tfs)
		return -ENOENT;
	err = build(&b, evlist, tfs);
	if (!err && b.oom)
		err = -ENOMEM;
	if (err) {
		wbuf__exit(&b);
		return err;
	}
	*buf = b.buf;
	*size = b.len;
	return 0;
}

/* Reading: a bounded cursor over the blob. */
struct td_rd {
	const char *p, *end;
	bool swap;
};

static int rd(struct td_rd *r, void *out, size_t n)
{
	if ((size_t)(r->end - r->p) < n)
		return -EINVAL;
	memcpy(out, r->p, n);
	r->p += n;
	return 0;
}

static int rd_u32(struct td_rd *r, u32 *v)
{
	int err = rd(r, v, 4);

	if (!err && r->swap)
		*v = __builtin_bswap32(*v);
	return err;
}

static int rd_u64(struct td_rd *r, u64 *v)
{
	int err = rd(r, v, 8);

	if (!err && r->swap)
		*v = __builtin_bswap64(*v);
	return err;
}

static const char *rd_str(struct td_rd *r)
{
	const char *s = r->p, *nul = memchr(r->p, '\0', (size_t)(r->end - r->p));

	if (!nul)
		return NULL;
	r->p = nul + 1;
	return s;
}

/* A section of @len bytes: *@sec points into the blob. */
static int rd_sec(struct td_rd *r, u64 len, const char **sec)
{
	if (len > (u64)(r->end - r->p))
		return -EINVAL;
	*sec = r->p;
	r->p += len;
	return 0;
}

/* A NUL-terminated copy of a section, for the parsers that want a string. */
static char *dup_sec(const char *sec, u64 len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, sec, len);
		s[len] = '\0';
	}
	return s;
}

static int rd_header_page(struct td_rd *r, struct trace_event *t, int long_size)
{
	const char *name = rd_str(r), *sec;
	u64 len;
	char *copy;

	if (!name || strcmp(name, "header_page") || rd_u64(r, &len) || rd_sec(r, len, &sec))
		return -EINVAL;
	copy = dup_sec(sec, len);
	if (!copy)
		return -ENOMEM;
	/* an unparsable header page only costs the ftrace page layout */
	tep_parse_header_page(t->tep, copy, len, long_size);
	free(copy);
	name = rd_str(r);
	if (!name || strcmp(name, "header_event") || rd_u64(r, &len) || rd_sec(r, len, &sec))
		return -EINVAL;
	return 0;
}

static int rd_formats(struct td_rd *r, struct trace_event *t, const char *sys)
{
	const char *sec;
	u32 nr;
	u64 len;
	int err;

	if (rd_u32(r, &nr))
		return -EINVAL;
	for (u32 i = 0; i < nr; i++) {
		if (rd_u64(r, &len) || rd_sec(r, len, &sec))
			return -EINVAL;
		err = trace_event__parse_format_sys(t, sys, sec, len);
		if (err == -ENOMEM)
			return err;
	}
	return 0;
}

static int rd_systems(struct td_rd *r, struct trace_event *t)
{
	u32 nr;
	int err;

	if (rd_u32(r, &nr))
		return -EINVAL;
	for (u32 i = 0; i < nr; i++) {
		const char *sys = rd_str(r);

		if (!sys)
			return -EINVAL;
		err = rd_formats(r, t, sys);
		if (err)
			return err;
	}
	return 0;
}

/* "hex " or "0xhex ": the address that starts kallsyms and printk lines; end past it */
static const char *hex_word(const char *l)
{
	const char *p;

	if (l[0] == '0' && (l[1] == 'x' || l[1] == 'X'))
		l += 2;
	p = l;

	while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F'))
		p++;
	return p > l && *p == ' ' ? p + 1 : NULL;
}

/* kallsyms: "addr T name" (libtraceevent reads past shorter lines) */
static bool kallsyms_line(const char *l)
{
	l = hex_word(l);
	return l && l[0] && l[0] != ' ' && l[1] == ' ' && l[2] && l[2] != ' ';
}

/*
 * printk formats: addr : "fmt", fmt of two characters at least
 * (libtraceevent 1.7 looks for a "\\n" two bytes before the closing quote)
 */
static bool printk_line(const char *l)
{
	size_t n;

	l = hex_word(l);
	if (!l || strncmp(l, ": \"", 3))
		return false;
	n = strlen(l);
	return n >= 6 && l[n - 1] == '"';
}

/* saved cmdlines: "pid comm" */
static bool cmdline_line(const char *l)
{
	const char *p = l;

	while (*p >= '0' && *p <= '9')
		p++;
	return p > l && *p == ' ' && p[1];
}

/* Keep the lines of @s (in place) that @ok accepts: libtraceevent's table
 * parsers trust their input (fuzz-tracing-data found reads past the end). */
static void keep_lines(char *s, bool (*ok)(const char *))
{
	char *out = s, *l = s;

	while (*l) {
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = '\0';
		if (ok(l)) {
			size_t n = strlen(l);

			memmove(out, l, n);
			out += n;
			if (nl)		/* the last line may have none: no room */
				*out++ = '\n';
		}
		if (!nl)
			break;
		l = nl + 1;
	}
	*out = '\0';
}

void trace_table__parse(struct tep_handle *tep, enum trace_table which, char *text)
{
	static int (*const parse[3])(struct tep_handle *, const char *) = {
		tep_parse_kallsyms, tep_parse_printk_formats, tep_parse_saved_cmdlines,
	};
	static bool (*const ok[3])(const char *) = { kallsyms_line, printk_line, cmdline_line };

	keep_lines(text, ok[which]);
	if (*text)
		parse[which](tep, text);
}

/* kallsyms, printk formats (u32 sizes) and, from 0.6, saved cmdlines (u64). */
static int rd_tables(struct td_rd *r, struct trace_event *t, bool v06)
{

	for (int i = 0; i < (v06 ? 3 : 2); i++) {
		const char *sec;
		char *copy;
		u64 len;
		u32 len32;

		if (i < 2 && rd_u32(r, &len32))
			return -EINVAL;
		if (i < 2)
			len = len32;
		else if (rd_u64(r, &len))
			return r->p == r->end ? 0 : -EINVAL;	/* perf may omit it */
		if (rd_sec(r, len, &sec))
			return -EINVAL;
		if (!len)
			continue;
		copy = dup_sec(sec, len);
		if (!copy)
			return -ENOMEM;
		trace_table__parse(t->tep, (enum trace_table)i, copy);
		free(copy);
	}
	return 0;
}

static int rd_all(struct td_rd *r, struct trace_event *t)
{
	const char *version;
	u8 big, long_size;
	u32 page_size;
	int err;

	if ((size_t)(r->end - r->p) < 10 || memcmp(r->p, "\x17\x08\x44tracing", 10))
		return -EINVAL;
	r->p += 10;
	version = rd_str(r);
	if (!version || rd(r, &big, 1) || rd(r, &long_size, 1))
		return -EINVAL;
	r->swap = !!big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if (rd_u32(r, &page_size) || (long_size != 4 && long_size != 8))
		return -EINVAL;
	err = trace_event__init(t, long_size, big, (int)page_size);
	if (err)
		return err;
	err = rd_header_page(r, t, long_size);
	err = err ? err : rd_formats(r, t, "ftrace");
	err = err ? err : rd_systems(r, t);
	return err ? err : rd_tables(r, t, strcmp(version, "0.5") > 0);
}

/**
 * tracing_data__parse - see util/trace/tracing-data.h
 */
int tracing_data__parse(struct trace_event *t, const void *data, size_t size)
{
	struct td_rd r = { data, (const char *)data + size, false };
	int err;

	memset(t, 0, sizeof(*t));
	err = rd_all(&r, t);
	if (err)
		trace_event__exit(t);
	else
		trace_event__prefer_kernel_text(t);
	return err;
}

/**
 * tracing_data__load - see util/trace/tracing-data.h
 */
int tracing_data__load(struct trace_event *t, struct trace_seq *seq, const struct perf_header *h)
{
	int err;

	if (!h->env.tracing_data)
		return -ENOENT;
	err = tracing_data__parse(t, h->env.tracing_data, h->env.tracing_data_size);
	if (!err)
		trace_seq_init(seq);
	return err;
}

/**
 * tracing_data__unload - see util/trace/tracing-data.h
 */
void tracing_data__unload(struct trace_event *t, struct trace_seq *seq)
{
	trace_seq_destroy(seq);
	trace_event__exit(t);
}
