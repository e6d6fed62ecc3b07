// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * PMUs from sysfs: <sysfs>/bus/event_source/devices/NAME/{type,cpumask,
 * cpus,format/,events/}.  Everything is read once, on first use, into a
 * list sorted by name.
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
#include "util/event/pmu.h"

#define PMU_DEVICES "bus/event_source/devices"

static struct list_head pmus = LIST_HEAD_INIT(pmus);
static bool pmus_loaded;

/* Read a small sysfs file relative to the PMU folder, trailing space cut. */
static char *pmu_read_file(const char *dir, const char *name)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return NULL;
	if (filename__read_str(path, &buf, &len))
		return NULL;
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return buf;
}

/*
 * Parse one format file: "config:0-7", "config1:0-15", "config:0-7,21".
 * 0 or -EINVAL.
 */
static int pmu_parse_format(const char *text, enum pmu_format_field *field, uint64_t *bits)
{
	const char *p = text;
	char *end;

	if (!strncmp(p, "config3:", 8)) {
		*field = PMU_FORMAT_CONFIG3;
		p += 8;
	} else if (!strncmp(p, "config2:", 8)) {
		*field = PMU_FORMAT_CONFIG2;
		p += 8;
	} else if (!strncmp(p, "config1:", 8)) {
		*field = PMU_FORMAT_CONFIG1;
		p += 8;
	} else if (!strncmp(p, "config:", 7)) {
		*field = PMU_FORMAT_CONFIG;
		p += 7;
	} else {
		return -EINVAL;
	}
	*bits = 0;
	for (;;) {
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (lo > 63 || hi > 63 || lo > hi)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			*bits |= 1ULL << b;
		if (*p != ',')
			break;
		p++;
	}
	return *p && !isspace((unsigned char)*p) ? -EINVAL : 0;
}

/* Sorted by name, so messages do not depend on the directory order. */
static void format_insert_sorted(struct pmu *pmu, struct pmu_format *f)
{
	struct pmu_format *pos;

	list_for_each_entry(pos, &pmu->formats, node) {
		if (strcmp(f->name, pos->name) < 0) {
			list_add_tail(&f->node, &pos->node);
			return;
		}
	}
	list_add_tail(&f->node, &pmu->formats);
}

static void pmu_load_formats(struct pmu *pmu, const char *dir)
{
	char fdir[PATH_MAX + 16];
	struct dirent *de;
	DIR *d;

	snprintf(fdir, sizeof(fdir), "%s/format", dir);
	d = opendir(fdir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct pmu_format *f;
		char *text;

		if (de->d_name[0] == '.')
			continue;
		text = pmu_read_file(fdir, de->d_name);
		if (!text)
			continue;
		f = calloc(1, sizeof(*f));
		if (f && !pmu_parse_format(text, &f->field, &f->bits) &&
		    (f->name = strdup(de->d_name))) {
			format_insert_sorted(pmu, f);
		} else {
			free(f);
		}
		free(text);
	}
	closedir(d);
}

static const char *const alias_suffixes[] = { ".scale", ".unit", ".per-pkg",
					      ".snapshot", ".desc" };

static bool is_alias_side_file(const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(alias_suffixes) / sizeof(alias_suffixes[0]); i++) {
		size_t s = strlen(alias_suffixes[i]);

		if (n > s && !strcmp(name + n - s, alias_suffixes[i]))
			return true;
	}
	return false;
}

static char *alias_side(const char *edir, const char *name, const char *suffix)
{
	char file[NAME_MAX + 16];

	snprintf(file, sizeof(file), "%s%s", name, suffix);
	return pmu_read_file(edir, file);
}

static void alias_insert_sorted(struct pmu *pmu, struct pmu_alias *a)
{
	struct pmu_alias *pos;

	list_for_each_entry(pos, &pmu->aliases, node) {
		if (strcmp(a->name, pos->name) < 0) {
			list_add_tail(&a->node, &pos->node);
			return;
		}
	}
	list_add_tail(&a->node, &pmu->aliases);
}

static struct pmu_alias *alias_new(const char *edir, const char *name)
{
	struct pmu_alias *a = calloc(1, sizeof(*a));
	char *s;

