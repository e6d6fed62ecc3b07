// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workload: forked before the events are opened so they can name its
 * pid, held on a socket until released, then exec'ed.  A failed exec sends
 * its errno back through a close-on-exec pipe: a successful exec closes the
 * pipe and the parent reads end-of-file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/lib/io.h"
#include "util/event/workload.h"

/*
 * Signals the child gets back to their default action before exec: those
 * tperf catches (the tracefs instance's handlers catch every one that
 * ends a process), so that none runs tperf's handler in the child.
 */
static const int reset_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2,
	SIGWINCH, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGIO, SIGSTKFLT,
	SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS,
};

static void child_reset_signals(void)
{
	sigset_t none;

	for (size_t i = 0; i < sizeof(reset_signals) / sizeof(reset_signals[0]); i++)
		signal(reset_signals[i], SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static __attribute__((noreturn)) void child_run(int go_fd, int err_fd, const char **argv)
{
	char c;
	int err;

	child_reset_signals();
	/*
	 * perf's name for a workload until its exec: the synthesized COMM
	 * says "perf-exec", and scripts written for perf's files look for it
	 * (design.md, "The workload's comm")
	 */
	prctl(PR_SET_NAME, "perf-exec");
	/*
	 * Tell the parent the name is set: it synthesizes the workload's
	 * COMM from /proc as soon as workload__prepare() returns.
	 */
	c = 0;
	if (io__write_all(go_fd, &c, 1))
		_exit(127);
	/* Wait for the release; EOF means the parent gave up: do not run. */
	if (io__read_all(go_fd, &c, 1) != 1)
		_exit(127);
	close(go_fd);
	execvp(argv[0], (char *const *)argv);
	err = errno;
	if (io__write_all(err_fd, &err, sizeof(err)))
		_exit(127);
	_exit(127);
}

static void workload__close_fds(struct workload *w)
{
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	w->go_fd = w->err_fd = -1;
}

static void reap(pid_t pid)
{
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/**
 * workload__prepare - fork the workload, held before exec
 * @w: filled with the pid and the pipes
 * @argv: the command and its arguments, NULL-terminated
 *
 * Return: 0 or -errno (EINVAL for an empty command).
 */
int workload__prepare(struct workload *w, const char **argv)
{
	int go[2], err[2], e;
	char ready;

	w->pid = -1;
	w->go_fd = w->err_fd = -1;
	if (!argv || !argv[0] || !argv[0][0])
		return -EINVAL;
	w->cmd = argv[0];
	/* a socket, so a release to a child that died is EPIPE, not SIGPIPE */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		e = -errno;
		goto close_go;
	}
	w->pid = fork();
	if (w->pid < 0) {
		e = -errno;
		close(err[0]);
		close(err[1]);
		goto close_go;
	}
	if (w->pid == 0) {
		close(go[1]);
		close(err[0]);
		child_run(go[0], err[1], argv);
	}
	close(go[0]);
	close(err[1]);
	w->go_fd = go[1];
	w->err_fd = err[0];
	/* held until the child has renamed itself (see child_run) */
	if (io__read_all(w->go_fd, &ready, 1) != 1) {
		workload__close_fds(w);
		reap(w->pid);
		w->pid = -1;
		return -ECHILD;
	}
	return 0;
close_go:
	close(go[0]);
	close(go[1]);
	return e;
}

/**
 * workload__start - release the workload and learn whether exec worked
 * @w: a prepared workload
 *
 * Return: 0 once exec succeeded; -errno of the failed exec (the child is
 * then reaped and @w->pid is -1), or -errno of the release itself.
 */
int workload__start(struct workload *w)
{
	char c = 1;
	int child_err = 0;
	ssize_t r;

	if (w->pid <= 0 || w->go_fd < 0)
		return -EINVAL;
	do
		r = send(w->go_fd, &c, 1, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	if (r != 1) {
		int e = r < 0 ? -errno : -EIO;

		workload__abort(w);
		return e;
	}
	close(w->go_fd);
	w->go_fd = -1;
	r = io__read_all(w->err_fd, &child_err, sizeof(child_err));
	close(w->err_fd);
	w->err_fd = -1;
	if (r == (ssize_t)sizeof(child_err)) {
		reap(w->pid);
		w->pid = -1;
		return -(child_err ? child_err : ENOEXEC);
	}
	return 0;
}

/**
 * workload__wait - wait for the workload to end
 * @w: a started workload
 * @status: receives the status as waitpid() gives it (may be NULL)
 *
 * Return: 0 or -errno (ECHILD when there is no workload).
 */
int workload__wait(struct workload *w, int *status)
{
	int st = 0;
	pid_t r;

	if (w->pid <= 0)
		return -ECHILD;
	do
		r = waitpid(w->pid, &st, 0);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	w->pid = -1;
	if (status)
		*status = st;
	return 0;
}

/**
 * workload__abort - kill and reap a workload that was never started
 * @w: the workload (nothing happens when there is none)
 */
void workload__abort(struct workload *w)
{
	workload__close_fds(w);
	if (w->pid > 0) {
		kill(w->pid, SIGKILL);
		reap(w->pid);
	}
	w->pid = -1;
}
