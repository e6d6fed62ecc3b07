// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Private tracefs instance and its restore list (see tracefs-instance.h).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "util/trace/tracefs-instance.h"

#define TRACEFS_MAGIC_NR 0x74726163
#define RESTORE_CHUNK 64

/* A saved value, written back by tracefs_instance__remove(). */
struct restore {
	char path[512];
	char val[256];
	int len;
};

/*
 * The restore list grows by chunks that never move: the signal handler may
 * replay it while a write is adding to it, so an entry is complete before
 * nr counts it and a chunk is complete before ->last points to it.
 */
struct restore_chunk {
	struct restore_chunk *prev;
	volatile int nr;
	struct restore r[RESTORE_CHUNK];
};

/* The instance and what to undo; replayed in reverse order, before the rmdir. */
struct tracefs_instance {
	char dir[512];
	volatile int created;
	bool exit_registered;
	volatile sig_atomic_t *stop_flag;
	struct restore_chunk *volatile last;
};

/*
 * The process's instance: the one object atexit() and the signal handlers
 * must reach, so static (tests/shell/globals.allow).
 */
static struct tracefs_instance instance;

const char *tracefs_instance__mount_point(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct statfs fs;

	for (int i = 0; i < 2; i++)
		if (!statfs(dirs[i], &fs) && fs.f_type == TRACEFS_MAGIC_NR)
			return dirs[i];
	if (!mount("nodev", dirs[0], "tracefs", 0, NULL))
		return dirs[0];
	return NULL;
}

const char *tracefs_instance__path(const char *file, char *buf, size_t size)
{
	size_t a = strlen(instance.dir), b = strlen(file);

	if (a + b + 2 > size)
		a = b = 0;
	memcpy(buf, instance.dir, a);
	buf[a] = '/';
	memcpy(buf + a + 1, file, b);
	buf[a + 1 + b] = 0;
	return buf;
}

static void write_raw(const char *path, const char *val, int len)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, val, len) < 0) {
		/* nothing more can be done while restoring */
	}
	close(fd);
}

/*
 * Write the saved values back, newest first.  The chunks are not freed: a
 * signal may come while this runs from exit, and they are a few per run.
 */
static void restore_all(struct tracefs_instance *t)
{
	for (struct restore_chunk *c = t->last; c; c = c->prev)
		while (c->nr > 0) {
			struct restore *r = &c->r[c->nr - 1];

			write_raw(r->path, r->val, r->len);
			c->nr--;
		}
}

int tracefs_instance__remove_named(char *name, size_t size)
{
	int err = 0;

	restore_all(&instance);
	if (instance.created) {
		char path[600];
		int n = 0;

		/* Stop recording first: rmdir is refused while the buffer is busy. */
		tracefs_instance__path("tracing_on", path, sizeof(path));
		write_raw(path, "0", 1);
		while (rmdir(instance.dir) && (err = errno) == EBUSY && n++ < 250) {
			usleep(20000);
			err = 0;
		}
		if (err && name && size) {
			const char *base = strrchr(instance.dir, '/');

			snprintf(name, size, "%s", base ? base + 1 : instance.dir);
		}
		instance.created = 0;
	}
	return -err;
}

void tracefs_instance__remove(void)
{
	tracefs_instance__remove_named(NULL, 0);
}

/*
 * Every signal whose default action ends the process, but SIGKILL and
 * SIGSTOP (see --cleanup): the ones a user, a pipe or a timer sends stop
 * the command (the flag) or restore and end it; a fault restores and ends.
 */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
	SIGPROF, SIGXCPU, SIGXFSZ, SIGPWR, SIGIO, SIGSTKFLT,
};
static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };

static void on_signal(int sig)
{
	if (instance.stop_flag) {
		*instance.stop_flag = sig;
		return;
	}
	tracefs_instance__remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_fault(int sig)
{
	tracefs_instance__remove();
	signal(sig, SIG_DFL);
	raise(sig);
}

void tracefs_instance__on_signal(volatile sig_atomic_t *flag)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct sigaction fault = { .sa_handler = on_fault, .sa_flags = SA_RESETHAND };

	instance.stop_flag = flag;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&fault.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
	for (size_t i = 0; i < sizeof(fault_signals) / sizeof(fault_signals[0]); i++)
		sigaction(fault_signals[i], &fault, NULL);
}

