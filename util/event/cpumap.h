/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sets of CPUs ("0-3,6") and the CPU topology from sysfs. */
#ifndef TPERF_CPUMAP_H
#define TPERF_CPUMAP_H

#include <stddef.h>

struct cpu_map {
	int refcnt;
	int nr;
	int map[];	/* sorted, unique; a single -1 means "any CPU" (per-thread) */
};

/* From a list such as "0-3,6"; NULL or "" means every online CPU.  NULL on error (errno). */
struct cpu_map *cpu_map__new(const char *cpu_list);
struct cpu_map *cpu_map__new_online(void);
/* The one-entry map {-1}, for events that follow threads on any CPU. */
struct cpu_map *cpu_map__new_any(void);
struct cpu_map *cpu_map__get(struct cpu_map *map);
void cpu_map__put(struct cpu_map *map);
/* Index of @cpu in @map, or -1. */
int cpu_map__idx(const struct cpu_map *map, int cpu);
/* The intersection of @a and @b (new reference). */
struct cpu_map *cpu_map__intersect(const struct cpu_map *a, const struct cpu_map *b);
/* Format as "0-3,6" into @buf; returns the length. */
int cpu_map__snprint(const struct cpu_map *map, char *buf, size_t size);

/* Topology from sysfs devices/system/cpu/cpuN/topology; -1 when unknown. */
int cpu__get_socket_id(int cpu);
int cpu__get_die_id(int cpu);
/* The NUMA node of @cpu (its nodeN link in sysfs), 0 without NUMA, -1 unknown. */
int cpu__get_node_id(int cpu);
int cpu__get_core_id(int cpu);
int cpu__max_cpu(void);		/* highest possible CPU + 1 */

#endif
