// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `data convert --to-json`: perf 6.1's JSON layout, written the way perf
 * writes it (tabs, one value a line, keys in perf's order) so that the
 * two files are equal as text whenever their values are.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "util/convert/convert.h"
#include "util/lib/json.h"
#include "util/model/machine.h"
#include "util/model/thread.h"
#include "util/perf-data/session.h"
#include "util/symbol/dso.h"

void convert_stats__exit(struct convert_stats *st)
{
	free(st->per_attr);
	free(st->per_cpu);
	memset(st, 0, sizeof(*st));
}

/*
 * The output goes through a buffer of our own: a conversion is a few
 * hundred bytes a sample written a few bytes at a time, and stdio's
 * per-call locking (the process has threads) cost most of the time.
 */
struct jbuf {
	FILE *fp;
	size_t len;
	unsigned long flushes;		/* how many times buf went out */
	char buf[1 << 16];
};

static void jb_flush(struct jbuf *b)
{
	if (b->len)
		fwrite(b->buf, 1, b->len, b->fp);
	b->len = 0;
	b->flushes++;
}

/* Room for @n more bytes (n <= sizeof(buf)). */
static char *jb_room(struct jbuf *b, size_t n)
{
	if (b->len + n > sizeof(b->buf))
		jb_flush(b);
	return b->buf + b->len;
}

static void jb_putc(struct jbuf *b, char c)
{
	*jb_room(b, 1) = c;
	b->len++;
}

static void jb_puts(struct jbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (n > sizeof(b->buf) / 2) {
		jb_flush(b);
		fwrite(s, 1, n, b->fp);
		return;
	}
	memcpy(jb_room(b, n), s, n);
	b->len += n;
}

static void jb_u64(struct jbuf *b, u64 v, bool hex)
{
	int n = 1;
	char *p;

	if (hex) {	/* the digits' count from the highest bit set */
		n = v ? (67 - __builtin_clzll(v)) / 4 : 1;
		p = jb_room(b, n);
		for (int i = n - 1; i >= 0; i--, v >>= 4)
			p[i] = "0123456789abcdef"[v & 15];
		b->len += n;
		return;
	}
	for (u64 t = v; t >= 10; t /= 10)
		n++;
	p = jb_room(b, n);
	for (int i = n - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	b->len += n;
}

static void jb_s64(struct jbuf *b, int64_t v)
{
	if (v < 0) {
		jb_putc(b, '-');
		jb_u64(b, -(u64)v, false);
	} else {
		jb_u64(b, v, false);
	}
}

/*
 * A JSON string: '"', '\\' and control characters escaped; text that is not
 * plain ASCII goes through util/lib/json (valid UTF-8 as it is, other
 * bytes as their Latin-1 characters), so the file stays valid JSON.
 */
static void jb_string(struct jbuf *b, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = 0;

	for (; u[n]; n++)
		if (u[n] < 0x20 || u[n] >= 0x7f || u[n] == '"' || u[n] == '\\')
			break;
	if (!u[n] && n < sizeof(b->buf) / 2) {
		char *p = jb_room(b, n + 2);

		p[0] = '"';
		memcpy(p + 1, s, n);
		p[n + 1] = '"';
		b->len += n + 2;
		return;
	}
	jb_flush(b);
	json__fprint_string(b->fp, s);
}

struct json_tool {
	struct perf_tool tool;
	struct jbuf *out;
	struct machine *m;
	struct convert_stats *st;
	u64 sample_type;		/* of all events together, as perf tests CPU */
	bool first;
	struct json_tail *tails;	/* JSON_TAILS, or NULL (no cache) */
};

static struct json_tool *jt_of(struct perf_tool *tool)
{
	return (struct json_tool *)tool;
}

/* A new line at @depth tabs, after a comma when @comma. */
static void json_line(struct jbuf *out, bool comma, int depth)
{
	char *p = jb_room(out, depth + 2);

	if (comma)
		*p++ = ',';
	*p++ = '\n';
	memset(p, '\t', depth);
	out->len += comma + 1 + depth;
}

static void json_key(struct jbuf *out, bool comma, int depth, const char *key)
{
	json_line(out, comma, depth);
	jb_putc(out, '"');
	jb_puts(out, key);
	jb_puts(out, "\": ");
}

static void json_key_string(struct jbuf *out, bool comma, int depth, const char *key,
			    const char *val)
{
	json_key(out, comma, depth, key);
	jb_string(out, val ? val : "");
}

static void json_key_u64(struct jbuf *out, bool comma, int depth, const char *key, u64 val)
{
	json_key(out, comma, depth, key);
	jb_u64(out, val, false);
}

/*
 * The text after a frame's address: its symbol and DSO when it has a
 * symbol, and the closing brace.  Kept per (symbol, DSO) in a small
 * direct-mapped cache: most frames of a profile are a few hundred
 * functions.
 */
struct json_tail {
	const void *sym, *dso;
	char *text;
	size_t len;
};

#define JSON_TAILS 4096

static void jb_write(struct jbuf *b, const char *s, size_t n)
{
	if (n > sizeof(b->buf) / 2) {
		jb_flush(b);
		fwrite(s, 1, n, b->fp);
		return;
	}
	memcpy(jb_room(b, n), s, n);
	b->len += n;
}

/* The tail of a frame of @sym in @dso (either may be NULL), written to @b's buffer. */
static void json_frame_tail(struct jbuf *b, const struct symbol *sym, const struct dso *dso)
{
	if (sym && sym->name[0]) {
		jb_puts(b, ",\n\t\t\t\t\t\"symbol\": ");
		jb_string(b, sym->name);
		if (dso && dso->short_name && *dso->short_name) {
			jb_puts(b, ",\n\t\t\t\t\t\"dso\": ");
			jb_string(b, dso->short_name);
		}
	}
	jb_puts(b, "\n\t\t\t\t}");
}

/* One frame: its address, then its tail (from the cache when it is there). */
static void json_frame(struct json_tool *jt, bool comma, u64 ip, const struct addr_location *al)
{
	struct jbuf *out = jt->out;
	const struct symbol *sym = al->sym && al->sym->name[0] ? al->sym : NULL;
	const struct dso *dso = sym && al->map ? al->map->dso : NULL;
	struct json_tail *tl;
	unsigned long flushes;
	size_t h, start;

	if (comma)
		jb_putc(out, ',');
	jb_puts(out, "\n\t\t\t\t{\n\t\t\t\t\t\"ip\": \"0x");
	jb_u64(out, ip, true);
	jb_putc(out, '"');
	if (!sym || !jt->tails) {
		json_frame_tail(out, sym, dso);
		return;
	}
	h = (((uintptr_t)sym >> 4) ^ ((uintptr_t)dso >> 6)) % JSON_TAILS;
	tl = &jt->tails[h];
	if (tl->text && tl->sym == sym && tl->dso == dso) {
		jb_write(out, tl->text, tl->len);
		return;
	}
	/* write it, then keep a copy when it is still in the buffer whole */
	jb_room(out, 512);
	start = out->len;
	flushes = out->flushes;
	json_frame_tail(out, sym, dso);
	if (out->flushes == flushes) {
		char *copy = malloc(out->len - start);

		if (copy) {
			memcpy(copy, out->buf + start, out->len - start);
			free(tl->text);
			tl->text = copy;
			tl->len = out->len - start;
			tl->sym = sym;
			tl->dso = dso;
		}
	}
}

/*
 * The callchain as perf lists it: the context markers set the mode the
 * addresses after them are looked up in (user until the first marker) and
 * are left out; a sample without a chain shows its own address.
 */
static void json_callchain(struct json_tool *jt, struct thread *t, const struct perf_sample *s)
{
	struct addr_location al;
	u8 cpumode = PERF_RECORD_MISC_USER;
	bool comma = false;

	if (!s->callchain) {
		machine__resolve_addr(jt->m, t, s->misc & PERF_RECORD_MISC_CPUMODE_MASK, s->ip, &al);
		json_frame(jt, false, s->ip, &al);
		return;
	}
	for (u64 i = 0; i < s->callchain_nr; i++) {
		u64 ip = s->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_HV)
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
			else if (ip == PERF_CONTEXT_KERNEL)
				cpumode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				cpumode = PERF_RECORD_MISC_USER;
			continue;
		}
		machine__resolve_addr(jt->m, t, cpumode, ip, &al);
		json_frame(jt, comma, ip, &al);
		comma = true;
	}
}

