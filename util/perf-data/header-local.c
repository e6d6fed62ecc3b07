// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * This machine's values for the perf.data feature sections (the writer's
 * side of util/perf-data/header.c): uname, CPUs, /proc/cpuinfo, memory, topology.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/event/cpumap.h"
#include "util/lib/fs.h"
#include "util/perf-data/header.h"

/* "model name : Intel(R) ...   CPU" with runs of blanks squashed, as perf writes it. */
static char *cpu_desc(void)
{
	char *buf, *p, *e, *out;
	size_t j = 0;

	if (procfs__read_str("cpuinfo", &buf, NULL))
		return NULL;
	p = strstr(buf, "model name");
	if (!p || !(p = strchr(p, ':'))) {
		free(buf);
		return NULL;
	}
	for (p++; *p == ' ' || *p == '\t'; p++)
		;
	e = strchrnul(p, '\n');
	out = malloc(e - p + 1);
	for (; out && p < e; p++) {
		bool blank = *p == ' ' || *p == '\t';

		if (blank && (!j || out[j - 1] == ' '))
			continue;
		out[j++] = blank ? ' ' : *p;
	}
	if (out) {
		while (j && out[j - 1] == ' ')
			j--;
		out[j] = '\0';
	}
	free(buf);
	return out;
}

static u64 meminfo_kb(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoull(p + strlen(key), NULL, 10) : 0;
}

/* Add @s to @v (of *n) unless it is there already; takes ownership. */
static int add_unique(char ***v, u32 *n, char *s)
{
	char **nv;

	if (!s)
		return -ENOMEM;
	s[strcspn(s, "\n")] = '\0';
	for (u32 i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s)) {
			free(s);
			return 0;
		}
	nv = realloc(*v, (*n + 1) * sizeof(*nv));
	if (!nv) {
		free(s);
		return -ENOMEM;
	}
	nv[(*n)++] = s;
	*v = nv;
	return 0;
}

static char *topo_str(int cpu, const char *file)
{
	char rel[128], *s = NULL;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s", cpu, file);
	return sysfs__read_str(rel, &s, NULL) ? NULL : s;
}

static int cpu_topology(struct perf_env *e)
{
	struct cpu_map *online = cpu_map__new_online();
	u32 n = e->nr_cpus_avail;
	int err = 0;

	if (!online)
		return -errno;
	e->cpu_topo = calloc(n ? n : 1, sizeof(*e->cpu_topo));
	if (!e->cpu_topo) {
		cpu_map__put(online);
		return -ENOMEM;
	}
	e->nr_cpu_topo = n;
	for (u32 c = 0; c < n; c++)
		e->cpu_topo[c] = (struct perf_cpu_topo){ -1, -1, -1 };
	for (int i = 0; i < online->nr && !err; i++) {
		int c = online->map[i];
		char *s;

		if ((s = topo_str(c, "core_siblings_list")))
			err = add_unique(&e->sibling_cores, &e->nr_sibling_cores, s);
		if (!err && (s = topo_str(c, "thread_siblings_list")))
			err = add_unique(&e->sibling_threads, &e->nr_sibling_threads, s);
		if (!err && (s = topo_str(c, "die_cpus_list")))
			err = add_unique(&e->sibling_dies, &e->nr_sibling_dies, s);
		if (c >= 0 && (u32)c < n)
			e->cpu_topo[c] = (struct perf_cpu_topo){ cpu__get_core_id(c),
				cpu__get_socket_id(c), cpu__get_die_id(c) };
	}
	cpu_map__put(online);
	e->has_core_ids = true;
	e->has_die_ids = e->sibling_dies != NULL;
	if (!e->sibling_cores)
		e->sibling_cores = calloc(1, sizeof(char *));
	if (!e->sibling_threads)
		e->sibling_threads = calloc(1, sizeof(char *));
	return err;
}

static int numa_node(struct perf_env *e, int id)
{
	char rel[128], *s = NULL;
	struct perf_numa_node *node = &e->numa_nodes[e->nr_numa_nodes];

	snprintf(rel, sizeof(rel), "devices/system/node/node%d/meminfo", id);
	if (sysfs__read_str(rel, &s, NULL))
		return 0;
	node->node = id;
	node->mem_total = meminfo_kb(s, "MemTotal:");
	node->mem_free = meminfo_kb(s, "MemFree:");
	free(s);
	snprintf(rel, sizeof(rel), "devices/system/node/node%d/cpulist", id);
	if (sysfs__read_str(rel, &s, NULL))
		s = strdup("");
	if (!s)
		return -ENOMEM;
	s[strcspn(s, "\n")] = '\0';
	node->cpus = s;
	e->nr_numa_nodes++;
	return 0;
}

