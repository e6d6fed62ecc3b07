// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RAPL energy through the powercap class, for machines whose kernel has no
 * "power" PMU.  Zones live in <sysfs>/class/powercap/intel-rapl:P (packages,
 * named "package-P", and "psys") and intel-rapl:P:S (subzones "core",
 * "uncore", "dram").  Each has energy_uj, which wraps at max_energy_range_uj.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/lib/fs.h"
#include "util/event/powercap.h"

#define POWERCAP_DIR "class/powercap"

struct powercap_zone {
	char path[PATH_MAX];	/* .../intel-rapl:0:1 */
	int package;
	uint64_t max_range;	/* max_energy_range_uj, 0 if unknown */
	uint64_t last;		/* last raw energy_uj */
	uint64_t total;		/* accumulated since start */
};

struct powercap_event {
	int nr;
	struct powercap_zone zones[];
};

/* event name -> zone name (a prefix for packages) */
static const struct { const char *event, *zone; } zone_names[] = {
	{ "energy-pkg", "package-" },
	{ "energy-cores", "core" },
	{ "energy-ram", "dram" },
	{ "energy-gpu", "uncore" },
	{ "energy-psys", "psys" },
};
#define NR_ZONE_NAMES (sizeof(zone_names) / sizeof(zone_names[0]))
_Static_assert(NR_ZONE_NAMES == POWERCAP_NR_EVENTS, "POWERCAP_NR_EVENTS is the table's size");

static int zone_read_str(const char *dir, const char *file, char **val)
{
	char path[PATH_MAX + 32];
	char *nl;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	err = filename__read_str(path, val, NULL);
	if (err)
		return err;
	nl = strchr(*val, '\n');
	if (nl)
		*nl = '\0';
	return 0;
}

static int zone_read_u64(const char *dir, const char *file, uint64_t *val)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return filename__read_u64(path, val);
}

static int is_rapl_zone(const struct dirent *d)
{
	return !strncmp(d->d_name, "intel-rapl:", 11);
}

/* Package of zone "intel-rapl:P[:S]": from the package zone's name "package-N". */
static int zone_package(const char *base, const char *dname)
{
	char dir[PATH_MAX], *name = NULL;
	int p = -1, pkg = -1;

	if (sscanf(dname, "intel-rapl:%d", &p) != 1)
		return -1;
	snprintf(dir, sizeof(dir), "%s/intel-rapl:%d", base, p);
	if (zone_read_str(dir, "name", &name) == 0) {
		if (sscanf(name, "package-%d", &pkg) != 1)
			pkg = p;
		free(name);
	}
	return pkg;
}

static int scan_zones(struct dirent ***list, char *base, size_t size)
{
	snprintf(base, size, "%s/%s", sysfs__mountpoint(), POWERCAP_DIR);
	return scandir(base, list, is_rapl_zone, alphasort);
}

bool powercap__available(void)
{
	char base[PATH_MAX / 2];
	struct dirent **list;
	int n = scan_zones(&list, base, sizeof(base));

	for (int i = 0; i < n; i++)
		free(list[i]);
	if (n > 0)
		free(list);
	return n > 0;
}

static const char *zone_for_event(const char *event)
{
	for (size_t i = 0; i < NR_ZONE_NAMES; i++)
		if (!strcmp(zone_names[i].event, event))
			return zone_names[i].zone;
	return NULL;
}

static bool zone_matches(const char *want, const char *name)
{
	if (want[strlen(want) - 1] == '-')
		return !strncmp(name, want, strlen(want));
	return !strcmp(name, want);
}

struct powercap_event *powercap__find(const char *event)
{
	const char *want = zone_for_event(event);
	char base[PATH_MAX / 2];
	struct dirent **list;
	struct powercap_event *ev = NULL;
	int n;

	if (!want)
		return NULL;
	n = scan_zones(&list, base, sizeof(base));
	if (n <= 0)
		return NULL;
	ev = calloc(1, sizeof(*ev) + (size_t)n * sizeof(ev->zones[0]));
	for (int i = 0; ev && i < n; i++) {
		struct powercap_zone *z = &ev->zones[ev->nr];
		char *name = NULL;

		snprintf(z->path, sizeof(z->path), "%s/%s", base, list[i]->d_name);
		if (zone_read_str(z->path, "name", &name) == 0 && zone_matches(want, name)) {
			z->package = zone_package(base, list[i]->d_name);
			if (zone_read_u64(z->path, "max_energy_range_uj", &z->max_range))
				z->max_range = 0;
			ev->nr++;
		}
		free(name);
	}
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	if (ev && !ev->nr) {
		free(ev);
		ev = NULL;
	}
	return ev;
}

void powercap__event_names(const char *names[POWERCAP_NR_EVENTS + 1])
{
	size_t n = 0;

	for (size_t i = 0; i < NR_ZONE_NAMES; i++) {
		struct powercap_event *ev = powercap__find(zone_names[i].event);

		if (ev)
			names[n++] = zone_names[i].event;
		powercap_event__delete(ev);
	}
	names[n] = NULL;
}

int powercap_event__nr_zones(const struct powercap_event *ev)
{
	return ev->nr;
}

int powercap_event__zone_package(const struct powercap_event *ev, int idx)
{
	return idx >= 0 && idx < ev->nr ? ev->zones[idx].package : -1;
}

int powercap_event__start(struct powercap_event *ev)
{
	for (int i = 0; i < ev->nr; i++) {
		struct powercap_zone *z = &ev->zones[i];
		int err = zone_read_u64(z->path, "energy_uj", &z->last);

		if (err)
			return err;
		z->total = 0;
	}
	return 0;
}

int powercap_event__read(struct powercap_event *ev, int idx, uint64_t *uj)
{
	struct powercap_zone *z;
	uint64_t now;
	int err;

	if (idx < 0 || idx >= ev->nr)
		return -EINVAL;
	z = &ev->zones[idx];
	err = zone_read_u64(z->path, "energy_uj", &now);
	if (err)
		return err;
	if (now >= z->last)
		z->total += now - z->last;
	else if (z->max_range > z->last)	/* wrapped at max_energy_range_uj */
		z->total += z->max_range - z->last + now;
	else
		z->total += now;
	z->last = now;
	*uj = z->total;
	return 0;
}

void powercap_event__delete(struct powercap_event *ev)
{
	free(ev);
}