static int json_sample(struct perf_tool *tool, struct perf_session *s,
		       const union perf_event *ev, struct perf_sample *sample,
		       struct perf_header_attr *attr)
{
	struct json_tool *jt = jt_of(tool);
	struct jbuf *out = jt->out;
	struct thread *t;

	(void)s;
	(void)ev;
	t = machine__findnew_thread(jt->m, (int)sample->pid, (int)sample->tid);
	if (!t)
		return -ENOMEM;
	jt->st->samples++;
	if (attr && attr->idx >= 0 && attr->idx < jt->st->nr_attrs)
		jt->st->per_attr[attr->idx]++;
	json_line(out, !jt->first, 2);
	jt->first = false;
	jb_putc(out, '{');
	json_key(out, false, 3, "timestamp");
	jb_s64(out, (int64_t)sample->time);
	json_key(out, true, 3, "pid");
	jb_s64(out, t->pid);
	json_key(out, true, 3, "tid");
	jb_s64(out, t->tid);
	if (jt->sample_type & PERF_SAMPLE_CPU) {
		json_key(out, true, 3, "cpu");
		jb_s64(out, (int)sample->cpu);
	}
	json_key_string(out, true, 3, "comm", t->comm->str);
	json_key(out, true, 3, "callchain");
	jb_putc(out, '[');
	json_callchain(jt, t, sample);
	json_line(out, false, 3);
	jb_putc(out, ']');
	json_line(out, false, 2);
	jb_putc(out, '}');
	return ferror(out->fp) ? -EIO : 0;
}

