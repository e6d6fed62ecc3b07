/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * RAPL energy from /sys/class/powercap/intel-rapl:* when the "power" PMU is
 * absent: the same event names (energy-pkg, energy-cores, energy-ram,
 * energy-gpu, energy-psys) read the zones' energy_uj counters, with
 * wrap-around at max_energy_range_uj.
 */
#ifndef TPERF_POWERCAP_H
#define TPERF_POWERCAP_H

#include <stdbool.h>
#include <stdint.h>

struct powercap_event;

/* True when the sysfs root has intel-rapl powercap zones. */
bool powercap__available(void);
/* The zones behind event @name ("energy-pkg": one per package), or NULL. */
struct powercap_event *powercap__find(const char *name);
/* The events powercap knows (energy-pkg, -cores, -ram, -gpu, -psys). */
#define POWERCAP_NR_EVENTS 5
/* The names of those this machine has, for `tperf list`, into @names (NULL-terminated). */
void powercap__event_names(const char *names[POWERCAP_NR_EVENTS + 1]);
/* Number of zones (packages) of the event; values are read per zone. */
int powercap_event__nr_zones(const struct powercap_event *ev);
/* Zone @idx's package id (for --per-socket). */
int powercap_event__zone_package(const struct powercap_event *ev, int idx);
/*
 * Read zone @idx: energy in microjoules since powercap_event__start(),
 * accumulated across wrap-arounds (call at least once per wrap period).
 */
int powercap_event__start(struct powercap_event *ev);
int powercap_event__read(struct powercap_event *ev, int idx, uint64_t *uj);
void powercap_event__delete(struct powercap_event *ev);

#endif
