/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PMUs from sysfs (<sysfs>/bus/event_source/devices/NAME): type, cpumask,
 * format/ terms (bit ranges of config, config1, config2, config3; split
 * ranges such as "config:0-7,32-35") and events/ aliases with .scale,
 * .unit, .per-pkg and .snapshot.  Loaded once, on first use.
 */
#ifndef TPERF_PMU_H
#define TPERF_PMU_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/lib/list.h"

struct cpu_map;

enum pmu_format_field { PMU_FORMAT_CONFIG, PMU_FORMAT_CONFIG1, PMU_FORMAT_CONFIG2,
			PMU_FORMAT_CONFIG3 };

struct pmu_format {
	struct list_head node;
	char *name;			/* "event", "umask", "cmask" ... */
	enum pmu_format_field field;
	uint64_t bits;			/* mask of the bits in that field */
};

struct pmu_alias {
	struct list_head node;
	char *name;			/* "energy-pkg", "tsc" (lowercase) */
	char *terms;			/* "event=0x02", as in the sysfs file */
	char *desc;			/* from a .desc file or NULL */
	double scale;			/* 1.0 when no .scale */
	char *unit;			/* "" when no .unit */
	bool per_pkg, snapshot;
};

struct pmu {
	struct list_head node;
	char *name;			/* "cpu", "msr", "power", "software" ... */
	uint32_t type;
	struct cpu_map *cpus;		/* from cpumask/cpus, NULL: any CPU */
	bool is_core;			/* a CPU PMU ("cpu", "cpu_core", "armv8_...") */
	int sysfs_index;		/* its place in the folder's readdir order */
	struct list_head formats;	/* struct pmu_format */
	struct list_head aliases;	/* struct pmu_alias, sorted by name */
};

/* The PMU called @name, or NULL. */
struct pmu *pmu__find(const char *name);
struct pmu *pmu__find_by_type(uint32_t type);
/* Iterate every PMU, sorted by name: start with NULL. */
struct pmu *pmu__scan(struct pmu *prev);
/* A hybrid machine's core PMU: "cpu_core" or "cpu_atom". */
bool pmu__is_hybrid(const struct pmu *pmu);
/* Sort the @n PMUs of @v into the folder's readdir order (the order perf expands events in). */
void pmu__sort_sysfs_order(struct pmu **v, int n);
struct pmu_format *pmu__find_format(struct pmu *pmu, const char *term);
struct pmu_alias *pmu__find_alias(struct pmu *pmu, const char *name);

/**
 * pmu__format_encode - put @val into the bits of format term @term
 * @pmu: the PMU
 * @term: a format name ("event")
 * @val: its value
 * @attr: gets the bits set in config/config1/config2
 * Return: 0, -ENOENT for an unknown term, -ERANGE when @val does not fit.
 */
int pmu__format_encode(struct pmu *pmu, const char *term, uint64_t val,
		       struct perf_event_attr *attr);
/* Comma-separated valid terms of @pmu, for error messages ("event,umask,..."). */
int pmu__format_list(struct pmu *pmu, char *buf, size_t size);
/* Forget what was loaded (tests that change TPERF_SYSFS). */
void pmu__reset(void);

#endif