	if (!a)
		return NULL;
	a->name = strdup(name);
	a->terms = pmu_read_file(edir, name);
	a->desc = alias_side(edir, name, ".desc");
	a->unit = alias_side(edir, name, ".unit");
	if (!a->unit)
		a->unit = strdup("");
	a->scale = 1.0;
	s = alias_side(edir, name, ".scale");
	if (s) {
		char *end;
		double v = strtod(s, &end);

		if (end != s)
			a->scale = v;
		free(s);
	}
	s = alias_side(edir, name, ".per-pkg");
	a->per_pkg = s && atoi(s) == 1;
	free(s);
	s = alias_side(edir, name, ".snapshot");
	a->snapshot = s && atoi(s) == 1;
	free(s);
	if (!a->name || !a->terms || !a->unit) {
		free(a->name);
		free(a->terms);
		free(a->desc);
		free(a->unit);
		free(a);
		return NULL;
	}
	for (char *p = a->name; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	return a;
}

static void pmu_load_aliases(struct pmu *pmu, const char *dir)
{
	char edir[PATH_MAX + 16];
	struct dirent *de;
	DIR *d;

	snprintf(edir, sizeof(edir), "%s/events", dir);
	d = opendir(edir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct pmu_alias *a;

		if (de->d_name[0] == '.' || is_alias_side_file(de->d_name))
			continue;
		a = alias_new(edir, de->d_name);
		if (a)
			alias_insert_sorted(pmu, a);
	}
	closedir(d);
}

static bool pmu_name_is_core(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") ||
	       !strcmp(name, "cpu_atom") || !strncmp(name, "armv8", 5) ||
	       !strncmp(name, "armv7", 5) || !strncmp(name, "arm_cortex", 10);
}

static struct pmu *pmu_load(const char *devices, const char *name)
{
	char dir[PATH_MAX];
	struct pmu *pmu;
	char *s;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", devices, name) >= sizeof(dir))
		return NULL;
	s = pmu_read_file(dir, "type");
	if (!s)
		return NULL;
	pmu = calloc(1, sizeof(*pmu));
	if (!pmu) {
		free(s);
		return NULL;
	}
	pmu->type = (uint32_t)strtoul(s, NULL, 0);
	free(s);
	pmu->name = strdup(name);
	INIT_LIST_HEAD(&pmu->formats);
	INIT_LIST_HEAD(&pmu->aliases);
	INIT_LIST_HEAD(&pmu->node);
	s = pmu_read_file(dir, "cpumask");
	if (!s)
		s = pmu_read_file(dir, "cpus");
	if (s && *s)
		pmu->cpus = cpu_map__new(s);
	free(s);
	pmu->is_core = pmu_name_is_core(name);
	pmu_load_formats(pmu, dir);
	pmu_load_aliases(pmu, dir);
	if (!pmu->name) {
		free(pmu);
		return NULL;
	}
	return pmu;
}

static void pmus_load(void)
{
	char devices[PATH_MAX];
	struct dirent *de;
	int index = 0;
	DIR *d;

	if (pmus_loaded)
		return;
	pmus_loaded = true;
	snprintf(devices, sizeof(devices), "%s/" PMU_DEVICES, sysfs__mountpoint());
	d = opendir(devices);
	if (!d)
		return;
	while ((de = readdir(d))) {
		struct pmu *pmu, *pos;
		bool added = false;

		if (de->d_name[0] == '.')
			continue;
		pmu = pmu_load(devices, de->d_name);
		if (!pmu)
			continue;
		pmu->sysfs_index = index++;
		list_for_each_entry(pos, &pmus, node) {
			if (strcmp(pmu->name, pos->name) < 0) {
				list_add_tail(&pmu->node, &pos->node);
				added = true;
				break;
			}
		}
		if (!added)
			list_add_tail(&pmu->node, &pmus);
	}
	closedir(d);
}

/**
 * pmu__find - the PMU called @name
 * @name: a directory name under bus/event_source/devices
 * Return: the PMU, or NULL when there is none of that name.
 */
struct pmu *pmu__find(const char *name)
{
	struct pmu *pmu;

	pmus_load();
	list_for_each_entry(pmu, &pmus, node)
		if (!strcmp(pmu->name, name))
			return pmu;
	return NULL;
}

/**
 * pmu__find_by_type - the PMU whose perf_event_attr type is @type
 * @type: attr.type
 * Return: the PMU or NULL.
 */
struct pmu *pmu__find_by_type(uint32_t type)
{
	struct pmu *pmu;

	pmus_load();
	list_for_each_entry(pmu, &pmus, node)
		if (pmu->type == type)
			return pmu;
	return NULL;
}

/**
 * pmu__scan - iterate every PMU, sorted by name
 * @prev: NULL to start, then the previous result
 * Return: the next PMU, NULL at the end.
 */
struct pmu *pmu__scan(struct pmu *prev)
{
	pmus_load();
	if (!prev)
		return list_empty(&pmus) ? NULL : list_first_entry(&pmus, struct pmu, node);
	if (prev->node.next == &pmus)
		return NULL;
	return list_entry(prev->node.next, struct pmu, node);
}

bool pmu__is_hybrid(const struct pmu *pmu)
{
	return pmu && (!strcmp(pmu->name, "cpu_core") || !strcmp(pmu->name, "cpu_atom"));
}

static int sysfs_index_cmp(const void *a, const void *b)
{
	const struct pmu *x = *(struct pmu *const *)a, *y = *(struct pmu *const *)b;

	return x->sysfs_index - y->sysfs_index;
}

/**
 * pmu__sort_sysfs_order - sort PMUs as the sysfs folder lists them
 * @v: the PMUs
 * @n: how many
 *
 * An event name found in several PMUs ("uncore_imc/x/", a bare alias)
 * becomes one event per PMU in this order, as in perf (whose output then
 * lists them in it).
 */
void pmu__sort_sysfs_order(struct pmu **v, int n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), sysfs_index_cmp);
}

