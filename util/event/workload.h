/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command a user profiles: forked early and held back until its events
 * are open, then released to exec (events use enable_on_exec).
 */
#ifndef TPERF_WORKLOAD_H
#define TPERF_WORKLOAD_H

#include <sys/types.h>

struct workload {
	pid_t pid;
	int go_fd;	/* written to release the child */
	int err_fd;	/* the child writes errno here when exec fails */
	const char *cmd;
};

/* Fork the child, stopped before exec.  0 or -errno. */
int workload__prepare(struct workload *w, const char **argv);
/*
 * Release the child.  0 when exec succeeded; -errno of the failed exec
 * (-ENOENT for a command that does not exist) otherwise, the child reaped.
 */
int workload__start(struct workload *w);
/* Wait for the child; *status as waitpid() gives it.  Restarts on EINTR. */
int workload__wait(struct workload *w, int *status);
/* Kill and reap a child that was never started. */
void workload__abort(struct workload *w);

#endif