static int json_model(struct perf_tool *tool, struct perf_session *s, const union perf_event *ev,
		      struct perf_sample *sample, struct perf_header_attr *attr)
{
	(void)s;
	(void)attr;
	return machine__process_event(jt_of(tool)->m, ev, sample);
}

/* The modification time of the input, as perf's "captured-on". */
static bool captured_on(const char *input, char *buf, size_t size)
{
	struct stat st;
	struct tm tm;
	char path[4096];

	if (stat(input, &st))
		return false;
	if (S_ISDIR(st.st_mode)) {	/* a directory recording: its header file */
		snprintf(path, sizeof(path), "%s/data", input);
		if (stat(path, &st))
			return false;
	}
	return gmtime_r(&st.st_mtime, &tm) && strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void json_headers(struct jbuf *out, const struct perf_header *h, const char *input)
{
	const struct perf_env *env = &h->env;
	char buf[64];

	json_key(out, false, 2, "header-version");
	jb_putc(out, '1');		/* PERFILE2 */
	if (captured_on(input, buf, sizeof(buf)))
		json_key_string(out, true, 2, "captured-on", buf);
	json_key_u64(out, true, 2, "data-offset", h->data.offset);
	json_key_u64(out, true, 2, "data-size", h->data.size);
	json_key_u64(out, true, 2, "feat-offset", h->data.offset + h->data.size);
	json_key_string(out, true, 2, "hostname", env->hostname);
	json_key_string(out, true, 2, "os-release", env->os_release);
	json_key_string(out, true, 2, "arch", env->arch);
	if (env->cpu_desc)
		json_key_string(out, true, 2, "cpu-desc", env->cpu_desc);
	json_key_string(out, true, 2, "cpuid", env->cpuid);
	json_key_u64(out, true, 2, "nrcpus-online", env->nr_cpus_online);
	json_key_u64(out, true, 2, "nrcpus-avail", env->nr_cpus_avail);
	if (env->has_clock_data) {
		json_key_u64(out, true, 2, "clockid", env->clock_data_clockid);
		json_key_u64(out, true, 2, "clock-time", env->clock_clockid_ns);
		json_key_u64(out, true, 2, "real-time", env->clock_tod_ns);
	}
	json_key_string(out, true, 2, "perf-version", env->version);
	json_key(out, true, 2, "cmdline");
	jb_putc(out, '[');
	for (int i = 0; i < env->nr_cmdline; i++) {
		json_line(out, i > 0, 3);
		jb_string(out, env->cmdline[i] ? env->cmdline[i] : "");
	}
	json_line(out, false, 2);
	jb_putc(out, ']');
}

int convert_json__write(FILE *out, struct perf_session *s, struct machine *m, const char *input,
			struct convert_stats *st, char *msg, size_t size)
{
	struct perf_header *h = s->header;
	struct json_tool jt = { .m = m, .st = st, .first = true };
	struct jbuf *b;
	int err;

	memset(st, 0, sizeof(*st));
	if (h->pipe) {
		snprintf(msg, size, "cannot convert the pipe-mode data of '%s' to JSON: its header comes with the records; save it to a file with 'tperf record -o FILE'",
			 input);
		return -ENOTSUP;
	}
	st->nr_attrs = h->nr_attrs;
	st->per_attr = calloc(h->nr_attrs + 1, sizeof(*st->per_attr));
	b = malloc(sizeof(*b));
	if (!st->per_attr || !b) {
		free(b);
		return -ENOMEM;
	}
	b->fp = out;
	b->len = 0;
	b->flushes = 0;
	jt.out = b;
	jt.tails = calloc(JSON_TAILS, sizeof(*jt.tails));	/* NULL: no cache */
	for (int i = 0; i < h->nr_attrs; i++)
		jt.sample_type |= h->attrs[i].attr.sample_type;
	jt.tool.sample = json_sample;
	jt.tool.mmap = jt.tool.mmap2 = jt.tool.comm = json_model;
	jt.tool.fork = jt.tool.exit = jt.tool.ksymbol = json_model;
	jt.tool.ordered_events = true;

	jb_putc(b, '{');
	json_line(b, false, 1);
	jb_puts(b, "\"linux-perf-json-version\": 1");
	json_line(b, true, 1);
	jb_puts(b, "\"headers\": {");
	json_headers(b, h, input);
	json_line(b, false, 1);
	jb_putc(b, '}');
	json_line(b, true, 1);
	jb_puts(b, "\"samples\": [");
	err = perf_session__process_events(s, &jt.tool);
	if (!err) {
		json_line(b, false, 1);
		jb_putc(b, ']');
		json_line(b, false, 0);
		jb_puts(b, "}\n");
	}
	jb_flush(b);
	free(b);
	for (int i = 0; jt.tails && i < JSON_TAILS; i++)
		free(jt.tails[i].text);
	free(jt.tails);
	if (err)
		return err;
	return ferror(out) ? -EIO : 0;
}
