// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `data convert --to-pprof`: the samples as pprof's profile.proto
 * (util/convert/pprof.proto, encoded by protobuf-c), gzipped, for Go's
 * pprof and the profilers built on its format:
 *
 *   - sample types: "samples" (count), then one per event, its name and
 *     the period's unit (nanoseconds for the clock events, else count);
 *   - samples: identical stacks of one thread and event are summed, with
 *     the labels pid, tid (numbers) and comm;
 *   - locations: one per (mapping, address) with the function when the
 *     address resolves; functions by symbol; mappings by DSO and load
 *     address, with the DSO's build-id when the file names one.
 *
 * The stacks are the recorded callchains (context markers dropped), the
 * sample's address alone without one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/convert/convert.h"
#include "util/model/machine.h"
#include "util/model/thread.h"
#include "util/perf-data/session.h"
#include "util/symbol/dso.h"

#ifndef HAVE_PROTOBUF_C

bool convert_pprof__available(void)
{
	return false;
}

int convert_pprof__write(int fd, struct perf_session *s, struct machine *m,
			 struct convert_stats *st, char *msg, size_t size)
{
	close(fd);
	snprintf(msg, size, "tperf was built without protobuf-c");
	return -ENOTSUP;
}

#else

#include <zlib.h>

#include "util/convert/pprof.pb-c.h"

bool convert_pprof__available(void)
{
	return true;
}

/* --- a hash table of byte-string keys to u64 values ---------------------- */

struct htab {
	struct hent { u64 hash; size_t off, len; u64 val; } *e;
	size_t cap, nr;
	char *keys;			/* the key bytes, one after the other */
	size_t keys_len, keys_cap;
};

static u64 hash_bytes(const void *p, size_t n)
{
	const unsigned char *b = p;
	u64 h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h | 1;			/* 0 marks a free slot */
}

static int htab_grow(struct htab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 1024;
	struct hent *e = calloc(cap, sizeof(*e));

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->e[i].hash)
			continue;
		for (j = t->e[i].hash & (cap - 1); e[j].hash; j = (j + 1) & (cap - 1))
			;
		e[j] = t->e[i];
	}
	free(t->e);
	t->e = e;
	t->cap = cap;
	return 0;
}

/* The value of @key, or with *@added set a new entry valued @val. */
static int htab_get(struct htab *t, const void *key, size_t len, u64 val, u64 *res, bool *added)
{
	u64 h = hash_bytes(key, len);
	size_t i;

	*added = false;
	if ((t->nr + 1) * 2 > t->cap && htab_grow(t))
		return -ENOMEM;
	for (i = h & (t->cap - 1); t->e[i].hash; i = (i + 1) & (t->cap - 1)) {
		if (t->e[i].hash == h && t->e[i].len == len &&
		    (!len || !memcmp(t->keys + t->e[i].off, key, len))) {
			*res = t->e[i].val;
			return 0;
		}
	}
	if (t->keys_len + len > t->keys_cap) {
		size_t cap = (t->keys_cap + len) * 2;
		char *k = realloc(t->keys, cap);

		if (!k)
			return -ENOMEM;
		t->keys = k;
		t->keys_cap = cap;
	}
	if (len)	/* "" has no bytes (and keys may be NULL yet) */
		memcpy(t->keys + t->keys_len, key, len);
	t->e[i] = (struct hent){ .hash = h, .off = t->keys_len, .len = len, .val = val };
	t->keys_len += len;
	t->nr++;
	*res = val;
	*added = true;
	return 0;
}

static void htab_exit(struct htab *t)
{
	free(t->e);
	free(t->keys);
}

/* --- the profile being built ---------------------------------------------- */

/* A growing array of pointers (the message lists protobuf-c takes). */
struct plist {
	void **v;
	size_t n, cap;
};

static int plist_add(struct plist *l, void *p)
{
	if (!p)
		return -ENOMEM;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;
		void **v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			free(p);
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = p;
	return 0;
}

struct pprof_tool {
	struct perf_tool tool;
	struct machine *m;
	struct convert_stats *st;
	int nr_events;
	struct plist strings, mappings, locations, functions, samples;
	struct htab str_ix, map_ix, loc_ix, fn_ix, sample_ix;
	u64 *stack;			/* the location ids of the sample at hand */
	size_t stack_cap;
	int64_t k_pid, k_tid, k_comm;	/* label keys */
};

/* The string table index of @s. */
static int64_t str_index(struct pprof_tool *pt, const char *s, int *err)
{
	size_t len = strlen(s);
	u64 ix;
	bool added;

	if (*err)
		return 0;
	*err = htab_get(&pt->str_ix, s, len, pt->strings.n, &ix, &added);
	if (!*err && added)
		*err = plist_add(&pt->strings, strdup(s));
	return *err ? 0 : (int64_t)ix;
}

