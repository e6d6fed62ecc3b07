/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A thread of the profiled machine: its pid/tid, its current comm (comm
 * strings are interned by the machine and live as long as it does) and the
 * maps of its process (shared by the threads of one process).
 */
#ifndef TPERF_THREAD_H
#define TPERF_THREAD_H

#include <stdbool.h>

#include "util/model/map.h"

/* A comm of a thread; hist entries point to it.  The default ":TID" comm is
 * renamed in place by the first COMM, as perf does. */
struct comm {
	const char *str;		/* interned by the machine */
};

struct thread {
	int pid, tid, ppid;
	struct comm *comm;		/* the current one; ":TID" until a COMM */
	bool comm_set;			/* from a COMM (or inherited at FORK) */
	bool dead;
	struct maps *maps;
	struct thread *hnext;		/* machine's hash chain */
	/* script -F srccode: the source line last shown for the thread */
	const char *srccode_file;
	unsigned int srccode_line;
};

/** thread__new - a thread with no maps and the comm @comm (owned by the machine) */
struct thread *thread__new(int pid, int tid, struct comm *comm);
/** thread__delete - free @t and drop its maps reference (NULL is fine) */
void thread__delete(struct thread *t);

#endif
