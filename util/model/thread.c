// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Threads (the machine owns them and their comm strings).
 */
#include <stdlib.h>

#include "util/model/thread.h"

struct thread *thread__new(int pid, int tid, struct comm *comm)
{
	struct thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->comm = comm;
	return t;
}

void thread__delete(struct thread *t)
{
	if (!t)
		return;
	maps__put(t->maps);
	free(t);
}
