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

struct json_tool {
	struct perf_tool tool;
	FILE *out;
	struct machine *m;
	struct convert_stats *st;
	u64 sample_type;		/* of all events together, as perf tests CPU */
	bool first;
};

static struct json_tool *jt_of(struct perf_tool *tool)
{
	return (struct json_tool *)tool;
}

/* A new line at @depth tabs, after a comma when @comma. */
static void json_line(FILE *out, bool comma, int depth)
{
	if (comma)
		fputc(',', out);
	fputc('\n', out);
	for (int i = 0; i < depth; i++)
		fputc('\t', out);
}

static void json_key(FILE *out, bool comma, int depth, const char *key)
{
	json_line(out, comma, depth);
	json__fprint_string(out, key);
	fputs(": ", out);
}

static void json_key_string(FILE *out, bool comma, int depth, const char *key, const char *val)
{
	json_key(out, comma, depth, key);
	json__fprint_string(out, val ? val : "");
}

static void json_key_u64(FILE *out, bool comma, int depth, const char *key, u64 val)
{
	json_key(out, comma, depth, key);
	fprintf(out, "%" PRIu64, val);
}

/* One frame: its address, and its symbol and DSO when it has a symbol. */
static void json_frame(FILE *out, bool comma, u64 ip, const struct addr_location *al)
{
	json_line(out, comma, 4);
	fputc('{', out);
	json_key(out, false, 5, "ip");
	fprintf(out, "\"0x%" PRIx64 "\"", ip);
	if (al && al->sym && al->sym->name[0]) {
		const char *dso = al->map ? al->map->dso->short_name : NULL;

		json_key_string(out, true, 5, "symbol", al->sym->name);
		if (dso && *dso)
			json_key_string(out, true, 5, "dso", dso);
	}
	json_line(out, false, 4);
	fputc('}', out);
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
		json_frame(jt->out, false, s->ip, &al);
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
		json_frame(jt->out, comma, ip, &al);
		comma = true;
	}
}

static int json_sample(struct perf_tool *tool, struct perf_session *s,
		       const union perf_event *ev, struct perf_sample *sample,
		       struct perf_header_attr *attr)
{
	struct json_tool *jt = jt_of(tool);
	FILE *out = jt->out;
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
	fputc('{', out);
	json_key(out, false, 3, "timestamp");
	fprintf(out, "%" PRIi64, (int64_t)sample->time);
	json_key(out, true, 3, "pid");
	fprintf(out, "%d", t->pid);
	json_key(out, true, 3, "tid");
	fprintf(out, "%d", t->tid);
	if (jt->sample_type & PERF_SAMPLE_CPU) {
		json_key(out, true, 3, "cpu");
		fprintf(out, "%d", (int)sample->cpu);
	}
	json_key_string(out, true, 3, "comm", t->comm->str);
	json_key(out, true, 3, "callchain");
	fputc('[', out);
	json_callchain(jt, t, sample);
	json_line(out, false, 3);
	fputc(']', out);
	json_line(out, false, 2);
	fputc('}', out);
	return ferror(out) ? -EIO : 0;
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

static void json_headers(FILE *out, const struct perf_header *h, const char *input)
{
	const struct perf_env *env = &h->env;
	char buf[64];

	json_key(out, false, 2, "header-version");
	fputc('1', out);		/* PERFILE2 */
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
	fputc('[', out);
	for (int i = 0; i < env->nr_cmdline; i++) {
		json_line(out, i > 0, 3);
		json__fprint_string(out, env->cmdline[i] ? env->cmdline[i] : "");
	}
	json_line(out, false, 2);
	fputc(']', out);
}

int convert_json__write(FILE *out, struct perf_session *s, struct machine *m, const char *input,
			struct convert_stats *st, char *msg, size_t size)
{
	struct perf_header *h = s->header;
	struct json_tool jt = { .out = out, .m = m, .st = st, .first = true };
	int err;

	memset(st, 0, sizeof(*st));
	if (h->pipe) {
		snprintf(msg, size, "cannot convert the pipe-mode data of '%s' to JSON: its header comes with the records; save it to a file with 'tperf record -o FILE'",
			 input);
		return -ENOTSUP;
	}
	st->nr_attrs = h->nr_attrs;
	st->per_attr = calloc(h->nr_attrs + 1, sizeof(*st->per_attr));
	if (!st->per_attr)
		return -ENOMEM;
	for (int i = 0; i < h->nr_attrs; i++)
		jt.sample_type |= h->attrs[i].attr.sample_type;
	jt.tool.sample = json_sample;
	jt.tool.mmap = jt.tool.mmap2 = jt.tool.comm = json_model;
	jt.tool.fork = jt.tool.exit = jt.tool.ksymbol = json_model;
	jt.tool.ordered_events = true;

	fputc('{', out);
	json_line(out, false, 1);
	fputs("\"linux-perf-json-version\": 1", out);
	json_line(out, true, 1);
	fputs("\"headers\": {", out);
	json_headers(out, h, input);
	json_line(out, false, 1);
	fputc('}', out);
	json_line(out, true, 1);
	fputs("\"samples\": [", out);
	err = perf_session__process_events(s, &jt.tool);
	if (err)
		return err;
	json_line(out, false, 1);
	fputc(']', out);
	json_line(out, false, 0);
	fputs("}\n", out);
	return ferror(out) ? -EIO : 0;
}