static int numa_topology(struct perf_env *e)
{
	char *s = NULL;
	struct cpu_map *nodes;
	int err = 0;

	if (sysfs__read_str("devices/system/node/online", &s, NULL))
		return 0;
	nodes = cpu_map__new(s);
	free(s);
	if (!nodes)
		return 0;
	e->numa_nodes = calloc(nodes->nr ? nodes->nr : 1, sizeof(*e->numa_nodes));
	for (int i = 0; e->numa_nodes && i < nodes->nr && !err; i++)
		err = numa_node(e, nodes->map[i]);
	if (!e->numa_nodes)
		err = -ENOMEM;
	cpu_map__put(nodes);
	return err;
}

static u32 nr_present(void)
{
	char *s = NULL;
	struct cpu_map *m;
	u32 n = 0;

	if (sysfs__read_str("devices/system/cpu/present", &s, NULL))
		return (u32)cpu__max_cpu();
	m = cpu_map__new(s);
	free(s);
	if (m && m->nr)
		n = (u32)m->map[m->nr - 1] + 1;
	cpu_map__put(m);
	return n ? n : (u32)cpu__max_cpu();
}

static int set_cmdline(struct perf_env *e, int argc, const char **argv)
{
	e->cmdline = calloc(argc > 0 ? argc : 1, sizeof(char *));
	if (!e->cmdline)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		e->cmdline[i] = strdup(argv[i]);
		if (!e->cmdline[i])
			return -ENOMEM;
		e->nr_cmdline = i + 1;
	}
	return 0;
}

/* ---- PMU_MAPPINGS, PMU_CAPS, CACHE, MEM_TOPOLOGY, as perf 6.1 gathers them ---- */

