// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU sets and topology.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/event/cpumap.h"
#include "util/lib/fs.h"

#define MAX_CPUS 4096

static struct cpu_map *cpu_map__alloc(int nr)
{
	struct cpu_map *m = malloc(sizeof(*m) + (size_t)nr * sizeof(int));

	if (!m)
		return NULL;
	m->refcnt = 1;
	m->nr = nr;
	return m;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Sorted, unique copy of @cpus[0..n). */
static struct cpu_map *cpu_map__from_array(int *cpus, int n)
{
	struct cpu_map *m;
	int u = 0;

	qsort(cpus, (size_t)n, sizeof(int), cmp_int);
	for (int i = 0; i < n; i++)
		if (!u || cpus[u - 1] != cpus[i])
			cpus[u++] = cpus[i];
	m = cpu_map__alloc(u);
	if (m)
		memcpy(m->map, cpus, (size_t)u * sizeof(int));
	return m;
}

/* Parse "0-3,6" (also with a trailing newline, as sysfs writes it). */
static struct cpu_map *cpu_map__parse(const char *s)
{
	int *cpus = NULL, n = 0, cap = 0;
	struct cpu_map *m = NULL;

	while (*s && *s != '\n') {
		char *end;
		long a, b;

		if (!isdigit((unsigned char)*s))
			goto invalid;
		a = strtol(s, &end, 10);
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			if (!isdigit((unsigned char)*s))
				goto invalid;
			b = strtol(s, &end, 10);
			s = end;
		}
		if (a > b || b >= MAX_CPUS)
			goto invalid;
		for (long c = a; c <= b; c++) {
			if (n == cap) {
				int *nc;

				cap = cap ? cap * 2 : 16;
				nc = realloc(cpus, (size_t)cap * sizeof(int));
				if (!nc) {
					free(cpus);
					errno = ENOMEM;
					return NULL;
				}
				cpus = nc;
			}
			cpus[n++] = (int)c;
		}
		if (*s == ',') {
			s++;
			if (!*s || *s == '\n')
				goto invalid;
		} else if (*s && *s != '\n') {
			goto invalid;
		}
	}
	if (!n)
		goto invalid;
	m = cpu_map__from_array(cpus, n);
	free(cpus);
	return m;
invalid:
	free(cpus);
	errno = EINVAL;
	return NULL;
}

struct cpu_map *cpu_map__new_online(void)
{
	char *buf;
	struct cpu_map *m;
	int err = sysfs__read_str("devices/system/cpu/online", &buf, NULL);

	if (err) {
		errno = -err;
		return NULL;
	}
	m = cpu_map__parse(buf);
	free(buf);
	return m;
}

struct cpu_map *cpu_map__new(const char *cpu_list)
{
	if (!cpu_list || !*cpu_list)
		return cpu_map__new_online();
	return cpu_map__parse(cpu_list);
}

struct cpu_map *cpu_map__new_any(void)
{
	struct cpu_map *m = cpu_map__alloc(1);

	if (m)
		m->map[0] = -1;
	return m;
}

struct cpu_map *cpu_map__get(struct cpu_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void cpu_map__put(struct cpu_map *map)
{
	if (map && --map->refcnt == 0)
		free(map);
}

int cpu_map__idx(const struct cpu_map *map, int cpu)
{
	for (int i = 0; i < map->nr; i++)
		if (map->map[i] == cpu)
			return i;
	return -1;
}

struct cpu_map *cpu_map__intersect(const struct cpu_map *a, const struct cpu_map *b)
{
	struct cpu_map *m = cpu_map__alloc(a->nr < b->nr ? a->nr : b->nr);
	int n = 0;

	if (!m)
		return NULL;
	for (int i = 0; i < a->nr; i++)
		if (cpu_map__idx(b, a->map[i]) >= 0)
			m->map[n++] = a->map[i];
	m->nr = n;
	return m;
}

int cpu_map__snprint(const struct cpu_map *map, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (int i = 0; i < map->nr;) {
		int j = i;

		while (j + 1 < map->nr && map->map[j + 1] == map->map[j] + 1 && map->map[i] >= 0)
			j++;
		if (len < size) {
			if (j == i)
				len += (size_t)snprintf(buf + len, size - len, "%s%d", i ? "," : "",
							map->map[i]);
			else
				len += (size_t)snprintf(buf + len, size - len, "%s%d-%d", i ? "," : "",
							map->map[i], map->map[j]);
		}
		i = j + 1;
	}
	return (int)len;
}

static int topology_id(int cpu, const char *file)
{
	char rel[128];
	int v;

	snprintf(rel, sizeof(rel), "devices/system/cpu/cpu%d/topology/%s", cpu, file);
	return sysfs__read_int(rel, &v) ? -1 : v;
}

int cpu__get_socket_id(int cpu)
{
	return topology_id(cpu, "physical_package_id");
}

int cpu__get_die_id(int cpu)
{
	return topology_id(cpu, "die_id");
}

/**
 * cpu__get_node_id - the NUMA node a CPU belongs to
 * @cpu: the CPU
 *
 * Read from the nodeN entry of its sysfs folder, as the kernel links it.
 *
 * Return: the node, 0 when the kernel has no NUMA (no node folder), -1
 * when the CPU is not in sysfs.
 */
int cpu__get_node_id(int cpu)
{
	char path[PATH_MAX];
	struct dirent *d;
	int node = -1;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d", sysfs__mountpoint(), cpu);
	dir = opendir(path);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		if (sscanf(d->d_name, "node%d", &node) == 1)
			break;
	closedir(dir);
	if (!d)
		node = 0;	/* a kernel without NUMA: one node */
	return node;
}

int cpu__get_core_id(int cpu)
{
	return topology_id(cpu, "core_id");
}

int cpu__max_cpu(void)
{
	char *buf;
	struct cpu_map *m;
	int max = 0;

	if (sysfs__read_str("devices/system/cpu/possible", &buf, NULL))
		return 1;
	m = cpu_map__parse(buf);
	free(buf);
	if (m) {
		max = m->map[m->nr - 1] + 1;
		cpu_map__put(m);
	}
	return max > 0 ? max : 1;
}
