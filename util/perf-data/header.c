// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The perf.data header and its feature sections: parse (file sections or
 * pipe-mode HEADER_FEATURE payloads) and write.  Every read is bounded by
 * the section it is in; a malformed section is dropped, never read past.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/debug.h"
#include "util/perf-data/header.h"
#include "util/event/perf-attr.h"
#include "util/perf-data/trace-names.h"

static void perf_env__exit(struct perf_env *env);

static const char *const feat_names[HEADER_LAST_FEATURE] = {
	[HEADER_RESERVED] = "RESERVED",	[HEADER_TRACING_DATA] = "TRACING_DATA",
	[HEADER_BUILD_ID] = "BUILD_ID", [HEADER_HOSTNAME] = "HOSTNAME",
	[HEADER_OSRELEASE] = "OSRELEASE", [HEADER_VERSION] = "VERSION",
	[HEADER_ARCH] = "ARCH", [HEADER_NRCPUS] = "NRCPUS",
	[HEADER_CPUDESC] = "CPUDESC", [HEADER_CPUID] = "CPUID",
	[HEADER_TOTAL_MEM] = "TOTAL_MEM", [HEADER_CMDLINE] = "CMDLINE",
	[HEADER_EVENT_DESC] = "EVENT_DESC", [HEADER_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[HEADER_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY", [HEADER_BRANCH_STACK] = "BRANCH_STACK",
	[HEADER_PMU_MAPPINGS] = "PMU_MAPPINGS", [HEADER_GROUP_DESC] = "GROUP_DESC",
	[HEADER_AUXTRACE] = "AUXTRACE", [HEADER_STAT] = "STAT", [HEADER_CACHE] = "CACHE",
	[HEADER_SAMPLE_TIME] = "SAMPLE_TIME", [HEADER_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[HEADER_CLOCKID] = "CLOCKID", [HEADER_DIR_FORMAT] = "DIR_FORMAT",
	[HEADER_BPF_PROG_INFO] = "BPF_PROG_INFO", [HEADER_BPF_BTF] = "BPF_BTF",
	[HEADER_COMPRESSED] = "COMPRESSED", [HEADER_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[HEADER_CLOCK_DATA] = "CLOCK_DATA", [HEADER_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[HEADER_PMU_CAPS] = "PMU_CAPS",
};

/**
 * perf_header__feat_name - the name of a feature bit as perf prints it
 * @feat: HEADER_*
 *
 * Return: "HOSTNAME" ... or NULL for a bit this version does not know.
 */
const char *perf_header__feat_name(int feat)
{
	return feat >= 0 && feat < HEADER_LAST_FEATURE ? feat_names[feat] : NULL;
}

static void seterr(struct perf_header *h, const char *fmt, ...) __printf(2, 3);
static void seterr(struct perf_header *h, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(h->errmsg, sizeof(h->errmsg), fmt, ap);
	va_end(ap);
}

/**
 * perf_header__init - an empty header
 * @h: the header to initialise
 */
void perf_header__init(struct perf_header *h)
{
	memset(h, 0, sizeof(*h));
}

static void free_strv(char **v, u32 n)
{
	for (u32 i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/**
 * perf_pmu_caps__exit - free what a PMU's caps hold (not the struct)
 * @c: the caps
 */
void perf_pmu_caps__exit(struct perf_pmu_caps *c)
{
	free(c->pmu);
	free_strv(c->names, c->nr);
	free_strv(c->values, c->nr);
	memset(c, 0, sizeof(*c));
}

/**
 * perf_env__exit - free what an env holds (the struct itself is the caller's)
 * @env: the environment
 */
static void perf_env__exit(struct perf_env *env)
{
	free(env->hostname);
	free(env->os_release);
	free(env->version);
	free(env->arch);
	free(env->cpu_desc);
	free(env->cpuid);
	free_strv(env->cmdline, env->nr_cmdline);
	free_strv(env->sibling_cores, env->nr_sibling_cores);
	free_strv(env->sibling_threads, env->nr_sibling_threads);
	free_strv(env->sibling_dies, env->nr_sibling_dies);
	free(env->cpu_topo);
	for (u32 i = 0; i < env->nr_numa_nodes; i++)
		free(env->numa_nodes[i].cpus);
	free(env->numa_nodes);
	for (u32 i = 0; i < env->nr_build_ids; i++)
		free(env->build_ids[i].filename);
	free(env->build_ids);
	free(env->tracing_data);
	for (u32 i = 0; i < env->nr_pmu_mappings; i++)
		free(env->pmu_mappings[i].name);
	free(env->pmu_mappings);
	for (u32 i = 0; i < env->nr_caches; i++) {
		free(env->caches[i].type);
		free(env->caches[i].size);
		free(env->caches[i].map);
	}
	free(env->caches);
	for (u32 i = 0; i < env->nr_mem_nodes; i++)
		free(env->mem_nodes[i].set);
	free(env->mem_nodes);
	for (u32 i = 0; i < env->nr_pmu_caps; i++)
		perf_pmu_caps__exit(&env->pmu_caps[i]);
	free(env->pmu_caps);
	if (env->cpu_pmu_caps)
		perf_pmu_caps__exit(env->cpu_pmu_caps);
	free(env->cpu_pmu_caps);
	memset(env, 0, sizeof(*env));
}

/**
 * perf_header__exit - free the attrs and the env of a header
 * @h: the header
 */
void perf_header__exit(struct perf_header *h)
{
	for (int i = 0; i < h->nr_attrs; i++) {
		free(h->attrs[i].ids);
		free(h->attrs[i].name);
		free(h->attrs[i].group_name);
	}
	free(h->attrs);
	perf_env__exit(&h->env);
	perf_header__init(h);
}

/**
 * perf_header__add_attr - see util/perf-data/header.h
 */
struct perf_header_attr *perf_header__add_attr(struct perf_header *h, const void *attr,
					       size_t size, const u64 *ids, u32 nr_ids)
{
	struct perf_header_attr *a, *n = realloc(h->attrs, (h->nr_attrs + 1) * sizeof(*n));

	if (!n)
		return NULL;
	h->attrs = n;
	a = &n[h->nr_attrs];
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, attr, size < sizeof(a->attr) ? size : sizeof(a->attr));
	a->file_attr_size = a->attr.size;
	if (nr_ids) {
		a->ids = malloc(nr_ids * sizeof(u64));
		if (!a->ids)
			return NULL;
		memcpy(a->ids, ids, nr_ids * sizeof(u64));
		a->nr_ids = nr_ids;
	}
	a->idx = h->nr_attrs++;
	a->leader_idx = a->idx;
	a->nr_members = 1;
	a->id_hdr_size = perf_sample__id_hdr_size(&a->attr);
	return a;
}

/**
 * perf_header__find_attr - see util/perf-data/header.h
 */
struct perf_header_attr *perf_header__find_attr(struct perf_header *h, u64 id)
{
	if (h->nr_attrs == 1)
		return &h->attrs[0];
	for (int i = 0; i < h->nr_attrs; i++)
		for (u32 j = 0; j < h->attrs[i].nr_ids; j++)
			if (h->attrs[i].ids[j] == id)
				return &h->attrs[i];
	return NULL;
}

/* ---- reading feature sections ---- */

struct rd {
	const u8 *p, *end;
};

static int rd_u32(struct rd *r, u32 *v)
{
	if (r->end - r->p < 4)
		return -EINVAL;
	memcpy(v, r->p, 4);
	r->p += 4;
	return 0;
}

static int rd_u64(struct rd *r, u64 *v)
{
	if (r->end - r->p < 8)
		return -EINVAL;
	memcpy(v, r->p, 8);
	r->p += 8;
	return 0;
}

/* perf's string: u32 length (NUL and padding included), then the bytes. */
static int rd_str(struct rd *r, char **out)
{
	u32 len;

	if (rd_u32(r, &len) || len > (size_t)(r->end - r->p))
		return -EINVAL;
	*out = strndup((const char *)r->p, len);
	if (!*out)
		return -ENOMEM;
	r->p += len;
	return 0;
}

/* A u32 count, then that many strings (each at least 4 bytes). */
static int rd_strv(struct rd *r, u32 *nr, char ***out)
{
	u32 n;
	char **v;

	if (rd_u32(r, &n) || n > (size_t)(r->end - r->p) / 4)
		return -EINVAL;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		int err = rd_str(r, &v[i]);

		if (err) {
			free_strv(v, i);
			return err;
		}
	}
	*nr = n;
	*out = v;
	return 0;
}

static int read_string_feat(struct perf_header *h, int feat, struct rd *r)
{
	char **dst, *s;
	int err;

	switch (feat) {
	case HEADER_HOSTNAME: dst = &h->env.hostname; break;
	case HEADER_OSRELEASE: dst = &h->env.os_release; break;
	case HEADER_VERSION: dst = &h->env.version; break;
	case HEADER_ARCH: dst = &h->env.arch; break;
	case HEADER_CPUDESC: dst = &h->env.cpu_desc; break;
	default: dst = &h->env.cpuid; break;
	}
	err = rd_str(r, &s);
	if (err)
		return err;
	free(*dst);
	*dst = s;
	return 0;
}

static int read_cmdline(struct perf_header *h, struct rd *r)
{
	u32 n;
	char **v;
	int err = rd_strv(r, &n, &v);

	if (err)
		return err;
	free_strv(h->env.cmdline, h->env.nr_cmdline);
	h->env.cmdline = v;
	h->env.nr_cmdline = n;
	return 0;
}

static int read_topo_ids(struct perf_header *h, struct rd *r)
{
	struct perf_env *e = &h->env;
	u32 n = e->nr_cpus_avail, a = 0, b = 0;

	if (r->p == r->end)
		return 0;
	if (n > (size_t)(r->end - r->p) / 8)
		return -EINVAL;
	e->cpu_topo = calloc(n ? n : 1, sizeof(*e->cpu_topo));
	if (!e->cpu_topo)
		return -ENOMEM;
	e->nr_cpu_topo = n;
	for (u32 i = 0; i < n; i++) {
		rd_u32(r, &a);
		rd_u32(r, &b);
		e->cpu_topo[i] = (struct perf_cpu_topo){ (int)a, (int)b, -1 };
	}
	e->has_core_ids = true;
	if (r->p == r->end)
		return 0;
	if (rd_strv(r, &e->nr_sibling_dies, &e->sibling_dies))
		return -EINVAL;
	if (n > (size_t)(r->end - r->p) / 4)
		return -EINVAL;
	for (u32 i = 0; i < n; i++) {
		rd_u32(r, &a);
		e->cpu_topo[i].die_id = (int)a;
	}
	e->has_die_ids = true;
	return 0;
}

static int read_cpu_topology(struct perf_header *h, struct rd *r)
{
	struct perf_env *e = &h->env;

	if (e->sibling_cores)
		return 0;	/* a second copy: keep the first */
	if (rd_strv(r, &e->nr_sibling_cores, &e->sibling_cores) ||
	    rd_strv(r, &e->nr_sibling_threads, &e->sibling_threads))
		return -EINVAL;
	return read_topo_ids(h, r);
}

static int read_numa(struct perf_header *h, struct rd *r)
{
	struct perf_env *e = &h->env;
	u32 n;

	if (e->numa_nodes)
		return 0;
	if (rd_u32(r, &n) || n > (size_t)(r->end - r->p) / 24)
		return -EINVAL;
	e->numa_nodes = calloc(n ? n : 1, sizeof(*e->numa_nodes));
	if (!e->numa_nodes)
		return -ENOMEM;
	for (u32 i = 0; i < n; i++) {
		struct perf_numa_node *node = &e->numa_nodes[i];

		if (rd_u32(r, &node->node) || rd_u64(r, &node->mem_total) ||
		    rd_u64(r, &node->mem_free) || rd_str(r, &node->cpus))
			return -EINVAL;
		e->nr_numa_nodes = i + 1;
	}
	return 0;
}

static struct perf_header_attr *desc_target(struct perf_header *h, u32 i, u64 id0, u32 nr_ids)
{
	if (!nr_ids)
		return (int)i < h->nr_attrs ? &h->attrs[i] : NULL;
	return perf_header__find_attr(h, id0);
}

/*
 * EVENT_DESC: u32 count, u32 attr size, then per event the attr, u32 nr_ids,
 * the name, the ids.  File mode names the events by it (perf 6.1 ignores
 * it in pipe mode, and so do we, to print the same names).
 */
static int read_event_desc(struct perf_header *h, struct rd *r)
{
	u32 nre, sz, nr_ids;
	u64 id0 = 0;
	char *name;

	if (rd_u32(r, &nre) || rd_u32(r, &sz) || sz < PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	for (u32 i = 0; i < nre; i++) {
		struct perf_header_attr *a;

		if (sz > (size_t)(r->end - r->p))
			return -EINVAL;
		r->p += sz;
		if (rd_u32(r, &nr_ids) || rd_str(r, &name))
			return -EINVAL;
		if (nr_ids > (size_t)(r->end - r->p) / 8) {
			free(name);
			return -EINVAL;
		}
		if (nr_ids)
			memcpy(&id0, r->p, 8);
		r->p += (size_t)nr_ids * 8;
		a = h->pipe ? NULL : desc_target(h, i, id0, nr_ids);
		if (a && !a->name)
			a->name = name;
		else
			free(name);
	}
	return 0;
}

/**
 * perf_header__name_events - see util/perf-data/header.h
 */
int perf_header__name_events(struct perf_header *h, const void *buf, size_t size)
{
	struct rd r = { buf, (const u8 *)buf + size };
	bool pipe = h->pipe;
	int err;

	h->pipe = false;
	err = read_event_desc(h, &r);
	h->pipe = pipe;
	return err;
}

/**
 * perf_header__process_build_id_record - see util/perf-data/header.h
 */
int perf_header__process_build_id_record(struct perf_header *h, const union perf_event *ev,
					 size_t size)
{
	const struct perf_record_header_build_id *b = &ev->build_id;
	struct perf_env *e = &h->env;
	struct perf_build_id_entry *n, *x;
	size_t fsz;

	if (size < sizeof(*b) || ev->header.size > size || ev->header.size < sizeof(*b))
		return -EINVAL;
	fsz = ev->header.size - sizeof(*b);
	n = realloc(e->build_ids, (e->nr_build_ids + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	e->build_ids = n;
	x = &n[e->nr_build_ids];
	memset(x, 0, sizeof(*x));
	x->filename = strndup(b->filename, fsz);
	if (!x->filename)
		return -ENOMEM;
	x->pid = b->pid;
	x->misc = ev->header.misc;
	x->size = (ev->header.misc & PERF_RECORD_MISC_BUILD_ID_SIZE) && b->size <= 20 ?
		  b->size : PERF_BUILD_ID_SIZE;
	memcpy(x->build_id, b->data, PERF_BUILD_ID_SIZE);
	e->nr_build_ids++;
	return 0;
}

static int read_build_ids(struct perf_header *h, struct rd *r)
{
	while (r->end - r->p >= (long)sizeof(struct perf_event_header)) {
		struct perf_event_header hd;
		size_t left = r->end - r->p;
		u64 *copy;
		int err;

		memcpy(&hd, r->p, sizeof(hd));
		if (hd.size < sizeof(struct perf_record_header_build_id) || hd.size > left)
			return -EINVAL;
		copy = malloc(hd.size);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, r->p, hd.size);
		err = perf_header__process_build_id_record(h, (const union perf_event *)copy,
							   hd.size);
		free(copy);
		if (err)
			return err;
		r->p += hd.size;
	}
	return 0;
}

static int read_blob(struct perf_header *h, struct rd *r)
{
	size_t n = r->end - r->p;

	free(h->env.tracing_data);
	h->env.tracing_data = malloc(n ? n : 1);
	if (!h->env.tracing_data)
		return -ENOMEM;
	memcpy(h->env.tracing_data, r->p, n);
	h->env.tracing_data_size = n;
	r->p = r->end;
	return 0;
}

/* GROUP_DESC: u32 count, then name, leader index, member count per group. */
static int read_group_desc(struct perf_header *h, struct rd *r)
{
	u32 nr, leader, members;
	char *name;

	if (rd_u32(r, &nr))
		return -EINVAL;
	for (u32 i = 0; i < nr; i++) {
		if (rd_str(r, &name))
			return -EINVAL;
		if (rd_u32(r, &leader) || rd_u32(r, &members) || leader >= (u32)h->nr_attrs ||
		    members > (u32)h->nr_attrs - leader) {
			free(name);
			return -EINVAL;
		}
		for (u32 j = 0; j < members; j++)
			h->attrs[leader + j].leader_idx = (int)leader;
		h->attrs[leader].nr_members = members;
		free(h->attrs[leader].group_name);
		h->attrs[leader].group_name = strcmp(name, "{anon_group}") ? name : NULL;
		if (!h->attrs[leader].group_name)
			free(name);
	}
	return 0;
}

/* CLOCK_DATA: u32 version (1), u32 clockid, u64 wall clock ns, u64 clockid ns */
static int read_clock_data(struct perf_env *e, struct rd *r)
{
	u32 version;

	if (rd_u32(r, &version) || version != 1 || rd_u32(r, &e->clock_data_clockid) ||
	    rd_u64(r, &e->clock_tod_ns) || rd_u64(r, &e->clock_clockid_ns))
		return -EINVAL;
	e->has_clock_data = true;
	return 0;
}

static int read_compressed(struct perf_env *e, struct rd *r)
{
	if (rd_u32(r, &e->comp_ver) || rd_u32(r, &e->comp_type) || rd_u32(r, &e->comp_level) ||
	    rd_u32(r, &e->comp_ratio) || rd_u32(r, &e->comp_mmap_len))
		return -EINVAL;
	return 0;
}

/**
 * perf_header__process_feature - see util/perf-data/header.h
 */
int perf_header__process_feature(struct perf_header *h, int feat, const void *buf, size_t size)
{
	struct rd r = { buf, (const u8 *)buf + size };
	struct perf_env *e = &h->env;

	switch (feat) {
	case HEADER_HOSTNAME: case HEADER_OSRELEASE: case HEADER_VERSION:
	case HEADER_ARCH: case HEADER_CPUDESC: case HEADER_CPUID:
		return read_string_feat(h, feat, &r);
	case HEADER_NRCPUS:
		if (rd_u32(&r, &e->nr_cpus_avail) || rd_u32(&r, &e->nr_cpus_online))
			return -EINVAL;
		return 0;
	case HEADER_TOTAL_MEM:
		return rd_u64(&r, &e->total_mem);
	case HEADER_CMDLINE:
		return read_cmdline(h, &r);
	case HEADER_EVENT_DESC:
		return read_event_desc(h, &r);
	case HEADER_CPU_TOPOLOGY:
		return read_cpu_topology(h, &r);
	case HEADER_NUMA_TOPOLOGY:
		return read_numa(h, &r);
	case HEADER_CLOCKID:
		return rd_u64(&r, &e->clockid_res_ns);
	case HEADER_CLOCK_DATA:
		return read_clock_data(e, &r);
	case HEADER_SAMPLE_TIME:
		return rd_u64(&r, &e->first_sample_time) || rd_u64(&r, &e->last_sample_time) ?
		       -EINVAL : 0;
	case HEADER_BUILD_ID:
		return read_build_ids(h, &r);
	case HEADER_TRACING_DATA:
		return read_blob(h, &r);
	case HEADER_DIR_FORMAT:
		return rd_u64(&r, &e->dir_format_version);
	case HEADER_BRANCH_STACK:	/* a flag, no data */
		e->branch_stack = true;
		return 0;
	case HEADER_COMPRESSED:
		return read_compressed(e, &r);
	case HEADER_GROUP_DESC:
		return read_group_desc(h, &r);
	default:
		return 0;	/* known but not decoded yet, or unknown: skipped */
	}
}

/* ---- the file header ---- */

/**
 * perf_header__check_magic - see util/perf-data/header.h
 */
int perf_header__check_magic(struct perf_header *h, const void *buf, const char *path)
{
	u64 magic, size;

	memcpy(&magic, buf, 8);
	memcpy(&size, (const u8 *)buf + 8, 8);
	if (magic == PERF_MAGIC2_SWAPPED) {
		seterr(h, "'%s' is a big-endian perf.data file (from ppc64 or s390x?): "
		       "byte-swapped files are not supported; read it on the machine that wrote it",
		       path);
		return -EINVAL;
	}
	if (!memcmp(buf, "PERFFILE", 8)) {
		seterr(h, "'%s' is a perf.data of the first format (PERFFILE, perf before 2.6.38): "
		       "not supported", path);
		return -EINVAL;
	}
	if (magic != PERF_MAGIC2) {
		seterr(h, "'%s' is not a perf.data file (no PERFILE2 magic)", path);
		return -EINVAL;
	}
	if (size == sizeof(struct perf_pipe_file_header))
		return 1;
	if (size == sizeof(struct perf_file_header) ||
	    size == offsetof(struct perf_file_header, adds_features))
		return 0;
	seterr(h, "'%s': unknown perf.data header size %llu", path, (unsigned long long)size);
	return -EINVAL;
}

static bool section_ok(const struct perf_file_section *s, size_t file_size)
{
	return s->offset <= file_size && s->size <= file_size - s->offset;
}

static int read_attrs(struct perf_header *h, const u8 *buf, size_t size,
		      const struct perf_file_header *fh, const char *path)
{
	size_t asz = fh->attr_size - sizeof(struct perf_file_section);
	u64 nr = fh->attr_size ? fh->attrs.size / fh->attr_size : 0, all_ids = 0;

	for (u64 i = 0; i < nr; i++) {
		const u8 *ent = buf + fh->attrs.offset + i * fh->attr_size;
		struct perf_file_section ids;
		struct perf_event_attr a = { 0 };
		u32 sz;

		memcpy(&sz, ent + offsetof(struct perf_event_attr, size), 4);
		if (!sz)
			sz = PERF_ATTR_SIZE_VER0;
		if (sz > asz) {
			seterr(h, "'%s': event %llu has attr size %u, more than the %zu bytes "
			       "of its attrs entry", path, (unsigned long long)i, sz, asz);
			return -EINVAL;
		}
		memcpy(&a, ent, sz < sizeof(a) ? sz : sizeof(a));	/* newer fields: ignored */
		memcpy(&ids, ent + asz, sizeof(ids));
		if (!section_ok(&ids, size) || ids.size % 8 || ids.size / 8 > UINT32_MAX) {
			seterr(h, "'%s': the ids of event %llu are outside the file", path,
			       (unsigned long long)i);
			return -EINVAL;
		}
		/*
		 * each event's ids are its own bytes of the file: events that all
		 * name one large section would be copied that many times
		 */
		all_ids += ids.size;
		if (all_ids > size) {
			seterr(h, "'%s': the ids of events 0 to %llu add up to more than the "
			       "file's %zu bytes", path, (unsigned long long)i, size);
			return -EINVAL;
		}
		u64 *idv = malloc(ids.size ? ids.size : 1);

		if (idv)
			memcpy(idv, buf + ids.offset, ids.size);
		if (!idv || !perf_header__add_attr(h, &a, sizeof(a), idv, ids.size / 8)) {
			free(idv);
			seterr(h, "'%s': out of memory reading event %llu", path,
			       (unsigned long long)i);
			return -ENOMEM;
		}
		free(idv);
	}
	return 0;
}

static int check_file_header(struct perf_header *h, const struct perf_file_header *fh,
			     size_t size, const char *path)
{
	size_t ours = sizeof(struct perf_event_attr) + sizeof(struct perf_file_section);

	/*
	 * A newer perf's attr is longer (136 bytes since perf 6.3): its fields
	 * past ours are ignored, as the ABI lets a reader that does not know
	 * them; a size no perf could write is refused.
	 */
	if (fh->attr_size > ours + 4096) {
		seterr(h, "'%s': invalid attr size %llu in the header", path,
		       (unsigned long long)fh->attr_size);
		return -EINVAL;
	}
	if (fh->attrs.size &&
	    fh->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct perf_file_section)) {
		seterr(h, "'%s': invalid attr size %llu in the header", path,
		       (unsigned long long)fh->attr_size);
		return -EINVAL;
	}
	if (!section_ok(&fh->attrs, size)) {
		seterr(h, "'%s': the attrs section (offset %#llx, size %#llx) is outside the "
		       "file (%zu bytes): truncated?", path, (unsigned long long)fh->attrs.offset,
		       (unsigned long long)fh->attrs.size, size);
		return -EINVAL;
	}
	if (fh->data.offset > size) {
		seterr(h, "'%s': the data section starts at %#llx, after the end of the file "
		       "(%zu bytes): truncated?", path, (unsigned long long)fh->data.offset, size);
		return -EINVAL;
	}
	return 0;
}

/*
 * With data.size 0 the file is either finished with no records, or its
 * writer was killed before fixing the header (perf writes the feature bits
 * at the start, the sections at the end).  Finished: the feature table
 * right at data.offset describes sections that follow it back to back up
 * to the end of the file.
 */
static bool empty_data_finished(struct perf_header *h, const u8 *buf, size_t size)
{
	u64 pos = h->data.offset;
	int nr = 0, i = 0;

	for (int f = 0; f < HEADER_FEAT_BITS; f++)
		nr += perf_header__has_feat(h, f);
	if (!nr || pos > size || (u64)nr * sizeof(struct perf_file_section) > size - pos)
		return false;
	pos += (u64)nr * sizeof(struct perf_file_section);
	for (int f = 0; f < HEADER_FEAT_BITS; f++) {
		struct perf_file_section sec;

		if (!perf_header__has_feat(h, f))
			continue;
		memcpy(&sec, buf + h->data.offset + i++ * sizeof(sec), sizeof(sec));
		if (sec.offset != pos || !section_ok(&sec, size))
			return false;
		pos += sec.size;
	}
	return pos == size;
}

static void read_features(struct perf_header *h, const u8 *buf, size_t size, const char *path)
{
	u64 start = h->data.offset + h->data.size;
	int nr = 0, i = 0;

	for (int f = 0; f < HEADER_FEAT_BITS; f++)
		nr += perf_header__has_feat(h, f);
	if (!nr)
		return;
	if (h->data.offset + h->data.size < h->data.offset || start > size ||
	    (u64)nr * sizeof(struct perf_file_section) > size - start) {
		pr_debug("'%s': the feature table at %#llx is outside the file: features ignored\n",
			 path, (unsigned long long)start);
		memset(h->features, 0, sizeof(h->features));
		return;
	}
	for (int f = 0; f < HEADER_FEAT_BITS; f++) {
		struct perf_file_section *s = &h->feat_sec[f];

		if (!perf_header__has_feat(h, f))
			continue;
		memcpy(s, buf + start + i++ * sizeof(*s), sizeof(*s));
		if (!section_ok(s, size) ||
		    perf_header__process_feature(h, f, buf + s->offset, s->size)) {
			pr_debug("'%s': feature %s (%d) at %#llx is corrupt: ignored\n", path,
				 perf_header__feat_name(f) ?: "?", f,
				 (unsigned long long)s->offset);
			perf_header__clear_feat(h, f);
		}
	}
}

/**
 * perf_header__read_file - see util/perf-data/header.h
 */
int perf_header__read_file(struct perf_header *h, const void *buf, size_t size,
			   const char *path)
{
	struct perf_file_header fh = { 0 };
	int err;

	if (size < sizeof(struct perf_pipe_file_header)) {
		seterr(h, "'%s' is too small to be a perf.data file (%zu bytes)", path, size);
		return -EINVAL;
	}
	err = perf_header__check_magic(h, buf, path);
	if (err < 0)
		return err;
	if (err == 1) {
		h->pipe = true;
		return 0;
	}
	memcpy(&fh, buf, 16);
	if (size < fh.size) {
		seterr(h, "'%s': truncated file header (%zu of %llu bytes)", path, size,
		       (unsigned long long)fh.size);
		return -EINVAL;
	}
	memcpy(&fh, buf, fh.size);
	err = check_file_header(h, &fh, size, path);
	if (err)
		return err;
	h->attr_size = fh.attr_size;
	h->data = fh.data;
	memcpy(h->features, fh.adds_features, sizeof(h->features));
	err = read_attrs(h, buf, size, &fh, path);
	if (err)
		return err;
	if (!h->data.size && !empty_data_finished(h, buf, size)) {
		h->data_size_unknown = true;	/* killed writer: no feature sections */
		memset(h->features, 0, sizeof(h->features));
	}
	read_features(h, buf, size, path);
	return 0;
}

/**
 * perf_header__process_attr_record - see util/perf-data/header.h
 */
int perf_header__process_attr_record(struct perf_header *h, const union perf_event *ev)
{
	size_t total = ev->header.size, hs = sizeof(struct perf_event_header), asz;
	u32 sz;

	if (total < hs + PERF_ATTR_SIZE_VER0)
		return -EINVAL;
	memcpy(&sz, (const u8 *)ev + hs + offsetof(struct perf_event_attr, size), 4);
	asz = sz ? sz : PERF_ATTR_SIZE_VER0;
	if (asz > total - hs || (total - hs - asz) % 8)
		return -EINVAL;
	{
		u32 nr = (total - hs - asz) / 8;
		u64 *ids = malloc(nr ? nr * 8 : 8);
		struct perf_header_attr *a;

		if (!ids)
			return -ENOMEM;
		memcpy(ids, (const u8 *)ev + hs + asz, (size_t)nr * 8);
		a = perf_header__add_attr(h, (const u8 *)ev + hs, asz, ids, nr);
		free(ids);
		return a ? 0 : -ENOMEM;
	}
}

/* ---- writing ---- */

/**
 * wbuf__put - append @n bytes (zeros when @p is NULL); sets b->oom on failure
 */
void wbuf__put(struct wbuf *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		u8 *nb;

		while (cap < b->len + n)
			cap *= 2;
		nb = realloc(b->buf, cap);
		if (!nb) {
			b->oom = true;
			return;
		}
		b->buf = nb;
		b->cap = cap;
	}
	if (p)
		memcpy(b->buf + b->len, p, n);
	else
		memset(b->buf + b->len, 0, n);
	b->len += n;
}

/**
 * wbuf__exit - free a wbuf
 */
void wbuf__exit(struct wbuf *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

static void w_u32(struct wbuf *b, u32 v)
{
	wbuf__put(b, &v, 4);
}

static void w_u64(struct wbuf *b, u64 v)
{
	wbuf__put(b, &v, 8);
}

/* perf pads strings to 64 bytes, NUL included. */
static void w_str(struct wbuf *b, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + 63) & ~(size_t)63;

	w_u32(b, (u32)len);
	wbuf__put(b, s, n);
	wbuf__put(b, NULL, len - n);
}

static void w_strv(struct wbuf *b, char **v, u32 n)
{
	w_u32(b, n);
	for (u32 i = 0; i < n; i++)
		w_str(b, v[i] ? v[i] : "");
}

static int write_event_desc(struct perf_header *h, struct wbuf *b)
{
	char name[256];

	if (!h->nr_attrs)
		return -ENOENT;
	w_u32(b, h->nr_attrs);
	w_u32(b, sizeof(struct perf_event_attr));
	for (int i = 0; i < h->nr_attrs; i++) {
		struct perf_header_attr *a = &h->attrs[i];
		struct perf_event_attr attr = a->attr;

		attr.size = sizeof(attr);
		wbuf__put(b, &attr, sizeof(attr));
		w_u32(b, a->nr_ids);
		if (a->name)
			w_str(b, a->name);
		else {
			perf_attr__default_name(&a->attr, name, sizeof(name));
			w_str(b, name);
		}
		wbuf__put(b, a->ids, (size_t)a->nr_ids * 8);
	}
	return 0;
}

static int write_cpu_topology(struct perf_env *e, struct wbuf *b)
{
	if (!e->sibling_cores || !e->sibling_threads)
		return -ENOENT;
	w_strv(b, e->sibling_cores, e->nr_sibling_cores);
	w_strv(b, e->sibling_threads, e->nr_sibling_threads);
	if (!e->has_core_ids)
		return 0;
	for (u32 i = 0; i < e->nr_cpus_avail; i++) {
		const struct perf_cpu_topo *t = i < e->nr_cpu_topo ? &e->cpu_topo[i] : NULL;

		w_u32(b, t ? (u32)t->core_id : (u32)-1);
		w_u32(b, t ? (u32)t->socket_id : (u32)-1);
	}
	if (!e->has_die_ids || !e->sibling_dies)
		return 0;
	w_strv(b, e->sibling_dies, e->nr_sibling_dies);
	for (u32 i = 0; i < e->nr_cpus_avail; i++)
		w_u32(b, i < e->nr_cpu_topo ? (u32)e->cpu_topo[i].die_id : (u32)-1);
	return 0;
}

static int write_numa(struct perf_env *e, struct wbuf *b)
{
	if (!e->numa_nodes)
		return -ENOENT;
	w_u32(b, e->nr_numa_nodes);
	for (u32 i = 0; i < e->nr_numa_nodes; i++) {
		w_u32(b, e->numa_nodes[i].node);
		w_u64(b, e->numa_nodes[i].mem_total);
		w_u64(b, e->numa_nodes[i].mem_free);
		w_str(b, e->numa_nodes[i].cpus ? e->numa_nodes[i].cpus : "");
	}
	return 0;
}

static int write_build_ids(struct perf_env *e, struct wbuf *b)
{
	if (!e->nr_build_ids)
		return -ENOENT;
	for (u32 i = 0; i < e->nr_build_ids; i++) {
		struct perf_build_id_entry *x = &e->build_ids[i];
		struct perf_record_header_build_id r = { 0 };
		size_t n = strlen(x->filename) + 1, len = (n + 63) & ~(size_t)63;

		r.header.type = PERF_RECORD_HEADER_BUILD_ID;
		r.header.misc = x->misc | PERF_RECORD_MISC_BUILD_ID_SIZE;
		r.header.size = sizeof(r) + len;
		r.pid = x->pid;
		memcpy(r.data, x->build_id, PERF_BUILD_ID_SIZE);
		r.size = x->size;
		wbuf__put(b, &r, sizeof(r));
		wbuf__put(b, x->filename, n);
		wbuf__put(b, NULL, len - n);
	}
	return 0;
}

static int write_group_desc(struct perf_header *h, struct wbuf *b)
{
	u32 nr = 0;

	for (int i = 0; i < h->nr_attrs; i++)
		nr += h->attrs[i].leader_idx == i && h->attrs[i].nr_members > 1;
	if (!nr && !h->env.stat_data)
		return -ENOENT;	/* perf clears the bit without groups (not stat record) */
	w_u32(b, nr);
	for (int i = 0; i < h->nr_attrs; i++) {
		const struct perf_header_attr *a = &h->attrs[i];

		if (a->leader_idx != i || a->nr_members <= 1)
			continue;
		w_str(b, a->group_name ? a->group_name : "{anon_group}");
		w_u32(b, (u32)i);
		w_u32(b, a->nr_members);
	}
	return 0;
}

static int write_pmu_mappings(struct perf_env *e, struct wbuf *b)
{
	if (!e->pmu_mappings)
		return -ENOENT;
	w_u32(b, e->nr_pmu_mappings);
	for (u32 i = 0; i < e->nr_pmu_mappings; i++) {
		w_u32(b, e->pmu_mappings[i].type);
		w_str(b, e->pmu_mappings[i].name);
	}
	return 0;
}

static int write_caches(struct perf_env *e, struct wbuf *b)
{
	if (!e->has_caches)
		return -ENOENT;
	w_u32(b, 1);		/* version */
	w_u32(b, e->nr_caches);
	for (u32 i = 0; i < e->nr_caches; i++) {
		const struct perf_cache_level *c = &e->caches[i];

		w_u32(b, c->level);
		w_u32(b, c->line_size);
		w_u32(b, c->sets);
		w_u32(b, c->ways);
		w_str(b, c->type);
		w_str(b, c->size);
		w_str(b, c->map);
	}
	return 0;
}

static int write_mem_topology(struct perf_env *e, struct wbuf *b)
{
	if (!e->memory_bsize)
		return -ENOENT;
	w_u64(b, 1);		/* version */
	w_u64(b, e->memory_bsize);
	w_u64(b, e->nr_mem_nodes);
	for (u32 i = 0; i < e->nr_mem_nodes; i++) {
		const struct perf_mem_node *n = &e->mem_nodes[i];

		w_u64(b, n->node);
		w_u64(b, n->nr_bits);
		w_u64(b, n->nr_bits);	/* the bitmap: its size in bits, then its words */
		wbuf__put(b, n->set, (n->nr_bits + 63) / 64 * 8);
	}
	return 0;
}

/* a PMU's caps: u32 count, name and value strings, then (@pmu) the PMU's name */
static void write_one_pmu_caps(const struct perf_pmu_caps *c, struct wbuf *b, bool pmu)
{
	w_u32(b, c->nr);
	for (u32 i = 0; i < c->nr; i++) {
		w_str(b, c->names[i]);
		w_str(b, c->values[i]);
	}
	if (pmu)
		w_str(b, c->pmu);
}

static int write_pmu_caps(struct perf_env *e, struct wbuf *b)
{
	if (!e->has_pmu_caps)
		return -ENOENT;
	w_u32(b, e->nr_pmu_caps);
	for (u32 i = 0; i < e->nr_pmu_caps; i++)
		write_one_pmu_caps(&e->pmu_caps[i], b, true);
	return 0;
}

static int write_str_feat(const char *s, struct wbuf *b)
{
	if (!s)
		return -ENOENT;
	w_str(b, s);
	return 0;
}

/**
 * perf_header__write_feature - see util/perf-data/header.h
 */
int perf_header__write_feature(struct perf_header *h, int feat, struct wbuf *b)
{
	struct perf_env *e = &h->env;
	int err = 0;

	switch (feat) {
	case HEADER_HOSTNAME: err = write_str_feat(e->hostname, b); break;
	case HEADER_OSRELEASE: err = write_str_feat(e->os_release, b); break;
	case HEADER_VERSION: err = write_str_feat(e->version, b); break;
	case HEADER_ARCH: err = write_str_feat(e->arch, b); break;
	case HEADER_CPUDESC: err = write_str_feat(e->cpu_desc, b); break;
	case HEADER_CPUID: err = write_str_feat(e->cpuid, b); break;
	case HEADER_NRCPUS:
		if (!e->nr_cpus_avail)
			return -ENOENT;
		w_u32(b, e->nr_cpus_avail);
		w_u32(b, e->nr_cpus_online);
		break;
	case HEADER_TOTAL_MEM:
		if (!e->total_mem)
			return -ENOENT;
		w_u64(b, e->total_mem);
		break;
	case HEADER_CMDLINE:
		if (!e->cmdline)
			return -ENOENT;
		w_strv(b, e->cmdline, e->nr_cmdline);
		break;
	case HEADER_EVENT_DESC: err = write_event_desc(h, b); break;
	case HEADER_CPU_TOPOLOGY: err = write_cpu_topology(e, b); break;
	case HEADER_NUMA_TOPOLOGY: err = write_numa(e, b); break;
	case HEADER_CLOCKID:
		if (!e->clockid_res_ns && !e->stat_data)
			return -ENOENT;
		w_u64(b, e->clockid_res_ns);
		break;
	case HEADER_SAMPLE_TIME:
		if (!e->has_sample_time && !e->first_sample_time && !e->last_sample_time)
			return -ENOENT;
		w_u64(b, e->first_sample_time);
		w_u64(b, e->last_sample_time);
		break;
	case HEADER_BUILD_ID: err = write_build_ids(e, b); break;
	case HEADER_GROUP_DESC: err = write_group_desc(h, b); break;
	case HEADER_PMU_MAPPINGS: err = write_pmu_mappings(e, b); break;
	case HEADER_CACHE: err = write_caches(e, b); break;
	case HEADER_MEM_TOPOLOGY: err = write_mem_topology(e, b); break;
	case HEADER_PMU_CAPS: err = write_pmu_caps(e, b); break;
	case HEADER_CPU_PMU_CAPS:
		if (!e->cpu_pmu_caps)
			return -ENOENT;
		write_one_pmu_caps(e->cpu_pmu_caps, b, false);
		break;
	case HEADER_BPF_PROG_INFO:
	case HEADER_BPF_BTF:
		if (!e->has_bpf_empty)
			return -ENOENT;
		w_u32(b, 0);	/* no program, no BTF */
		break;
	case HEADER_TRACING_DATA:
		if (!e->tracing_data)
			return -ENOENT;
		wbuf__put(b, e->tracing_data, e->tracing_data_size);
		break;
	case HEADER_DIR_FORMAT:
		if (!e->dir_format_version)
			return -ENOENT;
		w_u64(b, e->dir_format_version);
		break;
	case HEADER_BRANCH_STACK:	/* a flag, no data */
		if (!e->branch_stack)
			return -ENOENT;
		break;
	case HEADER_STAT:
		if (!e->stat_data)
			return -ENOENT;
		break;		/* its presence says it all */
	case HEADER_CLOCK_DATA:
		if (!e->has_clock_data && !e->stat_data)
			return -ENOENT;
		w_u32(b, 1);	/* version */
		w_u32(b, e->clock_data_clockid);
		w_u64(b, e->clock_tod_ns);
		w_u64(b, e->clock_clockid_ns);
		break;
	case HEADER_COMPRESSED:
		if (!e->comp_type && !e->stat_data)
			return -ENOENT;
		w_u32(b, e->comp_ver);
		w_u32(b, e->comp_type);
		w_u32(b, e->comp_level);
		w_u32(b, e->comp_ratio);
		w_u32(b, e->comp_mmap_len);
		break;
	default:
		return -ENOENT;
	}
	if (err)
		return err;
	return b->oom ? -ENOMEM : 0;
}

/**
 * perf_header__set_features_from_env - see util/perf-data/header.h
 */
void perf_header__set_features_from_env(struct perf_header *h)
{
	for (int f = 1; f < HEADER_LAST_FEATURE; f++) {
		struct wbuf b = { 0 };

		if (!perf_header__write_feature(h, f, &b))
			perf_header__set_feat(h, f);
		else
			perf_header__clear_feat(h, f);
		wbuf__exit(&b);
	}
}

const char *perf_header__event_name(struct perf_header *h, struct perf_header_attr *a,
				    char *buf, size_t size)
{
	if (a->name)
		return a->name;
	if (a->attr.type == PERF_TYPE_TRACEPOINT && h->env.tracing_data &&
	    !trace_names__find(h->env.tracing_data, h->env.tracing_data_size, a->attr.config,
			       buf, size))
		return buf;
	perf_attr__default_name(&a->attr, buf, size);
	return buf;
}