static u64 mapping_id(struct pprof_tool *pt, const struct map *map, int *err)
{
	struct { const void *dso; u64 start, end, pgoff; } key = {
		map->dso, map->start, map->end, map->pgoff };
	Perftools__Profiles__Mapping *mp;
	char bid[48];
	u64 id;
	bool added;

	*err = htab_get(&pt->map_ix, &key, sizeof(key), pt->mappings.n + 1, &id, &added);
	if (*err || !added)
		return id;
	mp = malloc(sizeof(*mp));
	if (mp) {
		perftools__profiles__mapping__init(mp);
		mp->id = id;
		mp->memory_start = map->start;
		mp->memory_limit = map->end;
		mp->file_offset = map->pgoff;
		mp->filename = str_index(pt, map->dso->long_name, err);
		if (map->dso->has_build_id) {
			dso__build_id_hex(map->dso, bid);
			mp->build_id = str_index(pt, bid, err);
		}
		mp->has_functions = true;
	}
	if (!*err)
		*err = plist_add(&pt->mappings, mp);
	return id;
}

static u64 function_id(struct pprof_tool *pt, const struct symbol *sym, const struct dso *dso,
		       int *err)
{
	struct { const void *sym, *dso; } key = { sym, dso };
	Perftools__Profiles__Function *fn;
	u64 id;
	bool added;

	*err = htab_get(&pt->fn_ix, &key, sizeof(key), pt->functions.n + 1, &id, &added);
	if (*err || !added)
		return id;
	fn = malloc(sizeof(*fn));
	if (fn) {
		perftools__profiles__function__init(fn);
		fn->id = id;
		fn->name = fn->system_name = str_index(pt, sym->name, err);
		if (dso)
			fn->filename = str_index(pt, dso->long_name, err);
	}
	if (!*err)
		*err = plist_add(&pt->functions, fn);
	return id;
}

/* The location of @ip resolved in @al (its map and symbol, if any). */
static u64 location_id(struct pprof_tool *pt, u64 ip, const struct addr_location *al, int *err)
{
	struct { u64 mapping, addr; const void *sym; } key = { 0, ip, al->sym };
	Perftools__Profiles__Location *loc;
	Perftools__Profiles__Line *line;
	u64 id;
	bool added;

	if (al->map && (key.mapping = mapping_id(pt, al->map, err), *err))
		return 0;
	*err = htab_get(&pt->loc_ix, &key, sizeof(key), pt->locations.n + 1, &id, &added);
	if (*err || !added)
		return id;
	loc = calloc(1, sizeof(*loc) + sizeof(line) + sizeof(*line));
	if (loc) {
		perftools__profiles__location__init(loc);
		loc->id = id;
		loc->mapping_id = key.mapping;
		loc->address = ip;
		if (al->sym && al->sym->name[0]) {
			loc->line = (Perftools__Profiles__Line **)(loc + 1);
			line = (Perftools__Profiles__Line *)(loc->line + 1);
			perftools__profiles__line__init(line);
			line->function_id = function_id(pt, al->sym, al->map ? al->map->dso : NULL, err);
			loc->line[0] = line;
			loc->n_line = 1;
		}
	}
	if (!*err)
		*err = plist_add(&pt->locations, loc);
	return id;
}

static int push_frame(struct pprof_tool *pt, size_t *n, u64 id)
{
	if (*n == pt->stack_cap) {
		size_t cap = pt->stack_cap ? pt->stack_cap * 2 : 256;
		u64 *s = realloc(pt->stack, (cap + 4) * sizeof(*s));

		if (!s)
			return -ENOMEM;
		pt->stack = s;
		pt->stack_cap = cap;
	}
	pt->stack[4 + (*n)++] = id;
	return 0;
}

/* The stack of @s as location ids in pt->stack[4..]: *@n of them. */
static int sample_stack(struct pprof_tool *pt, struct thread *t, const struct perf_sample *s,
			size_t *n)
{
	struct addr_location al;
	u8 cpumode = PERF_RECORD_MISC_USER;
	int err = 0;

	*n = 0;
	if (!pt->stack) {	/* the key's four words come first */
		pt->stack = malloc((256 + 4) * sizeof(*pt->stack));
		if (!pt->stack)
			return -ENOMEM;
		pt->stack_cap = 256;
	}
	if (!s->callchain) {
		machine__resolve_addr(pt->m, t, s->misc & PERF_RECORD_MISC_CPUMODE_MASK, s->ip, &al);
		u64 id = location_id(pt, s->ip, &al, &err);

		return err ? err : push_frame(pt, n, id);
	}
	for (u64 i = 0; !err && i < s->callchain_nr; i++) {
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
		machine__resolve_addr(pt->m, t, cpumode, ip, &al);
		u64 id = location_id(pt, ip, &al, &err);

		if (!err)
			err = push_frame(pt, n, id);
	}
	return err;
}