bool tracefs_instance__user_stop(int sig)
{
	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

/* Restore at exit and on a signal from now on. */
static void arm(struct tracefs_instance *t)
{
	if (!t->exit_registered) {
		atexit(tracefs_instance__remove);
		t->exit_registered = true;
	}
	if (!t->stop_flag)
		tracefs_instance__on_signal(NULL);
}

int tracefs_instance__create(const char *name)
{
	const char *mnt = tracefs_instance__mount_point();

	if (!mnt)
		return -ENODEV;
	arm(&instance);
	snprintf(instance.dir, sizeof(instance.dir), "%s/instances/%s", mnt, name);
	if (mkdir(instance.dir, 0755))
		return -errno;
	instance.created = 1;
	return 0;
}

int tracefs_instance__attach(const char *dir)
{
	if (strlen(dir) >= sizeof(instance.dir))
		return -ENAMETOOLONG;
	arm(&instance);
	snprintf(instance.dir, sizeof(instance.dir), "%s", dir);
	instance.created = 0;
	return 0;
}

int tracefs_instance__read(const char *file, char *buf, size_t size)
{
	char path[600];
	int fd = open(tracefs_instance__path(file, path, sizeof(path)), O_RDONLY | O_CLOEXEC);
	ssize_t n, len = 0;

	if (fd < 0)
		return -errno;
	while ((size_t)len + 1 < size && (n = read(fd, buf + len, size - len - 1)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return len;
}

static int do_write(const char *file, const char *val, int flags)
{
	char path[600];
	int fd = open(tracefs_instance__path(file, path, sizeof(path)), flags | O_CLOEXEC);
	size_t len = strlen(val);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * Save @file's value on @t's restore list.  A file that cannot be read has
 * nothing to restore; -ENOMEM when the list cannot grow (then nothing may
 * be written that could not be undone).
 */
static int save(struct tracefs_instance *t, const char *file)
{
	struct restore_chunk *c = t->last;
	struct restore *r;
	int len;

	if (!c || c->nr == RESTORE_CHUNK) {
		struct restore_chunk *n = calloc(1, sizeof(*n));

		if (!n)
			return -ENOMEM;
		n->prev = c;
		atomic_signal_fence(memory_order_release);
		t->last = c = n;
	}
	r = &c->r[c->nr];
	len = tracefs_instance__read(file, r->val, sizeof(r->val));
	if (len < 0)
		return 0;
	tracefs_instance__path(file, r->path, sizeof(r->path));
	r->len = len;
	atomic_signal_fence(memory_order_release);
	c->nr++;
	return 0;
}

int tracefs_instance__write(const char *file, const char *val)
{
	int err = save(&instance, file);

	return err ?: do_write(file, val, O_WRONLY | O_TRUNC);
}

int tracefs_instance__append(const char *file, const char *val)
{
	return do_write(file, val, O_WRONLY | O_APPEND);
}

/*
 * Does process @pid run?  Only a pid that is gone makes an instance stale:
 * a tperf may run under another name (a link named perf), or be another
 * build, and its instance is in use.
 */
static bool pid_runs(long pid)
{
	return !kill((pid_t)pid, 0) || errno != ESRCH;
}

/* The pid of an instance named tperf-PID, or -1. */
static long instance_pid(const char *name)
{
	char *end;
	long pid;

	if (strncmp(name, "tperf-", 6) || !isdigit((unsigned char)name[6]))
		return -1;
	pid = strtol(name + 6, &end, 10);
	return *end || pid <= 0 ? -1 : pid;
}

int tracefs_instance__stale(char *names, size_t size, size_t *nr)
{
	const char *mnt = tracefs_instance__mount_point();
	char dir[600];
	struct dirent *d;
	size_t len = 0;
	DIR *dp;

	*nr = 0;
	if (size)
		names[0] = 0;
	if (!mnt)
		return -ENOENT;
	snprintf(dir, sizeof(dir), "%s/instances", mnt);
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		long pid = instance_pid(d->d_name);
		size_t n = strlen(d->d_name) + 1;

		if (pid < 0 || pid == (long)getpid() || pid_runs(pid))
			continue;
		if (len + n + 1 > size)
			break;
		memcpy(names + len, d->d_name, n);
		len += n;
		names[len] = 0;
		(*nr)++;
	}
	closedir(dp);
	return 0;
}

int tracefs_instance__remove_stale(const char *name)
{
	const char *mnt = tracefs_instance__mount_point();
	char path[600];
	int n = 0;

	if (!mnt)
		return -ENOENT;
	if (instance_pid(name) < 0)
		return -EINVAL;
	/* stop it and drop its events, so that rmdir is not refused as busy */
	snprintf(path, sizeof(path), "%s/instances/%s/tracing_on", mnt, name);
	write_raw(path, "0", 1);
	snprintf(path, sizeof(path), "%s/instances/%s/set_event", mnt, name);
	write_raw(path, "", 0);
	snprintf(path, sizeof(path), "%s/instances/%s", mnt, name);
	while (rmdir(path)) {
		if (errno != EBUSY || n++ >= 50)
			return -errno;
		usleep(20000);
	}
	return 0;
}
