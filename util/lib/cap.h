/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * This process's capabilities: the kernel lets CAP_PERFMON (or
 * CAP_SYS_ADMIN) past perf_event_paranoid, and CAP_SYS_RESOURCE past the
 * hard RLIMIT_NOFILE, not the user id: root in a container may lack them,
 * and a user given them is not root.
 */
#ifndef TPERF_CAP_H
#define TPERF_CAP_H

#include <stdbool.h>

#ifndef CAP_SYS_ADMIN
#define CAP_SYS_ADMIN 21
#endif
#ifndef CAP_SYS_RESOURCE
#define CAP_SYS_RESOURCE 24
#endif
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif

/* Whether @cap (CAP_*) is in this process's effective set. */
bool cap__effective(int cap);

/*
 * Whether perf_event_paranoid leaves this process alone: CAP_PERFMON or
 * CAP_SYS_ADMIN, as the kernel's perfmon_capable().
 */
bool cap__perfmon(void);

#endif