static Perftools__Profiles__Sample *new_sample(struct pprof_tool *pt, size_t nr_frames,
					       const struct thread *t, int *err)
{
	size_t nv = 1 + pt->nr_events;
	Perftools__Profiles__Sample *ps;
	Perftools__Profiles__Label *lab;

	ps = calloc(1, sizeof(*ps) + nr_frames * sizeof(u64) + nv * sizeof(int64_t) +
		    3 * (sizeof(lab) + sizeof(*lab)));
	if (!ps) {
		*err = -ENOMEM;
		return NULL;
	}
	perftools__profiles__sample__init(ps);
	ps->location_id = (uint64_t *)(ps + 1);
	memcpy(ps->location_id, pt->stack + 4, nr_frames * sizeof(u64));
	ps->n_location_id = nr_frames;
	ps->value = (int64_t *)(ps->location_id + nr_frames);
	ps->n_value = nv;
	ps->label = (Perftools__Profiles__Label **)(ps->value + nv);
	lab = (Perftools__Profiles__Label *)(ps->label + 3);
	for (int i = 0; i < 3; i++) {
		perftools__profiles__label__init(&lab[i]);
		ps->label[i] = &lab[i];
	}
	ps->n_label = 3;
	lab[0].key = pt->k_pid;
	lab[0].num = t->pid;
	lab[1].key = pt->k_tid;
	lab[1].num = t->tid;
	lab[2].key = pt->k_comm;
	lab[2].str = str_index(pt, t->comm->str, err);
	return ps;
}

static int pprof_sample(struct perf_tool *tool, struct perf_session *s, const union perf_event *ev,
			struct perf_sample *sample, struct perf_header_attr *attr)
{
	struct pprof_tool *pt = (struct pprof_tool *)tool;
	Perftools__Profiles__Sample *ps;
	struct thread *t;
	size_t n;
	u64 ix;
	bool added;
	int err, idx;

	(void)s;
	(void)ev;
	if (!attr || attr->idx < 0 || attr->idx >= pt->nr_events)
		return 0;
	idx = attr->idx;
	t = machine__findnew_thread(pt->m, (int)sample->pid, (int)sample->tid);
	if (!t)
		return -ENOMEM;
	if ((err = sample_stack(pt, t, sample, &n)))
		return err;
	/* the key: event, pid, tid, comm (interned: a pointer), then the stack */
	pt->stack[0] = idx;
	pt->stack[1] = (u64)t->pid << 32 | (u32)t->tid;
	pt->stack[2] = (u64)(uintptr_t)t->comm->str;
	pt->stack[3] = n;
	err = htab_get(&pt->sample_ix, pt->stack, (4 + n) * sizeof(u64), pt->samples.n, &ix, &added);
	if (err)
		return err;
	if (added) {
		ps = new_sample(pt, n, t, &err);
		if (!err)
			err = plist_add(&pt->samples, ps);
		if (err)
			return err;
	}
	ps = pt->samples.v[ix];
	ps->value[0]++;
	/* as report: the attr's period when the samples do not carry theirs */
	ps->value[1 + idx] += (int64_t)((attr->attr.sample_type & PERF_SAMPLE_PERIOD) ?
					sample->period : attr->attr.sample_period);
	pt->st->samples++;
	pt->st->per_attr[idx]++;
	return 0;
}

static int pprof_model(struct perf_tool *tool, struct perf_session *s, const union perf_event *ev,
		       struct perf_sample *sample, struct perf_header_attr *attr)
{
	(void)s;
	(void)attr;
	return machine__process_event(((struct pprof_tool *)tool)->m, ev, sample);
}

/* The unit of an event's period: time for the clock events. */
static const char *period_unit(const struct perf_event_attr *a)
{
	if (a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK))
		return "nanoseconds";
	return "count";
}

