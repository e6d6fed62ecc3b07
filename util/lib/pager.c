// SPDX-License-Identifier: GPL-2.0-or-later
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/lib/config.h"
#include "util/lib/pager.h"

static pid_t pager_pid;

int pager_in_use(void)
{
	return pager_pid > 0;
}

/* Flush stdout, close the pipe to the pager and wait for it to quit. */
static void pager_finish(void)
{
	int status;

	if (pager_pid <= 0)
		return;
	fflush(stdout);
	fflush(stderr);
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	while (waitpid(pager_pid, &status, 0) < 0)
		;
	pager_pid = 0;
}

static void pager_signal(int sig)
{
	pager_finish();
	signal(sig, SIG_DFL);
	raise(sig);
}

void setup_pager(void)
{
	const char *pager = getenv("TPERF_PAGER");
	int fds[2];

	if (tperf_config.no_pager || pager_pid || !isatty(STDOUT_FILENO))
		return;
	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return;
	if (pipe(fds) < 0)
		return;
	fflush(stdout);
	pager_pid = fork();
	if (pager_pid < 0) {
		pager_pid = 0;
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pager_pid) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		setenv("LESS", getenv("LESS") ? getenv("LESS") : "FRX", 1);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	tperf_config.use_color = true;
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fds[1], STDERR_FILENO);
	close(fds[0]);
	close(fds[1]);
	atexit(pager_finish);
	signal(SIGINT, pager_signal);
	signal(SIGTERM, pager_signal);
	signal(SIGPIPE, pager_signal);
}
