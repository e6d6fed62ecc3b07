// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * This machine's values for the perf.data feature sections (the writer's
 * side of util/header.c): uname, CPUs, /proc/cpuinfo, memory, topology.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cpumap.h"
#include "fs.h"
#include "header.h"

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

/**
 * perf_env__init_local - see util/header.h
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
	if (set_cmdline(e, argc, argv) || cpu_topology(e) || numa_topology(e))
		return -ENOMEM;
	if (!e->hostname || !e->os_release || !e->arch || !e->version)
		return -ENOMEM;
	return 0;
}
