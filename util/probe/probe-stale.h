/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The uprobes a tperf killed (SIGKILL) leaves behind, and their removal.
 *
 * The uprobes tperf makes for the length of a run (`stat|record -e
 * sdt_PROVIDER:NAME -- ./prog`, probe-sdt.c) must keep the names perf
 * gives them, and look like the ones `tperf probe` makes to stay: so each
 * gets a marker first, a uprobe of the same place without arguments in
 * the group tperf_PID_GROUP (its event named as the probe's), deleted
 * after it.  A marker whose PID no longer runs names what a dead tperf
 * left.  (A uprobe no one enables costs nothing: the kernel places the
 * breakpoint only for a user of the event.)
 */
#ifndef TPERF_PROBE_STALE_H
#define TPERF_PROBE_STALE_H

#include <stddef.h>

/* The marker group of a probe of @group made by this process, cut to 63 characters. */
void probe_stale__marker_group(const char *group, char *buf, size_t size);

/* A probe a tperf that no longer runs left, with its marker. */
struct probe_leftover {
	char group[64], event[64];	/* the probe: group[0] = 0 when it is gone */
	char marker[64];		/* the marker's group (event: @event) */
};

/**
 * probe_stale__find - the probes that tperfs that no longer run left: the
 *	markers whose PID runs no process, each with the probe it stands for
 *	(same event name, same place, its group the marker's tail), or alone
 * @out: malloc'ed array of *@nr entries (NULL when none)
 *
 * Returns 0 or -errno (uprobe_events unreadable).
 */
int probe_stale__find(struct probe_leftover **out, int *nr);

/* The name to show of @l: "GROUP:EVENT" of its probe, else of its marker. */
void probe_leftover__name(const struct probe_leftover *l, char *buf, size_t size);

/* Delete @l's probe, then its marker.  0 or -errno (-EBUSY: in use). */
int probe_stale__remove(const struct probe_leftover *l);

#endif