static int write_profile(int fd, struct pprof_tool *pt, struct perf_session *s, char *msg,
			 size_t size)
{
	Perftools__Profiles__Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	struct perf_header *h = s->header;
	Perftools__Profiles__ValueType *vt, period;
	size_t len, nv = 1 + pt->nr_events;
	char buf[256];
	uint8_t *out;
	bool consumed = false;		/* gzdopen() took fd */
	gzFile gz;
	int err = 0;

	vt = calloc(nv, sizeof(*vt));
	p.sample_type = calloc(nv, sizeof(*p.sample_type));
	if (!vt || !p.sample_type) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nv; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		p.sample_type[i] = &vt[i];
	}
	vt[0].type = str_index(pt, "samples", &err);
	vt[0].unit = str_index(pt, "count", &err);
	for (int i = 0; i < pt->nr_events; i++) {
		vt[1 + i].type = str_index(pt, perf_header__event_name(h, &h->attrs[i], buf,
								      sizeof(buf)), &err);
		vt[1 + i].unit = str_index(pt, period_unit(&h->attrs[i].attr), &err);
	}
	p.n_sample_type = nv;
	perftools__profiles__value_type__init(&period);
	if (pt->nr_events) {
		period = vt[1];
		p.period_type = &period;
		if (!h->attrs[0].attr.freq)
			p.period = (int64_t)h->attrs[0].attr.sample_period;
		p.default_sample_type = vt[1].type;
	}
	if (s->first_time && s->last_time >= s->first_time)
		p.duration_nanos = (int64_t)(s->last_time - s->first_time);
	if (h->env.has_clock_data && s->first_time)	/* the first sample on the wall clock */
		p.time_nanos = (int64_t)(h->env.clock_tod_ns + s->first_time -
					 h->env.clock_clockid_ns);
	p.string_table = (char **)pt->strings.v;
	p.n_string_table = pt->strings.n;
	p.sample = (Perftools__Profiles__Sample **)pt->samples.v;
	p.n_sample = pt->samples.n;
	p.mapping = (Perftools__Profiles__Mapping **)pt->mappings.v;
	p.n_mapping = pt->mappings.n;
	p.location = (Perftools__Profiles__Location **)pt->locations.v;
	p.n_location = pt->locations.n;
	p.function = (Perftools__Profiles__Function **)pt->functions.v;
	p.n_function = pt->functions.n;
	if (err)
		goto out;
	len = perftools__profiles__profile__get_packed_size(&p);
	out = malloc(len ? len : 1);
	if (!out) {
		err = -ENOMEM;
		goto out;
	}
	consumed = true;
	perftools__profiles__profile__pack(&p, out);
	pt->st->bytes = len;
	gz = gzdopen(fd, "wb");
	if (!gz || (len && gzwrite(gz, out, (unsigned int)len) != (int)len) || gzclose(gz) != Z_OK) {
		snprintf(msg, size, "cannot write the gzipped profile: %s", strerror(errno ? errno : EIO));
		err = -EIO;
	}
	free(out);
out:
	if (!consumed)
		close(fd);
	free(vt);
	free(p.sample_type);
	return err;
}

static void plist_free(struct plist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

int convert_pprof__write(int fd, struct perf_session *s, struct machine *m,
			 struct convert_stats *st, char *msg, size_t size)
{
	struct perf_header *h = s->header;
	struct pprof_tool pt = { .m = m, .st = st };
	int err = 0;

	memset(st, 0, sizeof(*st));
	if (h->pipe) {
		snprintf(msg, size, "cannot convert the pipe-mode data of '%s' to pprof: its events are known only as they come; save it to a file with 'tperf record -o FILE'",
			 s->data.path);
		close(fd);
		return -ENOTSUP;
	}
	pt.nr_events = h->nr_attrs;
	st->nr_attrs = h->nr_attrs;
	st->per_attr = calloc(h->nr_attrs + 1, sizeof(*st->per_attr));
	if (!st->per_attr) {
		close(fd);
		return -ENOMEM;
	}
	str_index(&pt, "", &err);	/* entry 0 */
	pt.k_pid = str_index(&pt, "pid", &err);
	pt.k_tid = str_index(&pt, "tid", &err);
	pt.k_comm = str_index(&pt, "comm", &err);
	if (!err) {
		pt.tool.sample = pprof_sample;
		pt.tool.mmap = pt.tool.mmap2 = pt.tool.comm = pprof_model;
		pt.tool.fork = pt.tool.exit = pt.tool.ksymbol = pprof_model;
		pt.tool.ordered_events = true;
		err = perf_session__process_events(s, &pt.tool);
		if (err > 0)
			err = -EINVAL;
	}
	if (!err)
		err = write_profile(fd, &pt, s, msg, size);
	else
		close(fd);
	plist_free(&pt.strings);
	plist_free(&pt.mappings);
	plist_free(&pt.locations);
	plist_free(&pt.functions);
	plist_free(&pt.samples);
	htab_exit(&pt.str_ix);
	htab_exit(&pt.map_ix);
	htab_exit(&pt.loc_ix);
	htab_exit(&pt.fn_ix);
	htab_exit(&pt.sample_ix);
	free(pt.stack);
	return err;
}

#endif
