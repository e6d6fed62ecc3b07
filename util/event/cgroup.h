/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgroups as event targets (stat -G, --for-each-cgroup): the folder of a
 * cgroup, whose descriptor perf_event_open() takes as its pid with
 * PERF_FLAG_PID_CGROUP.
 */
#ifndef TPERF_CGROUP_H
#define TPERF_CGROUP_H

#include <stddef.h>

/*
 * Open the folder of cgroup @name ("/" the root, "a/b" a child) in the
 * hierarchy perf counts in: the cgroup v1 one with the perf_event
 * controller, else cgroup2.  The descriptor, or -errno with @msg filled.
 */
int cgroup__open(const char *name, char *msg, size_t size);

#endif