/**
 * pmu__find_format - the format term @term of @pmu
 * @pmu: the PMU
 * @term: "event", "umask" ...
 * Return: the format or NULL.
 */
struct pmu_format *pmu__find_format(struct pmu *pmu, const char *term)
{
	struct pmu_format *f;

	list_for_each_entry(f, &pmu->formats, node)
		if (!strcmp(f->name, term))
			return f;
	return NULL;
}

/**
 * pmu__find_alias - the event alias @name of @pmu (case-insensitive)
 * @pmu: the PMU
 * @name: "tsc", "energy-pkg"
 * Return: the alias or NULL.
 */
struct pmu_alias *pmu__find_alias(struct pmu *pmu, const char *name)
{
	struct pmu_alias *a;

	list_for_each_entry(a, &pmu->aliases, node)
		if (!strcasecmp(a->name, name))
			return a;
	return NULL;
}

/* Spread the low bits of @val over the set bits of @mask. */
static uint64_t pmu_deposit(uint64_t val, uint64_t mask)
{
	uint64_t res = 0;

	for (int b = 0; b < 64 && val; b++) {
		if (mask & (1ULL << b)) {
			if (val & 1)
				res |= 1ULL << b;
			val >>= 1;
		}
	}
	return res;
}

static int popcount64(uint64_t v)
{
	return __builtin_popcountll(v);
}

/**
 * pmu__format_encode - put @val into the bits of format term @term
 * @pmu: the PMU
 * @term: a format name ("event")
 * @val: its value, spread over the term's bits from the lowest up (split
 *	 ranges such as config:0-7,32-35 take bits 0-7 then 8-11 of @val)
 * @attr: gets the bits set in config/config1/config2 (others kept)
 * Return: 0, -ENOENT for an unknown term, -ERANGE when @val does not fit.
 */
int pmu__format_encode(struct pmu *pmu, const char *term, uint64_t val,
		       struct perf_event_attr *attr)
{
	struct pmu_format *f = pmu__find_format(pmu, term);
	__u64 *dst;
	int width;

	if (!f)
		return -ENOENT;
	width = popcount64(f->bits);
	if (width < 64 && (val >> width))
		return -ERANGE;
	switch (f->field) {
	case PMU_FORMAT_CONFIG1:
		dst = &attr->config1;
		break;
	case PMU_FORMAT_CONFIG2:
		dst = &attr->config2;
		break;
	case PMU_FORMAT_CONFIG3:
#ifdef PERF_ATTR_SIZE_VER8
		dst = &attr->config3;
		break;
#else
		return -EOPNOTSUPP;
#endif
	default:
		dst = &attr->config;
		break;
	}
	*dst = (*dst & ~f->bits) | pmu_deposit(val, f->bits);
	return 0;
}

/**
 * pmu__format_list - the format term names of @pmu, comma-separated
 * @pmu: the PMU
 * @buf: output
 * @size: its size
 * Return: the length written (truncated to fit).
 */
int pmu__format_list(struct pmu *pmu, char *buf, size_t size)
{
	struct pmu_format *f;
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	list_for_each_entry(f, &pmu->formats, node) {
		int n = snprintf(buf + len, size - len, "%s%s", len ? "," : "", f->name);

		if (n < 0 || (size_t)n >= size - len) {
			buf[len] = '\0';	/* no half names */
			break;
		}
		len += (size_t)n;
	}
	return (int)len;
}

static void pmu_free(struct pmu *pmu)
{
	struct pmu_format *f, *fn;
	struct pmu_alias *a, *an;

	list_for_each_entry_safe(f, fn, &pmu->formats, node) {
		free(f->name);
		free(f);
	}
	list_for_each_entry_safe(a, an, &pmu->aliases, node) {
		free(a->name);
		free(a->terms);
		free(a->desc);
		free(a->unit);
		free(a);
	}
	cpu_map__put(pmu->cpus);
	free(pmu->name);
	free(pmu);
}

/**
 * pmu__reset - forget every loaded PMU; the next lookup reads sysfs again
 *
 * Evsels that point at a PMU must be gone before this is called.
 */
void pmu__reset(void)
{
	struct pmu *pmu, *n;

	list_for_each_entry_safe(pmu, n, &pmus, node)
		pmu_free(pmu);
	INIT_LIST_HEAD(&pmus);
	pmus_loaded = false;
}
