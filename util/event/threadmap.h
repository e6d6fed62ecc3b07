/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Sets of threads to profile. */
#ifndef TPERF_THREADMAP_H
#define TPERF_THREADMAP_H

#include <sys/types.h>

struct thread_map {
	int refcnt;
	int nr;
	pid_t map[];	/* a single -1 means "every thread" (system-wide per CPU) */
};

/* Every thread of each process in "PID[,PID...]" (from /proc/PID/task). NULL+errno. */
struct thread_map *thread_map__new_by_pid_str(const char *pid_list);
/* The threads in "TID[,TID...]". */
struct thread_map *thread_map__new_by_tid_str(const char *tid_list);
/* One thread (a workload we forked). */
struct thread_map *thread_map__new_by_tid(pid_t tid);
/* The one-entry map {-1}. */
struct thread_map *thread_map__new_any(void);
struct thread_map *thread_map__get(struct thread_map *map);
void thread_map__put(struct thread_map *map);

#endif