/* opendir() of a folder under the sysfs root */
static DIR *sysfs_opendir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static DIR *sysfs_opendir(const char *fmt, ...)
{
	char rel[PATH_MAX], path[PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", sysfs__mountpoint(), rel) >= sizeof(path))
		return NULL;
	return opendir(path);
}

static bool is_dot(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

/* Every PMU with a type, in directory order (perf's scan order). */
static int pmu_mappings(struct perf_env *e)
{
	DIR *d = sysfs_opendir("bus/event_source/devices");
	struct dirent *de;
	int err = 0;

	if (!d)
		return 0;
	e->pmu_mappings = calloc(1, sizeof(*e->pmu_mappings));
	if (!e->pmu_mappings)
		err = -ENOMEM;
	while (!err && (de = readdir(d))) {
		char rel[PATH_MAX];
		struct perf_pmu_mapping *nm;
		int type;

		if (is_dot(de->d_name))
			continue;
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/type", de->d_name);
		if (sysfs__read_int(rel, &type))
			continue;
		nm = realloc(e->pmu_mappings, (e->nr_pmu_mappings + 1) * sizeof(*nm));
		if (!nm || !(nm[e->nr_pmu_mappings].name = strdup(de->d_name))) {
			if (nm)
				e->pmu_mappings = nm;
			err = -ENOMEM;
			break;
		}
		e->pmu_mappings = nm;
		nm[e->nr_pmu_mappings++].type = (u32)type;
	}
	closedir(d);
	return err;
}

/* @pmu's caps/ files (name, first line less its last character, as perf) */
static int read_pmu_caps(const char *pmu, struct perf_pmu_caps *c)
{
	DIR *d = sysfs_opendir("bus/event_source/devices/%s/caps", pmu);
	struct dirent *de;
	int err = 0;

	c->pmu = strdup(pmu);
	if (!c->pmu)
		return -ENOMEM;
	while (d && !err && (de = readdir(d))) {
		char rel[PATH_MAX], *v = NULL, **nn, **nv;
		size_t len;

		if (is_dot(de->d_name))
			continue;
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/caps/%s", pmu, de->d_name);
		if (sysfs__read_str(rel, &v, NULL) || !*v) {
			free(v);
			continue;
		}
		/* perf: fgets() of 128 bytes (the newline kept), less the last character */
		len = strcspn(v, "\n");
		len += v[len] == '\n';
		v[(len > 127 ? 127 : len) - 1] = '\0';
		nn = realloc(c->names, (c->nr + 1) * sizeof(*nn));
		if (nn)
			c->names = nn;
		nv = nn ? realloc(c->values, (c->nr + 1) * sizeof(*nv)) : NULL;
		if (nv)
			c->values = nv;
		if (!nn || !nv || !(c->names[c->nr] = strdup(de->d_name))) {
			free(v);
			err = -ENOMEM;
			break;
		}
		c->values[c->nr++] = v;
	}
	if (d)
		closedir(d);
	return err;
}

/* PMU_CAPS: the PMUs with caps but "cpu"; CPU_PMU_CAPS: the "cpu" PMU's, when there is one */
static int pmu_caps(struct perf_env *e)
{
	int err = 0;

	e->has_pmu_caps = true;
	for (u32 i = 0; i < e->nr_pmu_mappings && !err; i++) {
		const char *name = e->pmu_mappings[i].name;
		struct perf_pmu_caps c = { 0 }, *nc;

		err = read_pmu_caps(name, &c);
		if (!err && !strcmp(name, "cpu")) {
			e->cpu_pmu_caps = malloc(sizeof(c));
			if (e->cpu_pmu_caps) {
				*e->cpu_pmu_caps = c;
				continue;
			}
			err = -ENOMEM;
		}
		if (!err && c.nr) {
			nc = realloc(e->pmu_caps, (e->nr_pmu_caps + 1) * sizeof(*nc));
			if (nc) {
				e->pmu_caps = nc;
				nc[e->nr_pmu_caps++] = c;
				continue;
			}
			err = -ENOMEM;
		}
		perf_pmu_caps__exit(&c);
	}
	return err;
}

static char *cache_str(const char *dir, const char *file)
{
	char rel[PATH_MAX], *s = NULL, *p;
	size_t n;

	snprintf(rel, sizeof(rel), "%s/%s", dir, file);
	if (sysfs__read_str(rel, &s, NULL))
		return NULL;
	for (p = s; *p == ' ' || *p == '\t' || *p == '\n'; p++)
		;
	memmove(s, p, strlen(p) + 1);
	for (n = strlen(s); n && (s[n - 1] == ' ' || s[n - 1] == '\n' || s[n - 1] == '\t'); n--)
		s[n - 1] = '\0';
	return s;
}

static void cache_free(struct perf_cache_level *c)
{
	free(c->type);
	free(c->size);
	free(c->map);
}

/* cache/indexN of @cpu: 0, 1 when the folder is absent, -1 when a file is missing */
static int cache_read(int cpu, int idx, struct perf_cache_level *c)
{
	char dir[128], rel[192], path[PATH_MAX];
	struct stat st;
	int v[4];
	static const char *const ints[4] = { "level", "coherency_line_size", "number_of_sets",
					     "ways_of_associativity" };

	memset(c, 0, sizeof(*c));
	snprintf(dir, sizeof(dir), "devices/system/cpu/cpu%d/cache/index%d", cpu, idx);
	snprintf(path, sizeof(path), "%s/%s", sysfs__mountpoint(), dir);
	if (stat(path, &st))
		return 1;
	for (int i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "%s/%s", dir, ints[i]);
		if (sysfs__read_int(rel, &v[i]))
			return -1;
	}
	*c = (struct perf_cache_level){ (u32)v[0], (u32)v[1], (u32)v[2], (u32)v[3],
		cache_str(dir, "type"), cache_str(dir, "size"), cache_str(dir, "shared_cpu_list") };
	if (!c->type || !c->size || !c->map) {
		cache_free(c);
		return -1;
	}
	return 0;
}

static bool cache_same(const struct perf_cache_level *a, const struct perf_cache_level *b)
{
	return a->level == b->level && a->line_size == b->line_size && a->sets == b->sets &&
	       a->ways == b->ways && !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

/*
 * CACHE: the distinct caches of index0-3 of every possible CPU, in the
 * order found, then (stably) by level; a cache folder with a file
 * missing drops the feature, as in perf.
 */
static int caches(struct perf_env *e)
{
	int max = cpu__max_cpu(), err = 0;

	for (int cpu = 0; cpu < max && !err; cpu++) {
		for (int idx = 0; idx < 4; idx++) {
			struct perf_cache_level c, *nc;
			u32 i;
			int r = cache_read(cpu, idx, &c);

			if (r == 1)
				break;
			if (r < 0) {
				err = -1;
				break;
			}
			for (i = 0; i < e->nr_caches && !cache_same(&c, &e->caches[i]); i++)
				;
			if (i < e->nr_caches) {
				cache_free(&c);
				continue;
			}
			nc = realloc(e->caches, (e->nr_caches + 1) * sizeof(*nc));
			if (!nc) {
				cache_free(&c);
				return -ENOMEM;
			}
			e->caches = nc;
			nc[e->nr_caches++] = c;
		}
	}
	if (err) {
		for (u32 i = 0; i < e->nr_caches; i++)
			cache_free(&e->caches[i]);
		free(e->caches);
		e->caches = NULL;
		e->nr_caches = 0;
		return 0;
	}
	for (u32 i = 1; i < e->nr_caches; i++) {	/* stable, by level */
		struct perf_cache_level c = e->caches[i];
		u32 j = i;

		for (; j && e->caches[j - 1].level > c.level; j--)
			e->caches[j] = e->caches[j - 1];
		e->caches[j] = c;
	}
	e->has_caches = true;
	return 0;
}

/* The memoryN entries of node @node into @n (a bitmap of highest N + 1 bits). */
static int mem_node(unsigned int node, struct perf_mem_node *n)
{
	DIR *d = sysfs_opendir("devices/system/node/node%u", node);
	struct dirent *de;
	unsigned int b, max = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (sscanf(de->d_name, "memory%u", &b) == 1 && b > max)
			max = b;
	n->node = node;
	n->nr_bits = (u64)max + 1;
	n->set = calloc((n->nr_bits + 63) / 64, 8);
	if (!n->set) {
		closedir(d);
		return -ENOMEM;
	}
	rewinddir(d);
	while ((de = readdir(d)))
		if (sscanf(de->d_name, "memory%u", &b) == 1)
			n->set[b / 64] |= 1ULL << (b % 64);
	closedir(d);
	return 0;
}

/* MEM_TOPOLOGY: the memory block size, each node's blocks, by node */
static int mem_topology(struct perf_env *e)
{
	char *s = NULL, *end;
	u64 bsize;
	DIR *d;
	struct dirent *de;
	unsigned int node;
	int err = 0;

	if (sysfs__read_str("devices/system/memory/block_size_bytes", &s, NULL))
		return 0;
	bsize = strtoull(s, &end, 16);
	free(s);
	d = sysfs_opendir("devices/system/node");
	if (!bsize || !d) {
		if (d)
			closedir(d);
		return 0;
	}
	while (!err && (de = readdir(d))) {
		struct perf_mem_node *nn;
		int r;

		if (sscanf(de->d_name, "node%u", &node) != 1)
			continue;
		nn = realloc(e->mem_nodes, (e->nr_mem_nodes + 1) * sizeof(*nn));
		if (!nn) {
			err = -ENOMEM;
			break;
		}
		e->mem_nodes = nn;
		r = mem_node(node, &nn[e->nr_mem_nodes]);
		if (r == -ENOMEM)
			err = r;
		else if (!r)
			e->nr_mem_nodes++;
	}
	closedir(d);
	for (u32 i = 1; i < e->nr_mem_nodes; i++) {
		struct perf_mem_node n = e->mem_nodes[i];
		u32 j = i;

		for (; j && e->mem_nodes[j - 1].node > n.node; j--)
			e->mem_nodes[j] = e->mem_nodes[j - 1];
		e->mem_nodes[j] = n;
	}
	if (!err)
		e->memory_bsize = bsize;
	return err;
}

/**
 * perf_env__init_local - see util/perf-data/header.h
 */
int perf_env__init_local(struct perf_env *e, int argc, const char **argv)
{
	struct utsname u;
	char buf[128], *mem = NULL;
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (!uname(&u)) {
		e->hostname = strdup(u.nodename);
		e->os_release = strdup(u.release);
		e->arch = strdup(u.machine);
	}
	e->version = strdup(TPERF_VERSION);
	e->nr_cpus_avail = nr_present();
	e->nr_cpus_online = online > 0 ? (u32)online : 1;
	e->cpu_desc = cpu_desc();
	if (!arch_get_cpuid(buf, sizeof(buf)))
		e->cpuid = strdup(buf);
	if (!procfs__read_str("meminfo", &mem, NULL)) {
		e->total_mem = meminfo_kb(mem, "MemTotal:");
		free(mem);
	}
	if (set_cmdline(e, argc, argv) || cpu_topology(e) || numa_topology(e) ||
	    pmu_mappings(e) || pmu_caps(e) || caches(e) || mem_topology(e))
		return -ENOMEM;
	e->has_bpf_empty = true;
	e->has_sample_time = true;	/* perf writes it also before the first sample (pipe) */
	if (!e->hostname || !e->os_release || !e->arch || !e->version)
		return -ENOMEM;
	return 0;
}
